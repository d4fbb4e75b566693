import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { startReceiver } from '../domains/flows/test-receiver'
import { startS3Server } from '../storage/s3-test-server'
import { SWEEP_LOCK_KEY } from '../sweeps'
import { TINY_PNG } from './fixtures'
import { type AppInstance, startInstances, type Instances } from './instances'

/**
 * Several instances (issue 17): two real app processes on one fresh PostgreSQL database and one
 * S3-compatible store (s3rver), each with its own data folder, as behind a load balancer.
 */
const SECRET = 'whsec_' + Buffer.from('instances-test-secret-32-bytes!!').toString('base64')

let s3: Awaited<ReturnType<typeof startS3Server>>
let c: Instances
const receiver = startReceiver(() => SECRET)

afterAll(async () => {
  await c?.close()
  await s3?.stop()
  receiver.stop()
}, 60_000)

async function cluster() {
  if (!c) {
    s3 = await startS3Server('mes-instances')
    c = await startInstances({ count: 2, env: { ...s3.env, MES_SWEEP_EVERY_MS: '100', MES_FLOW_RETRY_DELAY_SECONDS: '1' } })
  }
  return c
}

async function flowFor(via: AppInstance, token: string, name: string, eventTypes: string[]) {
  const res = await via.request('POST', '/api/flow', { token, body: { name, url: receiver.url, secret: SECRET, event_types: eventTypes } })
  expect(res.status).toBe(201)
  return res.body.detail._key as string
}

const eventCount = async (type: string, subjects: string[]) =>
  Number(
    (
      await c.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_type', '=', type)
        .where('subject_key', 'in', subjects)
        .executeTakeFirstOrThrow()
    ).n,
  )

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await Bun.sleep(100)
  }
}

describe('two app instances on one PostgreSQL', () => {
  test('the sweeps run once, not twice: one instance at a time holds the sweep lock; each overdue issue escalates once, one webhook each', async () => {
    await cluster()
    const token = await c.adminToken(c.a)
    await flowFor(c.a, token, 'Escalations', ['ISSUE_ESCALATED'])
    const type = await c.a.request('POST', '/api/issue-type', { token, body: { code: 'ESC1', name: 'Escalates in 1 h', close_within: 1, link_type: 'generic' } })
    expect(type.status).toBe(201)
    const issues: string[] = []
    for (let i = 0; i < 12; i++) {
      const via = i % 2 ? c.b : c.a
      const res = await via.request('POST', '/api/issue', { token, body: { type_key: type.body.detail._key, title: `Issue ${i}` } })
      expect(res.status).toBe(201)
      issues.push(res.body.detail._key)
    }
    // While the test holds the sweep lock, neither instance sweeps (both run every 100 ms).
    await c.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${SWEEP_LOCK_KEY})`.execute(conn)
      try {
        await c.db.updateTable('issues').set({ opened_at: sql`now() - interval '2 hours'` as never }).where('id', 'in', issues).execute()
        await Bun.sleep(1_500)
        expect(await eventCount('ISSUE_ESCALATED', issues)).toBe(0)
      } finally {
        await sql`select pg_advisory_unlock(${SWEEP_LOCK_KEY})`.execute(conn)
      }
    })
    await until(async () => (await eventCount('ISSUE_ESCALATED', issues)) === issues.length, 20_000, 'every issue escalated')
    // Both instances go on sweeping: still exactly one escalation per issue.
    await Bun.sleep(1_000)
    expect(await eventCount('ISSUE_ESCALATED', issues)).toBe(issues.length)
    const escalated = await c.db.selectFrom('issues').select(['id', 'critical']).where('id', 'in', issues).execute()
    expect(escalated.every((i) => i.critical)).toBe(true)
    // One webhook per escalation, each sent once.
    await receiver.waitFor(() => receiver.accepted.filter((a) => a.type === 'ISSUE_ESCALATED').length === issues.length, 30_000)
    const sent = receiver.all.filter((a) => a.type === 'ISSUE_ESCALATED')
    expect(sent).toHaveLength(issues.length)
    expect(new Set(sent.map((s) => JSON.parse(s.body).data.subject_key))).toEqual(new Set(issues))
  }, 120_000)

  test('a file uploaded through A is served by B (S3-compatible store; neither instance wrote it to its own disk)', async () => {
    await cluster()
    const token = await c.adminToken(c.a)
    const form = new FormData()
    form.append('file', new File([TINY_PNG], 'pixel.png', { type: 'image/png' }))
    const up = await c.a.request('POST', '/api/media/create', { token, body: form })
    expect(up.status).toBe(201)
    const key = up.body.detail._key as string
    const viaB = await fetch(`${c.b.url}/media/${key}`, { headers: { authorization: `Bearer ${token}` } })
    expect(viaB.status).toBe(200)
    expect(viaB.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await viaB.arrayBuffer())).toEqual(TINY_PNG)
    // In the bucket, not in either instance's data folder.
    const bucketDir = path.join(s3.directory, s3.bucket)
    expect(readdirSync(bucketDir, { recursive: true }).some((f) => String(f).endsWith('._S3rver_object'))).toBe(true)
    for (const i of [c.a, c.b]) expect(existsSync(path.join(i.dataDir, 'files'))).toBe(false)
  }, 60_000)

  test('kill -9 of A while webhook deliveries are queued loses none: B delivers every one, in order, each once after de-duplication', async () => {
    await cluster()
    const token = await c.adminToken(c.a)
    await flowFor(c.a, token, 'ERP orders', ['ISSUE_OPENED'])
    const type = await c.a.request('POST', '/api/issue-type', { token, body: { code: 'K9', name: 'Kill test', link_type: 'generic' } })
    // Only A runs while the deliveries are queued and the first one is on the wire.
    await c.b.stop()
    receiver.hold()
    const issues: string[] = []
    for (let i = 0; i < 6; i++) {
      const res = await c.a.request('POST', '/api/issue', { token, body: { type_key: type.body.detail._key, title: `Queued ${i}` } })
      expect(res.status).toBe(201)
      issues.push(res.body.detail._key)
    }
    await receiver.waitFor(() => receiver.held.length >= 1, 20_000)
    const b = await c.start('b2')
    await c.a.kill9()
    // A's request died with it; the receiver answers again.
    await receiver.waitFor(() => receiver.held[0]!.aborted, 10_000)
    receiver.release()
    const ids = (await c.db.selectFrom('flow_deliveries').select(['id', 'event_id', 'seq']).where('event_type', '=', 'ISSUE_OPENED').orderBy('seq').execute())
    expect(ids).toHaveLength(issues.length)
    await receiver.waitFor(() => ids.every((d) => receiver.accepted.some((a) => a.id === d.id)), 90_000)
    const order = receiver.accepted.filter((a) => a.type === 'ISSUE_OPENED').map((a) => a.id)
    expect(order).toEqual(ids.map((d) => d.id))
    const rows = await c.db.selectFrom('flow_deliveries').select('status').where('event_type', '=', 'ISSUE_OPENED').execute()
    expect(rows.every((r) => r.status === 'delivered')).toBe(true)
    // B is the one left, and it answers.
    expect((await b.request('GET', '/api/health')).status).toBe(200)
  }, 180_000)
})
