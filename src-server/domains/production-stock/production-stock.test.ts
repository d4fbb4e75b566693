import { beforeAll, describe, expect, test } from 'bun:test'
import type { Actor } from '../../context'
import { AppError } from '../../errors'
import { adminKey } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { completeBatch } from '../execution/batches'
import { newBatch, startJobs } from '../execution/start-pause'
import { completeStep } from '../execution/steps'
import { makeOperator, makeSetup, newKey, type Operator, runBatch } from '../execution/test-fixtures'
import { listMovements } from '../movements/list'
import { createMovement, revertMovement, stockOfProduct } from '../movements/service'
import { updateWarehouseSettings } from '../movements/settings'
import { createPosition, updatePosition } from '../positions/service'
import { createSerial, linkSerials } from '../serials/service'
import { getWorkOrderMaterial } from './service'

/**
 * Stock follows production (issue 14): a completed batch consumes its phase's bom (per item /
 * per batch / per job) from the consumption position and, in the last phase, loads its pieces
 * into the production position, in BATCH_COMPLETED's transaction; a refused completion moves
 * nothing; serial-tracked pieces move by serial.
 */
const h = useHarness()
let admin: Actor
let op: Operator
const pos: Record<string, string> = {}
let seq = 0
const code = (p: string) => `${p}-${++seq}`

async function refused(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
  throw new Error('expected a refusal')
}
const productId = async (c: string) => (await h.svc.db.selectFrom('products').select('id').where('code', '=', c).executeTakeFirstOrThrow()).id
const load = (product: string, position: string, quantity: number, serial?: string) =>
  createMovement(h.svc, admin, { type: 'load', product_key: product, to_position_key: position, quantity, serial })
const stock = (product: string, position: string) => stockOfProduct(h.svc.db, product, { positionKey: position, subtree: false })
const start = async (job: string) => (await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })).jobs[0]!
const run = (batch: string) => runBatch(h.svc, op.actor, batch, completeStep)
// Tests leave jobs running side by side: their phases allow parallel work.
const setup = (opts: Omit<Parameters<typeof makeSetup>[1], 'defaults'>) => makeSetup(h.svc.db, { ...opts, phases: opts.phases.map((p) => ({ steps: [{ type: 'instruction' as const }], ...p })), defaults: { parallel_job_allowed: true } })
const settings = (patch: Parameters<typeof updateWarehouseSettings>[2]) => updateWarehouseSettings(h.svc, admin, patch)

beforeAll(async () => {
  admin = { userId: await adminKey(h), sessionId: null, scope: 'admin warehouse', tokenId: null }
  op = await makeOperator(h, 'op.stock')
  pos.STORE = (await createPosition(h.svc, admin, { code: 'PS-STORE' }))._key
  pos.LINE = (await createPosition(h.svc, admin, { code: 'PS-LINE' }))._key
  pos.PROD = (await createPosition(h.svc, admin, { code: 'PS-PROD' }))._key
  await settings({
    inventory_management: true,
    default_consumption_position_key: pos.LINE,
    default_production_position_key: pos.PROD,
    negative_stock_allowed: false,
  })
}, 60_000)

describe('production ties: batch completion moves the stock', () => {
  test('per item, per batch and per job quantities leave the consumption position; the pieces arrive in the production position', async () => {
    const [a, b, c] = [code('PSA'), code('PSB'), code('PSC')]
    const s = await setup({
      phases: [
        {
          params: { production_batch_qt: 4, step_check: true },
          bom: [
            { quantity: 2, quantity_per: 'item', code: a },
            { quantity: 1, quantity_per: 'batch', code: b },
            { quantity: 3, quantity_per: 'job', code: c },
          ],
        },
      ],
      quantity: 10,
      operator: op.key,
    })
    const [A, B, C] = [await productId(a), await productId(b), await productId(c)]
    await load(A, pos.LINE!, 100)
    await load(B, pos.LINE!, 10)
    await load(C, pos.LINE!, 10)
    const job = s.jobs[0]![0]!
    const started = await start(job)
    const out = await run(started.batch!._key)
    expect(out.completed_batch?.qt_total).toBe(4)
    expect(await stock(A, pos.LINE!)).toBe(92)
    expect(await stock(B, pos.LINE!)).toBe(9)
    expect(await stock(C, pos.LINE!)).toBe(7)
    expect(await stock(s.productKey, pos.PROD!)).toBe(4)
    const moves = await listMovements(h.svc, { batch_key: started.batch!._key })
    expect(moves.rows.map((m) => `${m.type}:${m.product_key === s.productKey ? 'P' : m.product_code}:${m.confirmed_quantity}`).sort()).toEqual(
      [`consumption:${a}:8`, `consumption:${b}:1`, `consumption:${c}:3`, 'production:P:4'].sort(),
    )
    for (const m of moves.rows) expect(m).toMatchObject({ status: 'confirmed', work_order_key: s.workOrderKey, user_key: op.key })

    // The second batch: per job is consumed once per job only.
    await newBatch(h.svc, op.actor, { job_key: job, idempotency_key: newKey() }).catch(() => null)
    const batch2 = (await h.svc.db.selectFrom('jobs').select('active_batch_id').where('id', '=', job).executeTakeFirstOrThrow()).active_batch_id!
    await run(batch2)
    expect(await stock(A, pos.LINE!)).toBe(84)
    expect(await stock(B, pos.LINE!)).toBe(8)
    expect(await stock(C, pos.LINE!)).toBe(7)
    expect(await stock(s.productKey, pos.PROD!)).toBe(8)

    // The Materiale tab reads required, consumed and available per component.
    const material = await getWorkOrderMaterial(h.svc, s.workOrderKey)
    expect(material).toMatchObject({ inventory_management: true, consumption_position_code: 'PS-LINE', production_position_code: 'PS-PROD', produced: 8 })
    const byCode = Object.fromEntries(material.lines.map((l) => [l.item_code, l]))
    expect(byCode[a]).toMatchObject({ required: 20, consumed: 16, available_at_line: 84, available: 84 })
    expect(byCode[b]).toMatchObject({ required: 3, consumed: 2, available_at_line: 8 })
    expect(byCode[c]).toMatchObject({ required: 3, consumed: 3, available_at_line: 7 })
  })

  test('a shortfall refuses the completion with a clear 409 and leaves stock, batch and job as they were', async () => {
    const d = code('PSD')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 1, step_check: false }, bom: [{ quantity: 5, quantity_per: 'item', code: d }] }],
      quantity: 2,
      operator: op.key,
    })
    const D = await productId(d)
    await load(D, pos.LINE!, 3)
    const started = await start(s.jobs[0]![0]!)
    const batch = started.batch!._key
    const before = await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const e = await refused(completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() }))
    expect(e.status).toBe(409)
    expect(e.appCode).toBe('PRODUCTION_STOCK_SHORTFALL')
    expect(e.extra).toMatchObject({ product_code: d, position_code: 'PS-LINE', needed: 5, available: 3 })
    expect(e.message).toContain(d)
    expect(await stock(D, pos.LINE!)).toBe(3)
    expect(await stock(s.productKey, pos.PROD!)).toBe(0)
    expect((await listMovements(h.svc, { batch_key: batch })).total).toBe(0)
    expect(await h.svc.db.selectFrom('batches').select('status').where('id', '=', batch).executeTakeFirstOrThrow()).toEqual({ status: 'open' })
    expect((await h.svc.db.selectFrom('jobs').select('completed_qt').where('id', '=', s.jobs[0]![0]!).executeTakeFirstOrThrow()).completed_qt).toBe(0)
    const after = await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))

    // With negative stock allowed the same completion goes through and the stock goes below zero.
    await settings({ negative_stock_allowed: true })
    try {
      await completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() })
      expect(await stock(D, pos.LINE!)).toBe(-2)
      expect(await stock(s.productKey, pos.PROD!)).toBe(1)
    } finally {
      await settings({ negative_stock_allowed: false })
    }
  })

  test('without a default consumption position the completion is refused (409 WAREHOUSE_POSITION_NOT_SET), nothing moves', async () => {
    const e1 = code('PSE')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 1, step_check: false }, bom: [{ quantity: 1, quantity_per: 'item', code: e1 }] }],
      quantity: 1,
      operator: op.key,
    })
    const started = await start(s.jobs[0]![0]!)
    await settings({ default_consumption_position_key: null })
    try {
      const e = await refused(completeBatch(h.svc, op.actor, { batch_key: started.batch!._key, idempotency_key: newKey() }))
      expect([e.status, e.appCode]).toEqual([409, 'WAREHOUSE_POSITION_NOT_SET'])
    } finally {
      await settings({ default_consumption_position_key: pos.LINE })
    }
  })

  test('inventory management off: completing a batch moves no stock', async () => {
    const f = code('PSF')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 2, step_check: false }, bom: [{ quantity: 1, quantity_per: 'item', code: f }] }],
      quantity: 2,
      operator: op.key,
    })
    const F = await productId(f)
    await load(F, pos.LINE!, 1)
    const started = await start(s.jobs[0]![0]!)
    await settings({ inventory_management: false })
    try {
      await completeBatch(h.svc, op.actor, { batch_key: started.batch!._key, idempotency_key: newKey() })
      expect(await stock(F, pos.LINE!)).toBe(1)
      expect((await listMovements(h.svc, { batch_key: started.batch!._key })).total).toBe(0)
    } finally {
      await settings({ inventory_management: true })
    }
  })

  test('only the last phase loads finished goods; earlier phases consume their own bom', async () => {
    const g = code('PSG')
    const s = await setup({
      phases: [
        { params: { production_batch_qt: 2, step_check: false, release_style: 'continuous' }, bom: [{ quantity: 1, quantity_per: 'item', code: g }] },
        { params: { production_batch_qt: 2, step_check: false } },
      ],
      quantity: 2,
      operator: op.key,
    })
    const G = await productId(g)
    await load(G, pos.LINE!, 5)
    const first = await start(s.jobs[0]![0]!)
    await completeBatch(h.svc, op.actor, { batch_key: first.batch!._key, idempotency_key: newKey() })
    expect(await stock(G, pos.LINE!)).toBe(3)
    expect(await stock(s.productKey, pos.PROD!)).toBe(0)
    const second = await start(s.jobs[1]![0]!)
    await completeBatch(h.svc, op.actor, { batch_key: second.batch!._key, idempotency_key: newKey() })
    expect(await stock(s.productKey, pos.PROD!)).toBe(2)
  })

  test('serial-tracked pieces move by serial; a component serial not in stock moves nothing', async () => {
    const k = code('PSK')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 2, step_check: false }, bom: [{ quantity: 1, quantity_per: 'item', code: k }] }],
      quantity: 2,
      operator: op.key,
    })
    const K = await productId(k)
    // CS-1 sits in the store (not at the line): it is consumed from where it is. CS-2 is in no stock.
    const [cs1, cs2] = [code('CS'), code('CS')]
    await load(K, pos.STORE!, 1, cs1)
    await load(K, pos.LINE!, 10)
    const started = await start(s.jobs[0]![0]!)
    const batch = started.batch!._key
    const now = h.clock.now()
    const [p1, p2] = [code('PSN'), code('PSN')]
    await h.svc.db.transaction().execute(async (trx) => {
      const parent1 = await createSerial(trx, op.actor, { code: p1, product_id: s.productKey, batch_id: batch, temporary: true }, now)
      const parent2 = await createSerial(trx, op.actor, { code: p2, product_id: s.productKey, batch_id: batch, temporary: true }, now)
      const c1 = await createSerial(trx, op.actor, { code: cs1, product_id: K }, now)
      const c2 = await createSerial(trx, op.actor, { code: cs2, product_id: K }, now)
      await linkSerials(trx, op.actor, { parent_id: parent1, child_id: c1, batch_id: batch, temporary: true }, now)
      await linkSerials(trx, op.actor, { parent_id: parent2, child_id: c2, batch_id: batch, temporary: true }, now)
    })
    await completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() })
    const moves = (await listMovements(h.svc, { batch_key: batch })).rows
    const consumed = moves.filter((m) => m.type === 'consumption')
    expect(consumed.map((m) => [m.serial, m.from_position_code, m.confirmed_quantity])).toEqual([[cs1, 'PS-STORE', 1]])
    expect(await stock(K, pos.STORE!)).toBe(0)
    expect(await stock(K, pos.LINE!)).toBe(10)
    const produced = moves.filter((m) => m.type === 'production')
    expect(produced.map((m) => m.serial).sort()).toEqual([p1, p2].sort())
    expect(produced.every((m) => m.to_position_code === 'PS-PROD' && m.confirmed_quantity === 1)).toBe(true)
  })

  test('stock in a position flagged not available is never consumed: a clear 409 (even with negative stock allowed), nothing moves', async () => {
    const q = code('PSQ')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 1, step_check: false }, bom: [{ quantity: 2, quantity_per: 'item', code: q }] }],
      quantity: 2,
      operator: op.key,
    })
    const Q = await productId(q)
    await load(Q, pos.LINE!, 5)
    const quarantine = (await createPosition(h.svc, admin, { code: code('PS-QUAR'), available: false }))._key
    await load(Q, quarantine, 7)
    // The Materiale tab counts as available only stock in positions flagged available.
    expect((await getWorkOrderMaterial(h.svc, s.workOrderKey)).lines[0]).toMatchObject({ available: 5, available_at_line: 5 })
    const started = await start(s.jobs[0]![0]!)
    const batch = started.batch!._key
    await updatePosition(h.svc, admin, pos.LINE!, { available: false })
    await settings({ negative_stock_allowed: true })
    try {
      const e = await refused(completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() }))
      expect([e.status, e.appCode]).toEqual([409, 'PRODUCTION_STOCK_SHORTFALL'])
      expect(e.extra).toMatchObject({ product_code: q, position_code: 'PS-LINE', needed: 2, available: 0, position_available: false })
      expect(e.message).toContain('not available')
      expect(await stock(Q, pos.LINE!)).toBe(5)
      expect((await listMovements(h.svc, { batch_key: batch })).total).toBe(0)
      expect(await h.svc.db.selectFrom('batches').select('status').where('id', '=', batch).executeTakeFirstOrThrow()).toEqual({ status: 'open' })
    } finally {
      await settings({ negative_stock_allowed: false })
      await updatePosition(h.svc, admin, pos.LINE!, { available: true })
    }
    await completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() })
    expect(await stock(Q, pos.LINE!)).toBe(3)
    expect(await stock(Q, quarantine)).toBe(7)
  })

  test('a component serial only in a position flagged not available refuses the completion, naming it; moved to a usable position it is consumed', async () => {
    const r = code('PSR')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 1, step_check: false }, bom: [{ quantity: 1, quantity_per: 'item', code: r }] }],
      quantity: 1,
      operator: op.key,
    })
    const R = await productId(r)
    const quarantine = (await createPosition(h.svc, admin, { code: code('PS-QS'), available: false }))._key
    const cs = code('CSQ')
    await load(R, quarantine, 1, cs)
    await load(R, pos.LINE!, 4)
    const started = await start(s.jobs[0]![0]!)
    const batch = started.batch!._key
    const now = h.clock.now()
    await h.svc.db.transaction().execute(async (trx) => {
      const parent = await createSerial(trx, op.actor, { code: code('PSRN'), product_id: s.productKey, batch_id: batch, temporary: true }, now)
      const child = await createSerial(trx, op.actor, { code: cs, product_id: R }, now)
      await linkSerials(trx, op.actor, { parent_id: parent, child_id: child, batch_id: batch, temporary: true }, now)
    })
    const e = await refused(completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() }))
    expect([e.status, e.appCode]).toEqual([409, 'PRODUCTION_STOCK_SHORTFALL'])
    expect(e.extra).toMatchObject({ product_code: r, serial: cs, position_available: false, available: 0 })
    expect(e.message).toContain(cs)
    expect(await stock(R, quarantine)).toBe(1)
    expect(await stock(R, pos.LINE!)).toBe(4)
    await createMovement(h.svc, admin, { type: 'transfer', product_key: R, from_position_key: quarantine, to_position_key: pos.STORE, quantity: 1, serial: cs })
    await completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey() })
    const consumed = (await listMovements(h.svc, { batch_key: batch, type: 'consumption' })).rows
    expect(consumed.map((m) => [m.serial, m.from_position_code])).toEqual([[cs, 'PS-STORE']])
    expect(await stock(R, pos.LINE!)).toBe(4)
  })

  test('a reverted consumption no longer counts as consumed in the Materiale tab', async () => {
    const m = code('PSM')
    const s = await setup({
      phases: [{ params: { production_batch_qt: 1, step_check: false }, bom: [{ quantity: 2, quantity_per: 'item', code: m }] }],
      quantity: 1,
      operator: op.key,
    })
    const M = await productId(m)
    await load(M, pos.LINE!, 2)
    const started = await start(s.jobs[0]![0]!)
    await completeBatch(h.svc, op.actor, { batch_key: started.batch!._key, idempotency_key: newKey() })
    expect((await getWorkOrderMaterial(h.svc, s.workOrderKey)).lines[0]).toMatchObject({ consumed: 2, available_at_line: 0 })
    const move = (await listMovements(h.svc, { batch_key: started.batch!._key, type: 'consumption' })).rows[0]!
    await revertMovement(h.svc, admin, move._key, 'contato male')
    expect((await getWorkOrderMaterial(h.svc, s.workOrderKey)).lines[0]).toMatchObject({ consumed: 0, available_at_line: 2 })
  })
})

describe('SPEC 5: a component serial not in stock asks confirmation', () => {
  test('with inventory management on, serials in no position are refused unless confirmed; off, nothing is checked', async () => {
    const { assertComponentSerialsInStock } = await import('./service')
    const p = code('PSS')
    await setup({ phases: [{ bom: [{ quantity: 1, quantity_per: 'item', code: p }] }], quantity: 1, operator: op.key })
    const P = await productId(p)
    const [inStock, missing] = [code('SS'), code('SS')]
    await load(P, pos.STORE!, 1, inStock)
    const e = await refused(assertComponentSerialsInStock(h.svc.db, [{ product_key: P, code: inStock }, { product_key: P, code: missing }], false))
    expect([e.status, e.appCode, e.extra?.serials]).toEqual([409, 'SERIAL_NOT_IN_STOCK', [missing]])
    expect(await assertComponentSerialsInStock(h.svc.db, [{ product_key: P, code: missing }], true)).toEqual([missing])
    expect(await assertComponentSerialsInStock(h.svc.db, [{ product_key: P, code: inStock }], false)).toEqual([])
    await settings({ inventory_management: false })
    try {
      expect(await assertComponentSerialsInStock(h.svc.db, [{ product_key: P, code: missing }], false)).toEqual([])
    } finally {
      await settings({ inventory_management: true })
    }
  })
})
