import { afterEach, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { useInstances } from '../test/instances'
import { type SseReader, readSse } from './sse-reader'

/**
 * Two app processes on one PostgreSQL (src-server/test/instances.ts): a change made through
 * instance A reaches an SSE client of instance B within 2 s, through B's own LISTEN.
 */
describe('live events across instances', () => {
  const c = useInstances({ count: 2 })
  const open: SseReader[] = []
  afterEach(() => {
    for (const r of open.splice(0)) r.close()
  })

  async function streamOf(url: string, token: string, path = '/api/events/stream') {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const r = readSse(res)
    open.push(r)
    return r
  }
  const jobEvent = (token: string, subject_key: string) =>
    c.a.request('POST', '/api/event', { token, body: { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key } })

  test('a change through A reaches an SSE client of B within 2 s (REST stream and tRPC subscription)', async () => {
    const token = await c.adminToken(c.a)
    const rest = await streamOf(c.b.url, token)
    const trpc = await streamOf(c.b.url, token, `/api/trpc/live.events?input=${encodeURIComponent(JSON.stringify({ topics: ['jobs'] }))}`)
    await trpc.waitFor((f) => f.event === 'connected')
    const t0 = performance.now()
    expect((await jobEvent(token, 'from-a')).status).toBe(201)
    const viaRest = await rest.waitFor((f) => f.json?.subject_key === 'from-a', { timeoutMs: 2_000 })
    const viaTrpc = await trpc.waitFor((f) => f.json?.subject_key === 'from-a', { timeoutMs: 2_000 })
    expect(viaRest.at - t0).toBeLessThan(2_000)
    expect(viaTrpc.at - t0).toBeLessThan(2_000)
    const row = await c.db.selectFrom('events').select('id').where('subject_key', '=', 'from-a').executeTakeFirstOrThrow()
    expect(viaRest.id).toBe(String(row.id))
    expect(viaTrpc.id).toBe(String(row.id))
    // ... and A's own clients hear it too, once.
    const onA = await streamOf(c.a.url, token)
    await jobEvent(token, 'second')
    await onA.waitFor((f) => f.json?.subject_key === 'second')
    await rest.waitFor((f) => f.json?.subject_key === 'second')
    expect(rest.frames.filter((f) => f.json?.subject_key === 'from-a')).toHaveLength(1)
  })

  test("B's LISTEN connection dropped: it reconnects and delivers what was appended meanwhile", async () => {
    const token = await c.adminToken(c.a)
    const s = await streamOf(c.b.url, token)
    await jobEvent(token, 'before-drop')
    await s.waitFor((f) => f.json?.subject_key === 'before-drop')
    // Every instance's LISTEN connection is ended by the server (as a database restart or a
    // network cut would); the clients' streams stay open.
    const ended = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'LISTEN%'`.execute(c.db)
    expect(ended.rows[0]!.n).toBeGreaterThanOrEqual(1)
    await jobEvent(token, 'while-down')
    await s.waitFor((f) => f.json?.subject_key === 'while-down', { timeoutMs: 5_000 })
    await jobEvent(token, 'after-reconnect')
    await s.waitFor((f) => f.json?.subject_key === 'after-reconnect', { timeoutMs: 5_000 })
    expect(s.frames.filter((f) => f.json?.subject_key === 'while-down')).toHaveLength(1)
  })

  test('a graceful stop of B ends its streams at once; the client resumes on A from its last event id, missing nothing', async () => {
    const token = await c.adminToken(c.a)
    const s = await streamOf(c.b.url, token)
    await jobEvent(token, 'before-stop')
    const last = await s.waitFor((f) => f.json?.subject_key === 'before-stop')
    const t0 = performance.now()
    await c.b.stop()
    expect(performance.now() - t0).toBeLessThan(5_000)
    await s.ended
    await jobEvent(token, 'while-moving')
    const res = await fetch(`${c.a.url}/api/events/stream`, { headers: { authorization: `Bearer ${token}`, 'last-event-id': last.id! } })
    const again = readSse(res)
    open.push(again)
    await again.waitFor((f) => f.json?.subject_key === 'while-moving')
    expect(again.frames.some((f) => f.json?.subject_key === 'before-stop')).toBe(false)
  })
})
