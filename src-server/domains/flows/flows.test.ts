import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { FLOW_EVENT_TYPES } from '../../../src/domains/flows/schemas'
import { openPglite } from '../../db/connect'
import { migrateToLatest } from '../../db/migrate'
import { readConfig } from '../../config'
import { fakeClock } from '../../clock'
import { adminToken, HOUR, quickUser } from '../../test/fixtures'
import { type Harness, useHarness } from '../../test/harness'
import { appendEvent } from '../events/service'
import { type FlowWorker, startFlowWorker } from './queue'
import { sign, verify } from './signature'
import { startReceiver } from './test-receiver'
import { waitUntil } from '../../test/wait'

const SECRET = 'whsec_' + Buffer.from('a-test-secret-of-32-bytes-length').toString('base64')

/** Records `n` events of `type` in one transaction each (as a service does), returns their ids. */
async function record(h: Harness, type: string, n: number, subject = 'J-1'): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < n; i++) {
    ids.push(
      await h.svc.db.transaction().execute((trx) => appendEvent(trx, null, { event_type: type, subject_type: 'job', subject_key: `${subject}-${i}`, data: { i } }, h.clock.now())),
    )
  }
  return ids
}

describe('Standard Webhooks signature', () => {
  test('v1 HMAC-SHA256 over id.timestamp.body with the base64-decoded whsec_ key (the Standard Webhooks test vector)', () => {
    // From the Standard Webhooks specification's reference libraries.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek'
    const body = '{"test": 2432232314}'
    expect(sign(secret, id, 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
    expect(verify(secret, { id, timestamp: '1614265330', signature: 'v1,bogus v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }, body)).toBe(true)
    expect(verify(secret, { id, timestamp: '1614265331', signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }, body)).toBe(false)
  })
})

describe('data flows: deliveries (pg-boss), retries, order, log, redeliver', () => {
  let worker: FlowWorker | undefined
  let token: string
  const receiver = startReceiver(() => SECRET, { failFirst: 2 })
  // Registered before the harness's own: the worker stops before its database is dropped.
  afterAll(async () => {
    await worker?.stop()
    receiver.stop()
  })
  const h = useHarness()

  beforeAll(async () => {
    token = await adminToken(h)
    worker = await startFlowWorker({ ...h.svc, config: { ...h.svc.config, flowRetryDelaySeconds: 1 } }, { pollingIntervalSeconds: 0.5 })
  }, 60_000)

  test('an admin creates a flow; bad input is 400 naming the field, a taken name 409, others 403', async () => {
    const created = await h.request('POST', '/api/flow', {
      token,
      body: { name: 'ERP', url: receiver.url, secret: SECRET, event_types: ['JOB_STARTED', 'ISSUE_OPENED'] },
    })
    expect(created.status).toBe(201)
    expect(created.body.detail).toMatchObject({ name: 'ERP', url: receiver.url, active: true, event_types: ['JOB_STARTED', 'ISSUE_OPENED'], pending: 0 })
    for (const [body, field] of [
      [{ name: 'x', url: 'ftp://erp', event_types: ['JOB_STARTED'] }, 'url'],
      [{ name: 'x', url: receiver.url, event_types: [] }, 'event_types'],
      [{ name: 'x', url: receiver.url, event_types: ['LOGIN'] }, 'event_types'],
      [{ name: 'x', url: receiver.url, event_types: ['JOB_STARTED'], secret: 'short' }, 'secret'],
      [{ name: 'x', url: receiver.url, event_types: ['JOB_STARTED'], extra: 1 }, 'extra'],
    ] as const) {
      const res = await h.request('POST', '/api/flow', { token, body })
      expect(res.status).toBe(400)
      expect(JSON.stringify(res.body.detail)).toContain(field)
    }
    const again = await h.request('POST', '/api/flow', { token, body: { name: 'erp', url: receiver.url, event_types: ['JOB_STARTED'] } })
    expect(again.status).toBe(409)
    expect(again.body.detail.code).toBe('FLOW_NAME_TAKEN')
    const operator = await quickUser(h, 'flow-operator', 'operator')
    expect((await h.request('GET', '/api/flow', { token: operator.token })).status).toBe(403)
    // A made secret when none is given.
    const made = await h.request('POST', '/api/flow', { token, body: { name: 'BI', url: 'http://127.0.0.1:9/none', event_types: ['BATCH_COMPLETED'], active: false } })
    expect(made.status).toBe(201)
    expect(made.body.detail.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    // OpenAPI documents the paths.
    const openapi = await h.request('GET', '/api/openapi.json')
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/flow', '/flow/{key}', '/flow/{key}/delivery', '/flow-delivery/{key}/redeliver']))
    expect(FLOW_EVENT_TYPES).toContain('WORK_ORDER_CREATED')
  })

  test('a rolled-back change queues nothing; uninteresting types queue nothing', async () => {
    const before = await h.svc.db.selectFrom('flow_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    await expect(
      h.svc.db.transaction().execute(async (trx) => {
        await appendEvent(trx, null, { event_type: 'JOB_STARTED', subject_type: 'job', subject_key: 'rolled-back' })
        throw new Error('the change fails')
      }),
    ).rejects.toThrow('the change fails')
    await record(h, 'JOB_CLOSED', 1)
    const after = await h.svc.db.selectFrom('flow_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  test('the receiver answers 500 twice then 200: every event arrives signed, retried, exactly once after de-duplication by id, in order', async () => {
    const ids = [...(await record(h, 'JOB_STARTED', 3)), ...(await record(h, 'ISSUE_OPENED', 1, 'I'))]
    const rows = await h.svc.db.selectFrom('flow_deliveries').select(['id', 'event_id', 'seq']).where('event_id', 'in', ids).orderBy('seq').execute()
    expect(rows.map((r) => r.event_id)).toEqual(ids)
    await receiver.waitFor(() => rows.every((r) => receiver.accepted.some((a) => a.id === r.id)), 90_000)
    // Every request was signed correctly; each id was tried 3 times (500, 500, 200).
    expect(receiver.all.every((r) => r.signatureOk)).toBe(true)
    for (const r of rows) expect(receiver.triesOf(r.id)).toBe(3)
    // Exactly once after de-duplication, in the order of the events.
    const mine = receiver.accepted.filter((a) => rows.some((r) => r.id === a.id))
    expect(mine.map((a) => a.id)).toEqual(rows.map((r) => r.id))
    expect(mine.map((a) => JSON.parse(a.body).data.event_id)).toEqual(ids)
    expect(JSON.parse(mine[0]!.body)).toMatchObject({ type: 'JOB_STARTED', data: { subject_type: 'job', subject_key: 'J-1-0', i: 0 } })
    // In order: no delivery was tried before the one before it was accepted.
    for (let i = 1; i < rows.length; i++) {
      const firstTry = receiver.all.findIndex((a) => a.id === rows[i]!.id)
      const prevAccepted = receiver.all.findIndex((a) => a.id === rows[i - 1]!.id && a.status === 200)
      expect(firstTry).toBeGreaterThan(prevAccepted)
    }
    // The log says so.
    const flow = (await h.request('GET', '/api/flow', { token })).body.detail.find((f: any) => f.name === 'ERP')
    const log = await h.request('GET', `/api/flow/${flow._key}/delivery?limit=2`, { token })
    expect(log.status).toBe(200)
    expect(log.body.detail.rows).toHaveLength(2)
    expect(log.body.detail.rows[0]).toMatchObject({ _key: rows[3]!.id, status: 'delivered', attempts: 3, last_status_code: 200, last_error: null })
    const next = await h.request('GET', `/api/flow/${flow._key}/delivery?before=${log.body.detail.next_before}`, { token })
    expect(next.body.detail.rows.map((r: any) => r._key)).toEqual([rows[1]!.id, rows[0]!.id])
    expect((await h.request('GET', `/api/flow/${flow._key}/delivery?limit=x`, { token })).status).toBe(400)
  }, 120_000)

  test('redeliver sends the same id and body again; a waiting delivery is 409 DELIVERY_PENDING', async () => {
    const [id] = await record(h, 'ISSUE_OPENED', 1, 'R')
    const d = await h.svc.db.selectFrom('flow_deliveries').select(['id', 'body']).where('event_id', '=', id!).executeTakeFirstOrThrow()
    const pending = await h.request('POST', `/api/flow-delivery/${d.id}/redeliver`, { token })
    expect(pending.status).toBe(409)
    expect(pending.body.detail.code).toBe('DELIVERY_PENDING')
    await receiver.waitFor(() => receiver.accepted.some((a) => a.id === d.id), 60_000)
    // The receiver has it before the sender records it as delivered: redeliver once it is recorded.
    const status = () => h.svc.db.selectFrom('flow_deliveries').select('status').where('id', '=', d.id).executeTakeFirstOrThrow()
    await waitUntil('the delivery recorded as delivered', async () => (await status()).status === 'delivered')
    const count = receiver.all.filter((a) => a.id === d.id).length
    const res = await h.request('POST', `/api/flow-delivery/${d.id}/redeliver`, { token })
    expect(res.status).toBe(200)
    await receiver.waitFor(() => receiver.all.filter((a) => a.id === d.id).length === count + 1, 30_000)
    const again = receiver.all.filter((a) => a.id === d.id).at(-1)!
    expect(again.body).toBe(d.body)
    expect(again.status).toBe(200)
    await waitUntil('the redelivery recorded as delivered', async () => (await status()).status === 'delivered')
    expect((await h.request('POST', '/api/flow-delivery/msg_nope/redeliver', { token })).status).toBe(404)
  }, 90_000)

  test('a paused flow records nothing; active again, its next events are delivered; a deleted flow takes its log with it', async () => {
    const ok = startReceiver(() => SECRET)
    try {
      const flow = await h.request('POST', '/api/flow', { token, body: { name: 'Pausable', url: ok.url, secret: SECRET, event_types: ['WORK_ORDER_CLOSED'], active: false } })
      expect(flow.status).toBe(201)
      const key = flow.body.detail._key
      await record(h, 'WORK_ORDER_CLOSED', 1, 'W')
      expect(await h.svc.db.selectFrom('flow_deliveries').select('id').where('flow_id', '=', key).execute()).toHaveLength(0)
      const on = await h.request('PATCH', `/api/flow/${key}`, { token, body: { active: true } })
      expect(on.body.detail.active).toBe(true)
      const [id] = await record(h, 'WORK_ORDER_CLOSED', 1, 'W2')
      await ok.waitFor(() => ok.accepted.some((a) => JSON.parse(a.body).data.event_id === id), 30_000)
      expect(ok.accepted).toHaveLength(1)
      // The receiver has it before the sender records it: wait for the record, then read the counts.
      await waitUntil('the delivery recorded', async () => (await h.request('GET', `/api/flow/${key}`, { token })).body.detail.pending === 0)
      expect((await h.request('GET', `/api/flow/${key}`, { token })).body.detail).toMatchObject({ delivered: 1, pending: 0, failed: 0 })
      expect((await h.request('DELETE', `/api/flow/${key}`, { token })).status).toBe(200)
      expect(await h.svc.db.selectFrom('flow_deliveries').select('id').where('flow_id', '=', key).execute()).toHaveLength(0)
      expect((await h.request('GET', `/api/flow/${key}`, { token })).status).toBe(404)
    } finally {
      ok.stop()
    }
  }, 60_000)

  test('a receiver that keeps failing is given up 24 h after the event (failed, last error kept); the flow goes on with the next', async () => {
    const dead = startReceiver(() => SECRET, { alwaysFail: true })
    try {
      const flow = await h.request('POST', '/api/flow', { token, body: { name: 'Andon', url: dead.url, secret: SECRET, event_types: ['BATCH_COMPLETED'] } })
      const [first, second] = await record(h, 'BATCH_COMPLETED', 2, 'B')
      const d1 = await h.svc.db.selectFrom('flow_deliveries').select('id').where('event_id', '=', first!).where('flow_id', '=', flow.body.detail._key).executeTakeFirstOrThrow()
      await dead.waitFor(() => dead.triesOf(d1.id) >= 1, 30_000)
      // The second waits behind the first: never tried while the first is pending.
      expect(dead.all.some((a) => JSON.parse(a.body).data.event_id === second)).toBe(false)
      ;(h.clock as ReturnType<typeof fakeClock>).advance(25 * HOUR)
      await dead.waitFor(() => dead.all.some((a) => JSON.parse(a.body).data.event_id === second), 60_000)
      const row = await h.svc.db.selectFrom('flow_deliveries').selectAll().where('id', '=', d1.id).executeTakeFirstOrThrow()
      expect(row.status).toBe('failed')
      expect(row.last_status_code).toBe(500)
      expect(row.last_error).toContain('HTTP 500')
      await h.request('PATCH', `/api/flow/${flow.body.detail._key}`, { token, body: { active: false } })
    } finally {
      dead.stop()
    }
  }, 120_000)
})

describe('data flows on embedded PGlite (the zero-setup mode)', () => {
  test('pg-boss runs on the same PGlite: an event is delivered, signed', async () => {
    const database = await openPglite()
    const receiver = startReceiver(() => SECRET)
    let worker: FlowWorker | undefined
    try {
      await migrateToLatest(database.db)
      const svc = { db: database.db, dbKind: database.kind, clock: fakeClock(), config: { ...readConfig({}), flowRetryDelaySeconds: 1 } }
      worker = await startFlowWorker(svc, { pollingIntervalSeconds: 0.5 })
      await svc.db
        .insertInto('flows')
        .values({ name: 'P', url: receiver.url, secret: SECRET, event_types: sql<string[]>`array['WORK_ORDER_CREATED']` as never, updated_at: new Date() })
        .execute()
      const id = await svc.db.transaction().execute((trx) => appendEvent(trx, null, { event_type: 'WORK_ORDER_CREATED', subject_type: 'work_order', subject_key: 'W1' }))
      await receiver.waitFor(() => receiver.accepted.length === 1, 30_000)
      expect(receiver.accepted[0]!.signatureOk).toBe(true)
      expect(JSON.parse(receiver.accepted[0]!.body).data.event_id).toBe(id)
    } finally {
      await worker?.stop()
      receiver.stop()
      await database.close()
    }
  }, 180_000)
})
