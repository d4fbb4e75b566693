import { beforeAll, describe, expect, test } from 'bun:test'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { useHarness } from '../../test/harness'
import { adminKey, MISSING_UUID, quickUser } from '../../test/fixtures'
import { makeProduct } from '../work-orders/test-fixtures'
import { createSerial, linkSerials, listSerials } from './service'
import { getWorkOrderSerials } from './work-order-serials'
import { testRevisionOf } from '../../test/revisions'

const h = useHarness()
const tokens: Record<string, string> = {}
const keys: Record<string, string> = {}
let wo: string
let otherWo: string
let batch: string
let phaseName: string
let phaseKey: string

const inTrx = <T>(fn: (trx: Db) => Promise<T>) => h.svc.db.transaction().execute(fn)

/**
 * Work order WO-A makes two pumps (P1 in batch 1, P2 without a batch); motor M1 and board B1 go
 * into P1, motor M2 into P2. WO-B makes pump P3 with motor M3. In a batch of WO-A a spare part S1
 * is also put into P3 (a rework): a link made in WO-A's batch, so WO-A consumed it too.
 */
beforeAll(async () => {
  for (const scope of ['traceability', 'production', 'operator']) tokens[scope] = (await quickUser(h, `w-${scope}`, scope)).token
  const actor: Actor = { userId: await adminKey(h), sessionId: null, scope: 'admin', tokenId: null }
  const pump = await makeProduct(h.svc.db, { code: 'POMPA', description: 'Pompa', phases: ['Assemblaggio'] })
  const motor = (await makeProduct(h.svc.db, { code: 'MOTORE', description: 'Motore' })).key
  const phase = pump.phases[0]!.key
  phaseName = pump.phases[0]!.name
  phaseKey = phase
  const makeWo = async (code: string) =>
    (await h.svc.db.insertInto('work_orders').values({ code, product_id: pump.key, planned_qt: 2, revision_id: await testRevisionOf(h.svc.db, pump.key) }).returning('id').executeTakeFirstOrThrow()).id
  wo = await makeWo('WO-A')
  otherWo = await makeWo('WO-B')
  const job = await h.svc.db.insertInto('jobs').values({ work_order_id: wo, phase_id: phase, position: 0, quantity: 2 }).returning('id').executeTakeFirstOrThrow()
  batch = (await h.svc.db.insertInto('batches').values({ job_id: job.id, number: 1, qt_total: 1, opened_at: h.clock.now() }).returning('id').executeTakeFirstOrThrow()).id
  await inTrx(async (trx) => {
    const now = h.clock.now()
    const make = async (code: string, product: string, extra: Record<string, unknown> = {}) => {
      keys[code] = await createSerial(trx, actor, { code, product_id: product, ...extra }, now)
    }
    await make('P1', pump.key, { work_order_id: wo, job_id: job.id, batch_id: batch, phase_id: phase, temporary: true })
    await make('P2', pump.key, { work_order_id: wo, phase_id: phase })
    await make('P3', pump.key, { work_order_id: otherWo })
    for (const code of ['M1', 'M2', 'M3', 'B1', 'S1']) await make(code, motor)
    await linkSerials(trx, actor, { parent_id: keys.P1!, child_id: keys.M1!, batch_id: batch, phase_id: phase, temporary: true }, now)
    await linkSerials(trx, actor, { parent_id: keys.P1!, child_id: keys.B1! }, now)
    await linkSerials(trx, actor, { parent_id: keys.P2!, child_id: keys.M2! }, now)
    await linkSerials(trx, actor, { parent_id: keys.P3!, child_id: keys.M3! }, now)
    await linkSerials(trx, actor, { parent_id: keys.P3!, child_id: keys.S1!, batch_id: batch }, now)
  })
})

describe('getWorkOrderSerials', () => {
  test('the serials a work order produced, with their components counted, and nothing of another work order', async () => {
    const r = await getWorkOrderSerials(h.svc, wo)
    expect(r.produced_total).toBe(2)
    expect(r.produced.map((s) => [s.code, s.components, s.state])).toEqual([
      ['P1', 2, 'temporary'],
      ['P2', 1, 'final'],
    ])
    expect(r.produced[0]).toMatchObject({ serial_key: keys.P1, product_code: 'POMPA', phase_name: phaseName, batch_number: 1 })
    expect(r.produced[1]).toMatchObject({ batch_number: null })
    const other = await getWorkOrderSerials(h.svc, otherWo)
    expect(other.produced.map((s) => s.code)).toEqual(['P3'])
  })

  test('the component serials it consumed: those inside its serials and those linked in its batches, each once, by parent', async () => {
    const r = await getWorkOrderSerials(h.svc, wo)
    expect(r.consumed_total).toBe(4)
    expect(r.consumed.map((c) => `${c.parent_code}>${c.code}`)).toEqual(['P1>B1', 'P1>M1', 'P2>M2', 'P3>S1'])
    expect(r.consumed.find((c) => c.code === 'M1')).toMatchObject({ serial_key: keys.M1, parent_key: keys.P1, product_code: 'MOTORE', batch_number: 1, phase_name: phaseName, state: 'temporary' })
    // WO-B: its own motor and the spare put into its pump by WO-A's batch.
    expect((await getWorkOrderSerials(h.svc, otherWo)).consumed.map((c) => c.code)).toEqual(['M3', 'S1'])
  })

  test('a work order without serials answers empty lists', async () => {
    const pump = (await h.svc.db.selectFrom('products').select('id').where('code', '=', 'POMPA').executeTakeFirstOrThrow()).id
    const { id } = await h.svc.db
      .insertInto('work_orders')
      .values({ code: 'WO-EMPTY', product_id: pump, planned_qt: 1, revision_id: await testRevisionOf(h.svc.db, pump) })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(await getWorkOrderSerials(h.svc, id)).toEqual({ work_order_key: id, work_order_code: expect.any(String), produced: [], produced_total: 0, consumed: [], consumed_total: 0 })
  })
})

describe('the overview filters the screens use (listSerials)', () => {
  test('by work order and by phase, alone or with a code and a state; totals follow the filters', async () => {
    const codes = async (input: Parameters<typeof listSerials>[1]) => {
      const r = await listSerials(h.svc, input)
      return { codes: r.rows.map((x) => x.code).sort(), total: r.total }
    }
    expect(await codes({ work_order_key: wo })).toEqual({ codes: ['P1', 'P2'], total: 2 })
    expect(await codes({ work_order_key: otherWo })).toEqual({ codes: ['P3'], total: 1 })
    expect(await codes({ phase_key: phaseKey })).toEqual({ codes: ['P1', 'P2'], total: 2 })
    expect(await codes({ work_order_key: wo, state: 'temporary' })).toEqual({ codes: ['P1'], total: 1 })
    expect(await codes({ work_order_key: wo, phase_key: phaseKey, code: 'P2' })).toEqual({ codes: ['P2'], total: 1 })
    expect(await codes({ work_order_key: wo, code: 'P3' })).toEqual({ codes: [], total: 0 })
    expect(await codes({ work_order_key: MISSING_UUID })).toEqual({ codes: [], total: 0 })
  })
})

describe('REST and tRPC', () => {
  const get = (path: string, scope = 'production') => h.request('GET', path, { token: tokens[scope] })

  test('GET work-order/{id}/serials: production and traceability read it, operators do not; unknown keys are 404', async () => {
    const res = await get(`/api/work-order/${wo}/serials`)
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ produced_total: 2, consumed_total: 4 })
    expect((await get(`/api/work-order/${wo}/serials`, 'traceability')).status).toBe(200)
    expect((await get(`/api/work-order/${wo}/serials`, 'operator')).status).toBe(403)
    expect((await h.request('GET', `/api/work-order/${wo}/serials`)).status).toBe(401)
    expect((await get(`/api/work-order/${MISSING_UUID}/serials`)).status).toBe(404)
    expect((await get('/api/work-order/not-a-key/serials')).status).toBe(404)
    expect((await get(`/api/work-order/${'x'.repeat(10_000)}/serials`)).status).toBeLessThan(500)
  })

  test('tRPC serials.workOrder answers like REST', async () => {
    const res = await h.request('GET', `/api/trpc/serials.workOrder?input=${encodeURIComponent(JSON.stringify({ key: wo }))}`, { token: tokens.production })
    expect(res.status).toBe(200)
    expect(res.body.result.data.produced.map((s: { code: string }) => s.code)).toEqual(['P1', 'P2'])
    const bad = await h.request('GET', `/api/trpc/serials.workOrder?input=${encodeURIComponent(JSON.stringify({ key: wo, extra: 1 }))}`, { token: tokens.production })
    expect(bad.status).toBe(400)
  })
})
