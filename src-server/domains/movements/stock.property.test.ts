import { beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import type { Actor } from '../../context'
import { AppError } from '../../errors'
import { adminKey } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { createPosition } from '../positions/service'
import { makeProduct } from '../work-orders/test-fixtures'
import { countPosition } from './count'
import { createMovement, revertMovement } from './service'
import { updateWarehouseSettings } from './settings'

/**
 * Random sequences of loads, transfers, unloads, reverts and counts against a model: after each
 * sequence the stock table equals the sum of the confirmed movements, never goes below zero
 * (negative stock not allowed), and every refusal is the one the model expects.
 */
const h = useHarness()
let actor: Actor
const positions: string[] = []
let run = 0

beforeAll(async () => {
  actor = { userId: await adminKey(h), sessionId: null, scope: 'warehouse', tokenId: null }
  for (const code of ['P-1', 'P-2', 'P-3']) positions.push((await createPosition(h.svc, actor, { code }))._key)
})

type Op =
  | { kind: 'load'; to: number; product: number; q: number }
  | { kind: 'transfer'; from: number; to: number; product: number; q: number }
  | { kind: 'unload'; from: number; product: number; q: number }
  | { kind: 'revert'; pick: number }
  | { kind: 'count'; at: number; counted: [number, number] }

// Quarters: exact in binary floating point and in numeric(18, 4).
const qty = fc.integer({ min: 1, max: 24 }).map((n) => n / 4)
const where = fc.integer({ min: 0, max: 2 })
const which = fc.integer({ min: 0, max: 1 })
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('load' as const), to: where, product: which, q: qty }),
  fc.record({ kind: fc.constant('transfer' as const), from: where, to: where, product: which, q: qty }),
  fc.record({ kind: fc.constant('unload' as const), from: where, product: which, q: qty }),
  fc.record({ kind: fc.constant('revert' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('count' as const), at: where, counted: fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 })).map(([a, b]) => [a / 4, b / 4] as [number, number]) }),
)

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'ok'
  } catch (e) {
    if (e instanceof AppError) return e.appCode
    throw e
  }
}

test('stock always equals the sum of confirmed movements and never goes negative', async () => {
  await updateWarehouseSettings(h.svc, actor, { negative_stock_allowed: false })
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      run++
      const products = [(await makeProduct(h.svc.db, { code: `PROP-${run}-A` })).key, (await makeProduct(h.svc.db, { code: `PROP-${run}-B` })).key]
      const model = new Map<string, number>()
      const at = (p: number, pr: number) => model.get(`${p}|${pr}`) ?? 0
      const add = (p: number, pr: number, d: number) => model.set(`${p}|${pr}`, at(p, pr) + d)
      const done: { key: string; from: number | null; to: number | null; product: number; q: number; reverted: boolean }[] = []
      for (const o of ops) {
        if (o.kind === 'load') {
          expect(await outcome(createMovement(h.svc, actor, { product_key: products[o.product]!, type: 'load', to_position_key: positions[o.to], quantity: o.q }))).toBe('ok')
          add(o.to, o.product, o.q)
          done.push({ key: (await lastMovement())!, from: null, to: o.to, product: o.product, q: o.q, reverted: false })
        } else if (o.kind === 'transfer' || o.kind === 'unload') {
          const to = o.kind === 'transfer' ? o.to : null
          const expected = to === o.from ? 'MOVEMENT_POSITIONS_INVALID' : at(o.from, o.product) >= o.q ? 'ok' : 'INSUFFICIENT_STOCK'
          const input = { product_key: products[o.product]!, type: o.kind, from_position_key: positions[o.from], to_position_key: to === null ? null : positions[to], quantity: o.q }
          expect(await outcome(createMovement(h.svc, actor, input))).toBe(expected)
          if (expected === 'ok') {
            add(o.from, o.product, -o.q)
            if (to !== null) add(to, o.product, o.q)
            done.push({ key: (await lastMovement())!, from: o.from, to, product: o.product, q: o.q, reverted: false })
          }
        } else if (o.kind === 'revert') {
          if (done.length === 0) continue
          const m = done[o.pick % done.length]!
          const expected = m.reverted ? 'MOVEMENT_ALREADY_REVERTED' : m.to === null || at(m.to, m.product) >= m.q ? 'ok' : 'MOVEMENT_REVERT_ERROR'
          expect(await outcome(revertMovement(h.svc, actor, m.key, 'prova'))).toBe(expected)
          if (expected === 'ok') {
            m.reverted = true
            if (m.to !== null) add(m.to, m.product, -m.q)
            if (m.from !== null) add(m.from, m.product, m.q)
          }
        } else {
          const lines = o.counted.map((quantity, i) => ({ product_key: products[i]!, quantity }))
          expect(await outcome(countPosition(h.svc, actor, positions[o.at]!, { reason: 'conta', lines }))).toBe('ok')
          o.counted.forEach((c, i) => model.set(`${o.at}|${i}`, c))
        }
      }
      const stock = await h.svc.db.selectFrom('stock').select(['position_id', 'product_id', 'quantity']).where('product_id', 'in', products).execute()
      const { rows: sums } = await sql<{ position_id: string; product_id: string; q: number }>`
        select position_id, product_id, sum(q)::float8 as q from (
          select to_position_id as position_id, product_id, confirmed_quantity as q from movements where status = 'confirmed' and to_position_id is not null
          union all
          select from_position_id, product_id, -confirmed_quantity from movements where status = 'confirmed' and from_position_id is not null
        ) x where product_id in (${sql.join(products)}) group by position_id, product_id`.execute(h.svc.db)
      for (const s of stock) {
        expect(Number(s.quantity)).toBeGreaterThanOrEqual(0)
        expect(sums.find((r) => r.position_id === s.position_id && r.product_id === s.product_id)?.q ?? 0).toBe(Number(s.quantity))
        expect(at(positions.indexOf(s.position_id), products.indexOf(s.product_id))).toBe(Number(s.quantity))
      }
      for (const r of sums) expect(stock.some((s) => s.position_id === r.position_id && s.product_id === r.product_id) || r.q === 0).toBe(true)
    }),
    { numRuns: 30 },
  )
}, 240_000)

async function lastMovement(): Promise<string | undefined> {
  const row = await h.svc.db.selectFrom('movements').select('id').orderBy('number', 'desc').limit(1).executeTakeFirst()
  return row?.id
}
