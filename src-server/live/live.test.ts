import { afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { LIVE_RESYNC } from '../../src/domains/live/schemas'
import { chainCommittedEvents } from '../domains/events/chainer'
import { appendEvent } from '../domains/events/service'
import { adminKey, adminToken, insertApiToken, quickUser } from '../test/fixtures'
import { ORIGIN, useHarness } from '../test/harness'
import { endLiveStreams, liveHub } from './hub'
import { type SseReader, readSse } from './sse-reader'
import { LIVE_LIMITS } from './stream'
import { liveEventOf } from './topics'

/**
 * Live events end to end in one process: NOTIFY from the event append's transaction, the
 * instance's one LISTEN, the REST stream and the tRPC subscription (PostgreSQL with
 * TEST_DATABASE_URL, PGlite's own listen/notify otherwise).
 */
describe('live events', () => {
  const h = useHarness()
  const open: SseReader[] = []
  let admin: string
  let operator: { key: string; token: string }
  let quality: { key: string; token: string }

  beforeAll(async () => {
    admin = await adminToken(h)
    operator = await quickUser(h, 'live.operator', 'operator')
    quality = await quickUser(h, 'live.quality', 'quality')
  })
  afterEach(() => {
    for (const r of open.splice(0)) r.close()
  })

  /** Opens the REST stream; resolves once the instance LISTENs for it (the answer's headers). */
  async function stream(token: string, query = '', headers: Record<string, string> = {}) {
    const res = await h.app.request(`${ORIGIN}/api/events/stream${query}`, { headers: { authorization: `Bearer ${token}`, ...headers } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = readSse(res)
    open.push(reader)
    return reader
  }
  /** A job event any operator or production user may hear of (as POST event records it). */
  const jobEvent = (token: string, subject_key: string) =>
    h.request('POST', '/api/event', { token, body: { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key } })
  const about = (key: string) => (f: { json: any }) => f.json?.subject_key === key
  /** The event's link in the chain (made by the chainer once the change committed): its number is the stream's id. */
  const chainOf = async (subjectKey: string) => {
    await chainCommittedEvents(h.svc.db)
    return h.svc.db
      .selectFrom('event_chain as c')
      .innerJoin('events as e', 'e.id', 'c.event_id')
      .select(['c.seq', 'e.id'])
      .where('e.subject_key', '=', subjectKey)
      .executeTakeFirstOrThrow()
  }

  test('a committed change reaches a subscriber with its id, type, topic and keys', async () => {
    const s = await stream(operator.token)
    const t0 = performance.now()
    expect((await jobEvent(admin, 'job-1')).status).toBe(201)
    const f = await s.waitFor(about('job-1'))
    expect(f.at - t0).toBeLessThan(2_000)
    const row = await chainOf('job-1')
    expect(f.id).toBe(String(row.seq))
    expect(f.event).toBe('PAUSED_OFFLINE')
    expect(f.json).toMatchObject({ id: row.seq, type: 'PAUSED_OFFLINE', topic: 'jobs', subject_type: 'job', subject_key: 'job-1', keys: { job: 'job-1' } })
    // Keys only: the event's data never travels.
    expect(JSON.stringify(f.json)).not.toContain('reported_by_client')
  })

  test('each subscriber gets only what its scope allows (the same scopes as the queries)', async () => {
    const op = await stream(operator.token)
    const qa = await stream(quality.token)
    const adm = await stream((await quickUser(h, 'live.admin', 'admin')).token)
    // USER_CREATED is an admin matter; a job event is for operators and production.
    const made = await h.request('POST', '/api/user', { token: admin, body: { username: 'live.newcomer', scope: 'operator' } })
    expect(made.status).toBe(201)
    await jobEvent(admin, 'job-2')
    await adm.waitFor((f) => f.json?.type === 'USER_CREATED')
    await op.waitFor(about('job-2'))
    // The quality user heard of neither; by the time the operator got the later event, an earlier
    // one would have been there too (one LISTEN, delivered in commit order).
    const marker = `issue-${Date.now()}`
    await appendEvent(h.svc.db, null, { event_type: 'ISSUE_UPDATED', subject_type: 'issue', subject_key: marker })
    await qa.waitFor(about(marker))
    expect(qa.frames.map((f) => f.json?.type)).toEqual(['ISSUE_UPDATED'])
    expect(op.frames.some((f) => f.json?.type === 'USER_CREATED')).toBe(false)
    expect(adm.frames.some(about('job-2'))).toBe(false)
  })

  test('asking for a topic the scope does not allow is 403 NOT_AUTHORISED; an unknown topic 400', async () => {
    const res = await h.request('GET', '/api/events/stream?topics=jobs,admin', { token: operator.token })
    expect(res.status).toBe(403)
    expect(res.body.detail.code).toBe('NOT_AUTHORISED')
    expect(res.body.detail.message).toContain('admin')
    const bad = await h.request('GET', '/api/events/stream?topics=jobs,nope', { token: operator.token })
    expect(bad.status).toBe(400)
    expect(bad.body.detail.code).toBe('INVALID_INPUT')
    expect((await h.request('GET', '/api/events/stream', {})).status).toBe(401)
    // A narrower choice narrows: an admin following only `admin` hears no job event.
    const adm = await stream(admin, '?topics=admin')
    await jobEvent(admin, 'job-3')
    await appendEvent(h.svc.db, null, { event_type: 'SETTINGS_UPDATED', subject_type: 'settings', subject_key: 'after-job-3' })
    await adm.waitFor(about('after-job-3'))
    expect(adm.frames.some(about('job-3'))).toBe(false)
  })

  test('an API token streams what its own scope allows', async () => {
    const { token } = await insertApiToken(h, { scope: 'production', createdBy: await adminKey(h) })
    const s = await stream(token)
    await jobEvent(admin, 'job-4')
    await s.waitFor(about('job-4'))
  })

  test('a rolled back transaction notifies nothing', async () => {
    const s = await stream(operator.token)
    await h.svc.db
      .transaction()
      .execute(async (trx) => {
        await appendEvent(trx, null, { event_type: 'JOB_PAUSED', subject_type: 'job', subject_key: 'rolled-back' })
        throw new Error('no')
      })
      .catch(() => {})
    await h.svc.db.transaction().execute(async (trx) => {
      await appendEvent(trx, null, { event_type: 'JOB_PAUSED', subject_type: 'job', subject_key: 'committed' })
    })
    await s.waitFor(about('committed'))
    expect(s.frames.some(about('rolled-back'))).toBe(false)
    expect(await h.svc.db.selectFrom('events').select('id').where('subject_key', '=', 'rolled-back').execute()).toHaveLength(0)
  })

  test('notifications wait for COMMIT: none while the transaction is open', async () => {
    const s = await stream(operator.token)
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    let appended!: () => void
    const inTransaction = new Promise<void>((r) => {
      appended = r
    })
    const tx = h.svc.db.transaction().execute(async (trx) => {
      await appendEvent(trx, null, { event_type: 'JOB_PAUSED', subject_type: 'job', subject_key: 'slow-commit' })
      appended()
      await held
    })
    // The event is appended (its NOTIFY issued) before the window opens; a notification sent
    // before COMMIT would arrive within it. A silence has no state to wait for: this one is timed.
    await inTransaction
    await Bun.sleep(300)
    expect(s.frames.some(about('slow-commit'))).toBe(false)
    release()
    await tx
    await s.waitFor(about('slow-commit'))
  })

  test('reconnecting with Last-Event-ID misses nothing in between, in order, and repeats nothing', async () => {
    const s = await stream(operator.token)
    await jobEvent(admin, 'before-drop')
    const last = await s.waitFor(about('before-drop'))
    s.close()
    open.splice(open.indexOf(s), 1)
    for (const k of ['gap-1', 'gap-2', 'gap-3']) await jobEvent(admin, k)
    const again = await stream(operator.token, '', { 'last-event-id': last.id! })
    await jobEvent(admin, 'after-reconnect')
    await again.waitFor(about('after-reconnect'))
    expect(again.frames.map((f) => f.json.subject_key)).toEqual(['gap-1', 'gap-2', 'gap-3', 'after-reconnect'])
    // The same through the query string (clients that cannot set the header).
    const viaQuery = await stream(operator.token, `?last_event_id=${last.id}`)
    await viaQuery.waitFor(about('gap-3'))
    expect(viaQuery.frames.slice(0, 3).map((f) => f.json.subject_key)).toEqual(['gap-1', 'gap-2', 'gap-3'])
  })

  // Two transactions at once need PostgreSQL (PGlite has one connection); CI and `bun run test` always have it.
  test.if(Boolean(process.env.TEST_DATABASE_URL))('an event that commits after a newer one is delivered, and replayed to a script that had the newer one', async () => {
    const s = await stream(operator.token)
    let appended!: () => void
    const olderAppended = new Promise<void>((resolve) => (appended = resolve))
    let commit!: () => void
    const commitNow = new Promise<void>((resolve) => (commit = resolve))
    // The older transaction takes its event id first and commits last.
    const older = h.svc.db.transaction().execute(async (trx) => {
      await appendEvent(trx, null, { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: 'took-id-first' })
      appended()
      await commitNow
    })
    await olderAppended
    await appendEvent(h.svc.db, null, { event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: 'committed-first' })
    const first = await s.waitFor(about('committed-first'))
    commit()
    await older
    const second = await s.waitFor(about('took-id-first'))
    const [a, b] = [await chainOf('took-id-first'), await chainOf('committed-first')]
    expect(a.id).toBeLessThan(b.id)
    expect(Number(second.id)).toBe(Number(first.id) + 1)
    // A script that stopped right after the first one gets the late one on reconnecting.
    const again = await stream(operator.token, '', { 'last-event-id': first.id! })
    const replayed = await again.waitFor(about('took-id-first'))
    expect(replayed.id).toBe(second.id)
  })

  test('the hub catching up after a lost LISTEN connection never repeats what a reconnected client already had', async () => {
    for (const k of ['had-1', 'had-2']) await jobEvent(admin, k)
    const rows = [{ ...(await chainOf('had-1')), subject_key: 'had-1' }, { ...(await chainOf('had-2')), subject_key: 'had-2' }]
    const again = await stream(operator.token, '', { 'last-event-id': String(rows[1]!.seq) })
    // What a hub that was behind fans out: events the client got on its earlier stream, then a new one.
    for (const r of rows) liveHub(h.svc.db).fanOut(liveEventOf({ id: r.seq, event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: r.subject_key }))
    await jobEvent(admin, 'new-after')
    await again.waitFor(about('new-after'))
    expect(again.frames.map((f) => f.json.subject_key)).toEqual(['new-after'])
  })

  test('a gap too long to replay answers one RESYNC (the client refetches)', async () => {
    const s = await stream(operator.token)
    await jobEvent(admin, 'old')
    const last = await s.waitFor(about('old'))
    const max = LIVE_LIMITS.replayMax
    LIVE_LIMITS.replayMax = 2
    try {
      for (const k of ['r1', 'r2', 'r3']) await jobEvent(admin, k)
      // Linked (by the chainer, after their commits) before the client comes back.
      await chainCommittedEvents(h.svc.db)
      const again = await stream(operator.token, '', { 'last-event-id': last.id! })
      const resync = await again.waitFor((f) => f.event === LIVE_RESYNC)
      expect(Number(resync.id)).toBeGreaterThan(Number(last.id))
      expect(again.frames.some(about('r1'))).toBe(false)
    } finally {
      LIVE_LIMITS.replayMax = max
    }
  })

  test('a revoked session stops its stream (401), as does a revoked API token', async () => {
    const victim = await quickUser(h, 'live.leaver', 'operator')
    const s = await stream(victim.token)
    expect((await h.request('POST', '/api/logout', { token: victim.token })).status).toBe(200)
    const err = await s.waitFor((f) => f.event === 'error')
    expect(err.json.code).toBe('NOT_AUTHENTICATED')
    await s.ended

    const tok = await insertApiToken(h, { scope: 'operator', createdBy: await adminKey(h) })
    const t = await stream(tok.token)
    expect((await h.request('DELETE', `/api/api-token/${tok.id}`, { token: admin })).status).toBe(200)
    const tokErr = await t.waitFor((f) => f.event === 'error')
    expect(tokErr.json.code).toBe('NOT_AUTHENTICATED')
  })

  test('a closed stream leaves the hub (no subscriber is kept for a gone client)', async () => {
    const hub = liveHub(h.svc.db)
    const before = hub.size
    const s = await stream(operator.token)
    expect(hub.size).toBe(before + 1)
    s.close()
    open.splice(open.indexOf(s), 1)
    for (let i = 0; i < 50 && hub.size > before; i++) await Bun.sleep(20)
    expect(hub.size).toBe(before)
  })

  test('tRPC live.events: the same events over SSE, tracked by chain number; refused topics are FORBIDDEN', async () => {
    const input = encodeURIComponent(JSON.stringify({ topics: ['jobs'] }))
    const res = await h.app.request(`${ORIGIN}/api/trpc/live.events?input=${input}`, { headers: { authorization: `Bearer ${operator.token}` } })
    expect(res.status).toBe(200)
    const s = readSse(res)
    open.push(s)
    await s.waitFor((f) => f.event === 'connected')
    await jobEvent(admin, 'via-trpc')
    const f = await s.waitFor(about('via-trpc'))
    expect(f.id).toBe(String((await chainOf('via-trpc')).seq))
    expect(f.json).toMatchObject({ type: 'PAUSED_OFFLINE', topic: 'jobs' })

    // Reconnecting as httpSubscriptionLink does: lastEventId in the input.
    s.close()
    await jobEvent(admin, 'missed-trpc')
    const again = readSse(
      await h.app.request(`${ORIGIN}/api/trpc/live.events?input=${encodeURIComponent(JSON.stringify({ topics: ['jobs'], lastEventId: f.id }))}`, {
        headers: { authorization: `Bearer ${operator.token}` },
      }),
    )
    open.push(again)
    await again.waitFor(about('missed-trpc'))

    const refused = readSse(
      await h.app.request(`${ORIGIN}/api/trpc/live.events?input=${encodeURIComponent(JSON.stringify({ topics: ['admin'] }))}`, {
        headers: { authorization: `Bearer ${operator.token}` },
      }),
    )
    open.push(refused)
    const err = await refused.waitFor((x) => x.event === 'serialized-error')
    expect(err.json?.data?.appCode ?? err.json?.error?.data?.appCode ?? JSON.stringify(err.json)).toContain('NOT_AUTHORISED')
  })

  test('tRPC live.events is gated like every procedure: 401 without sign-in, unknown keys 400, a locked session 423', async () => {
    const call = async (input: unknown, token?: string) => {
      const res = await h.app.request(`${ORIGIN}/api/trpc/live.events?input=${encodeURIComponent(JSON.stringify(input))}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      })
      const s = readSse(res)
      open.push(s)
      return s.waitFor((f) => f.event === 'serialized-error')
    }
    expect((await call({})).json.data.appCode).toBe('NOT_AUTHENTICATED')
    const typo = await call({ topcs: ['jobs'] }, operator.token)
    expect(typo.json.data.appCode).toBe('INVALID_INPUT')
    expect(typo.json.message).toContain('topcs')
    const badId = await call({ lastEventId: 'abc' }, operator.token)
    expect(badId.json.data.appCode).toBe('INVALID_INPUT')
    const locked = await quickUser(h, 'live.locked', 'operator')
    await h.svc.db.updateTable('auth_sessions').set({ locked: true }).where('user_id', '=', locked.key).execute()
    expect((await call({}, locked.token)).json.data.appCode).toBe('SESSION_LOCKED')
  })

  test('a session that goes idle while listening is told it is locked (423) at the next re-check', async () => {
    const sleepy = await quickUser(h, 'live.sleepy', 'operator')
    const every = LIVE_LIMITS.recheckMs
    LIVE_LIMITS.recheckMs = 50
    try {
      const s = await stream(sleepy.token)
      await appendEvent(h.svc.db, null, { event_type: 'JOB_PAUSED', subject_type: 'job', subject_key: 'while-awake' })
      await s.waitFor(about('while-awake'))
      // Keeping the screen live is not activity: past the idle time the stream ends as locked.
      h.clock.advance(2 * 60 * 60_000)
      const err = await s.waitFor((f) => f.event === 'error', { timeoutMs: 3_000 })
      expect(err.json.code).toBe('SESSION_LOCKED')
    } finally {
      LIVE_LIMITS.recheckMs = every
    }
  })

  test('endLiveStreams (graceful shutdown) ends every open stream, REST and tRPC', async () => {
    // A fresh user: the test before moved the clock past everyone's idle time.
    const user = await quickUser(h, 'live.ender', 'operator')
    const rest = await stream(user.token)
    const res = await h.app.request(`${ORIGIN}/api/trpc/live.events?input=${encodeURIComponent(JSON.stringify({}))}`, {
      headers: { authorization: `Bearer ${user.token}` },
    })
    const trpc = readSse(res)
    open.push(trpc)
    await trpc.waitFor((f) => f.event === 'connected')
    endLiveStreams(h.svc.db)
    await rest.ended
    await trpc.waitFor((f) => f.event === 'return')
    expect(liveHub(h.svc.db).size).toBe(0)
    // New streams open as before.
    const after = await stream(user.token)
    await appendEvent(h.svc.db, null, { event_type: 'JOB_PAUSED', subject_type: 'job', subject_key: 'after-end' })
    await after.waitFor(about('after-end'))
  })

  test('OpenAPI documents the stream: text/event-stream, topics, Last-Event-ID', async () => {
    const doc = (await h.request('GET', '/api/openapi.json')).body
    const op = doc.paths['/events/stream'].get
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream'])
    const names = op.parameters.map((p: { name: string }) => p.name)
    expect(names).toEqual(expect.arrayContaining(['topics', 'last_event_id', 'Last-Event-ID']))
  })
})
