import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { Actor } from '../../context'
import { AppError } from '../../errors'
import { adminKey, MISSING_UUID } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { createPosition, listPositions, updatePosition } from '../positions/service'
import { makeProduct } from '../work-orders/test-fixtures'
import {
  cancelMovement,
  confirmMovement,
  createMovement,
  createMovementInTrx,
  readInventory,
  revertMovement,
  stockForProducts,
  stockOfProduct,
} from './service'
import { countPosition } from './count'
import { getMovement, listMovements } from './list'
import { readWarehouseSettings, updateWarehouseSettings } from './settings'

const h = useHarness()
let actor: Actor
const pos: Record<string, string> = {}
let bolt: string
let nut: string

async function refused(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
  throw new Error('expected a refusal')
}
const stockRows = async () => Number((await sql<{ n: number }>`select count(*)::int as n from stock`.execute(h.svc.db)).rows[0]!.n)
const movementCount = async () => Number((await sql<{ n: number }>`select count(*)::int as n from movements`.execute(h.svc.db)).rows[0]!.n)

beforeAll(async () => {
  actor = { userId: await adminKey(h), sessionId: null, scope: 'warehouse', tokenId: null }
  bolt = (await makeProduct(h.svc.db, { code: 'BULLONE' })).key
  nut = (await makeProduct(h.svc.db, { code: 'DADO' })).key
  pos.MAG = (await createPosition(h.svc, actor, { code: 'MAG' }))._key
  pos.A = (await createPosition(h.svc, actor, { code: 'MAG-A', parent_key: pos.MAG }))._key
  pos.A1 = (await createPosition(h.svc, actor, { code: 'MAG-A-01', parent_key: pos.A }))._key
  pos.B = (await createPosition(h.svc, actor, { code: 'MAG-B', parent_key: pos.MAG }))._key
  pos.LINE = (await createPosition(h.svc, actor, { code: 'LINEA-1' }))._key
})

describe('positions', () => {
  test('tree rows carry the codes from the top down; codes are unique in any case', async () => {
    const { rows } = await listPositions(h.svc, { code: 'mag-a-01' })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ code: 'MAG-A-01', parent_code: 'MAG-A', path_codes: ['MAG', 'MAG-A', 'MAG-A-01'], depth: 2 })
    expect((await refused(createPosition(h.svc, actor, { code: 'mag-a' }))).appCode).toBe('POSITION_CODE_TAKEN')
    expect((await refused(createPosition(h.svc, actor, { code: '  ' }))).appCode).toBe('POSITION_CODE_REQUIRED')
    expect((await refused(createPosition(h.svc, actor, { code: 'X1', parent_key: MISSING_UUID }))).appCode).toBe('UNKNOWN_POSITION')
  })

  test('search needs 3 characters and shows the first 100', async () => {
    expect((await refused(listPositions(h.svc, { search: 'MA' }))).appCode).toBe('POSITION_SEARCH_TOO_SHORT')
    const { rows } = await listPositions(h.svc, { search: 'mag-' })
    expect(rows.map((r) => r.code)).toEqual(['MAG-A', 'MAG-A-01', 'MAG-B'])
  })

  test('a position cannot move into itself or below itself; a move carries everything inside', async () => {
    expect((await refused(updatePosition(h.svc, actor, pos.A!, { parent_key: pos.A1 }))).appCode).toBe('POSITION_INSIDE_ITSELF')
    expect((await refused(updatePosition(h.svc, actor, pos.MAG!, { parent_key: pos.A }))).appCode).toBe('POSITION_INSIDE_ITSELF')
    expect((await refused(updatePosition(h.svc, actor, pos.A!, { parent_key: pos.A }))).appCode).toBe('POSITION_INSIDE_ITSELF')
    const moved = await updatePosition(h.svc, actor, pos.A!, { parent_key: pos.B })
    expect(moved.path_codes).toEqual(['MAG', 'MAG-B', 'MAG-A'])
    expect((await listPositions(h.svc, { code: 'MAG-A-01' })).rows[0]!.path_codes).toEqual(['MAG', 'MAG-B', 'MAG-A', 'MAG-A-01'])
    await updatePosition(h.svc, actor, pos.A!, { parent_key: pos.MAG })
    expect((await listPositions(h.svc, { code: 'MAG-A-01' })).rows[0]!.path_codes).toEqual(['MAG', 'MAG-A', 'MAG-A-01'])
  })
})

describe('movements and stock', () => {
  test('load, transfer, unload change the stock; subtree and product totals follow', async () => {
    await createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: pos.A1, quantity: 10 })
    await createMovement(h.svc, actor, { product_key: bolt, type: 'transfer', from_position_key: pos.A1, to_position_key: pos.B, quantity: 2.5 })
    await createMovement(h.svc, actor, { product_key: bolt, type: 'unload', from_position_key: pos.B, quantity: 0.5 })
    expect(await stockOfProduct(h.svc.db, bolt, { positionKey: pos.A1 })).toBe(7.5)
    expect(await stockOfProduct(h.svc.db, bolt, { positionKey: pos.MAG })).toBe(9.5)
    expect(await stockOfProduct(h.svc.db, bolt)).toBe(9.5)
    expect((await stockForProducts(h.svc.db, [bolt, nut])).get(nut)).toBe(0)
    const inv = await readInventory(h.svc.db, { position_key: pos.MAG })
    expect(inv.lines.map((l) => [l.position_code, l.product_code, l.quantity])).toEqual([
      ['MAG-A-01', 'BULLONE', 7.5],
      ['MAG-B', 'BULLONE', 2],
    ])
    expect(inv.totals).toEqual([{ product_key: bolt, product_code: 'BULLONE', product_description: 'Prodotto BULLONE', quantity: 9.5 }])
    expect((await readInventory(h.svc.db, { position_key: pos.MAG, subtree: false })).lines).toEqual([])
  })

  test('not enough stock: 409 INSUFFICIENT_STOCK, nothing written', async () => {
    const before = [await movementCount(), await stockRows()]
    const e = await refused(createMovement(h.svc, actor, { product_key: bolt, type: 'transfer', from_position_key: pos.B, to_position_key: pos.LINE, quantity: 3 }))
    expect(e.appCode).toBe('INSUFFICIENT_STOCK')
    expect(e.status).toBe(409)
    expect(e.extra).toMatchObject({ available: 2, needed: 3, position_code: 'MAG-B' })
    expect([await movementCount(), await stockRows()]).toEqual(before)
  })

  test('wrong input is refused before anything is written', async () => {
    const before = await movementCount()
    const cases: [Parameters<typeof createMovement>[2], string][] = [
      [{ product_key: bolt, type: 'load', from_position_key: pos.A1, quantity: 1 }, 'MOVEMENT_POSITIONS_INVALID'],
      [{ product_key: bolt, type: 'transfer', from_position_key: pos.A1, to_position_key: pos.A1, quantity: 1 }, 'MOVEMENT_POSITIONS_INVALID'],
      [{ product_key: bolt, type: 'adjustment', to_position_key: pos.A1, quantity: 1 }, 'MOVEMENT_REASON_REQUIRED'],
      [{ product_key: bolt, type: 'load', to_position_key: MISSING_UUID, quantity: 1 }, 'UNKNOWN_POSITION'],
      [{ product_key: MISSING_UUID, type: 'load', to_position_key: pos.A1, quantity: 1 }, 'UNKNOWN_PRODUCT'],
      [{ product_key: bolt, type: 'load', to_position_key: pos.A1, quantity: 1.00001 }, 'INVALID_INPUT'],
      [{ product_key: bolt, type: 'load', to_position_key: pos.A1, quantity: -1 }, 'INVALID_INPUT'],
      [{ product_key: bolt, type: 'load', to_position_key: pos.A1, quantity: Number.NaN }, 'INVALID_INPUT'],
    ]
    for (const [input, code] of cases) expect((await refused(createMovement(h.svc, actor, input))).appCode).toBe(code as never)
    expect(await movementCount()).toBe(before)
  })

  test('planned movements change nothing until confirmed; cancel leaves stock alone', async () => {
    const planned = await createMovement(h.svc, actor, { product_key: nut, type: 'load', to_position_key: pos.LINE, quantity: 5, confirm: false })
    expect(planned.status).toBe('planned')
    expect(await stockOfProduct(h.svc.db, nut)).toBe(0)
    const confirmed = await confirmMovement(h.svc, actor, planned._key, 4)
    expect(confirmed).toMatchObject({ status: 'confirmed', planned_quantity: 5, confirmed_quantity: 4 })
    expect(await stockOfProduct(h.svc.db, nut)).toBe(4)
    expect((await refused(confirmMovement(h.svc, actor, planned._key))).appCode).toBe('MOVEMENT_NOT_PLANNED')
    const other = await createMovement(h.svc, actor, { product_key: nut, type: 'load', to_position_key: pos.LINE, quantity: 5, confirm: false })
    expect((await cancelMovement(h.svc, actor, other._key)).status).toBe('cancelled')
    expect(await stockOfProduct(h.svc.db, nut)).toBe(4)
    expect((await refused(revertMovement(h.svc, actor, other._key, 'x'))).appCode).toBe('MOVEMENT_NOT_CONFIRMED')
  })

  test('revert writes the opposite movement and marks the original; twice is refused; stock gone is MOVEMENT_REVERT_ERROR', async () => {
    const m = await createMovement(h.svc, actor, { product_key: nut, type: 'transfer', from_position_key: pos.LINE, to_position_key: pos.B, quantity: 3 })
    expect((await refused(revertMovement(h.svc, actor, m._key, '  '))).appCode).toBe('MOVEMENT_REASON_REQUIRED')
    const { original, revert } = await revertMovement(h.svc, actor, m._key, 'sbagliato scaffale')
    expect(original).toMatchObject({ reverted_by_key: revert._key, reverted_by_number: revert.number, revert_reason: 'sbagliato scaffale' })
    expect(revert).toMatchObject({ reverts_key: original._key, reverts_number: original.number })
    expect(revert).toMatchObject({ reverts_key: m._key, from_position_key: pos.B, to_position_key: pos.LINE, confirmed_quantity: 3, status: 'confirmed' })
    expect(await stockOfProduct(h.svc.db, nut, { positionKey: pos.LINE })).toBe(4)
    expect((await refused(revertMovement(h.svc, actor, m._key, 'ancora'))).appCode).toBe('MOVEMENT_ALREADY_REVERTED')

    const load = await createMovement(h.svc, actor, { product_key: nut, type: 'transfer', from_position_key: pos.LINE, to_position_key: pos.B, quantity: 2 })
    await createMovement(h.svc, actor, { product_key: nut, type: 'unload', from_position_key: pos.B, quantity: 2 })
    const before = await movementCount()
    const e = await refused(revertMovement(h.svc, actor, load._key, 'errore'))
    expect(e.appCode).toBe('MOVEMENT_REVERT_ERROR')
    expect(e.status).toBe(409)
    expect(await movementCount()).toBe(before)
    expect((await getMovement(h.svc, load._key)).reverted_by_key).toBeNull()
  })

  test('negative stock only when the setting allows it', async () => {
    const e = await refused(createMovement(h.svc, actor, { product_key: nut, type: 'unload', from_position_key: pos.A1, quantity: 1 }))
    expect(e.appCode).toBe('INSUFFICIENT_STOCK')
    await updateWarehouseSettings(h.svc, actor, { negative_stock_allowed: true })
    await createMovement(h.svc, actor, { product_key: nut, type: 'unload', from_position_key: pos.A1, quantity: 1 })
    expect(await stockOfProduct(h.svc.db, nut, { positionKey: pos.A1, subtree: false })).toBe(-1)
    await updateWarehouseSettings(h.svc, actor, { negative_stock_allowed: false })
    expect((await readWarehouseSettings(h.svc.db)).negative_stock_allowed).toBe(false)
  })

  test('inside the caller transaction a refusal leaves nothing and the transaction usable', async () => {
    const before = await movementCount()
    await h.svc.db.transaction().execute(async (trx) => {
      await createMovementInTrx(trx, actor, { product_key: bolt, type: 'load', to_position_key: pos.LINE, quantity: 1 }, h.clock.now())
      const e = await refused(createMovementInTrx(trx, actor, { product_key: bolt, type: 'unload', from_position_key: pos.LINE, quantity: 100 }, h.clock.now()))
      expect(e.appCode).toBe('INSUFFICIENT_STOCK')
      await createMovementInTrx(trx, actor, { product_key: bolt, type: 'unload', from_position_key: pos.LINE, quantity: 1 }, h.clock.now())
    })
    expect(await movementCount()).toBe(before + 2)
    expect(await stockOfProduct(h.svc.db, bolt, { positionKey: pos.LINE })).toBe(0)
  })

  test('list: newest first, filters by position subtree, product, type', async () => {
    const all = await listMovements(h.svc, { page_size: 5 })
    expect(all.rows).toHaveLength(5)
    expect(all.rows[0]!.number).toBeGreaterThan(all.rows[1]!.number)
    const underMag = await listMovements(h.svc, { position_key: pos.MAG, subtree: true, product_key: bolt })
    expect(underMag.rows.map((r) => r.type).sort()).toEqual(['load', 'transfer', 'unload'])
    expect((await listMovements(h.svc, { position_key: pos.MAG })).total).toBe(0)
  })
})

describe('movement list of one position, page by page', () => {
  test('both sides merged newest first, each movement once, total exact', async () => {
    const x = (await createPosition(h.svc, actor, { code: 'PAGINE' }))._key
    const made: number[] = []
    for (let i = 0; i < 7; i++) made.push((await createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: x, quantity: 1 })).number)
    for (let i = 0; i < 3; i++) made.push((await createMovement(h.svc, actor, { product_key: bolt, type: 'transfer', from_position_key: x, to_position_key: pos.LINE, quantity: 1 })).number)
    const seen: number[] = []
    for (const page of [1, 2, 3]) {
      const res = await listMovements(h.svc, { position_key: x, page, page_size: 4 })
      expect(res.total).toBe(10)
      seen.push(...res.rows.map((r) => r.number))
    }
    expect(seen).toEqual([...made].sort((a, b) => b - a))
    expect((await listMovements(h.svc, { position_key: x, type: 'transfer' })).total).toBe(3)
  })
})

describe('positions with stock, counts', () => {
  test('a position holding stock or active children cannot be deactivated', async () => {
    expect((await refused(updatePosition(h.svc, actor, pos.A1!, { active: false }))).appCode).toBe('POSITION_NOT_EMPTY')
    expect((await refused(updatePosition(h.svc, actor, pos.A!, { active: false }))).appCode).toBe('POSITION_HAS_CHILDREN')
    const empty = await createPosition(h.svc, actor, { code: 'VUOTA', parent_key: pos.B })
    expect((await updatePosition(h.svc, actor, empty._key, { active: false })).active).toBe(false)
    const e = await refused(createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: empty._key, quantity: 1 }))
    expect(e.appCode).toBe('POSITION_INACTIVE')
  })

  test('a count turns differences into adjustment movements with the reason', async () => {
    // MAG-A-01 holds 7.5 BULLONE and -1 DADO.
    const res = await countPosition(h.svc, actor, pos.A1!, { reason: 'inventario annuale', lines: [{ product_key: bolt, quantity: 7 }, { product_key: nut, serial: 'SN-1', quantity: 1 }] })
    expect(res.movements.map((m) => [m.type, m.product_code, m.serial, m.from_position_key ? 'out' : 'in', m.confirmed_quantity, m.reason]).sort()).toEqual(
      [
        ['adjustment', 'BULLONE', null, 'out', 0.5, 'inventario annuale'],
        ['adjustment', 'DADO', null, 'in', 1, 'inventario annuale'],
        ['adjustment', 'DADO', 'SN-1', 'in', 1, 'inventario annuale'],
      ].sort(),
    )
    const inv = await readInventory(h.svc.db, { position_key: pos.A1, subtree: false })
    expect(inv.lines.map((l) => [l.product_code, l.serial, l.quantity])).toEqual([
      ['BULLONE', null, 7],
      ['DADO', 'SN-1', 1],
    ])
    expect((await readInventory(h.svc.db, { serial: 'SN-1' })).lines).toHaveLength(1)
    const again = await countPosition(h.svc, actor, pos.A1!, { reason: 'verifica', lines: [{ product_key: bolt, quantity: 7 }, { product_key: nut, serial: 'SN-1', quantity: 1 }] })
    expect(again.movements).toEqual([])
    expect((await refused(countPosition(h.svc, actor, pos.A1!, { reason: '', lines: [] }))).appCode).toBe('MOVEMENT_REASON_REQUIRED')
    const dup = await refused(countPosition(h.svc, actor, pos.A1!, { reason: 'x', lines: [{ product_key: bolt, quantity: 1 }, { product_key: bolt, quantity: 2 }] }))
    expect(dup.appCode).toBe('INVALID_INPUT')
  })

  test('events record each change', async () => {
    const types = await h.svc.db.selectFrom('events').select('event_type').where('subject_type', 'in', ['movement', 'position']).execute()
    const set = new Set(types.map((t) => t.event_type))
    for (const t of ['POSITION_CREATED', 'POSITION_MOVED', 'MOVEMENT_CREATED', 'MOVEMENT_CONFIRMED', 'MOVEMENT_CANCELLED', 'MOVEMENT_REVERTED', 'INVENTORY_COUNTED']) {
      expect(set.has(t)).toBe(true)
    }
  })
})

describe('disposable positions', () => {
  const events = async (key: string) =>
    (await h.svc.db.selectFrom('events').select(['event_type', 'data']).where('subject_key', '=', key).orderBy('id').execute()).map((e) => [e.event_type, e.data])
  const active = async (key: string) => (await h.svc.db.selectFrom('positions').select('active').where('id', '=', key).executeTakeFirstOrThrow()).active

  test('a disposable position emptied by a confirmed movement becomes inactive in the same transaction, with an event; a fixed one stays active', async () => {
    const box = (await createPosition(h.svc, actor, { code: 'SCATOLA-1', fixed: false, disposable: true }))._key
    const shelf = (await createPosition(h.svc, actor, { code: 'SCAFFALE-D' }))._key
    await createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: box, quantity: 3 })
    await createMovement(h.svc, actor, { product_key: nut, type: 'load', to_position_key: box, quantity: 1, serial: 'SN-D1' })
    await createMovement(h.svc, actor, { product_key: bolt, type: 'transfer', from_position_key: box, to_position_key: shelf, quantity: 2 })
    expect(await active(box)).toBe(true)
    // Refused (too little): nothing changes, still active.
    expect((await refused(createMovement(h.svc, actor, { product_key: bolt, type: 'transfer', from_position_key: box, to_position_key: shelf, quantity: 2 }))).appCode).toBe('INSUFFICIENT_STOCK')
    expect(await active(box)).toBe(true)
    await createMovement(h.svc, actor, { product_key: bolt, type: 'transfer', from_position_key: box, to_position_key: shelf, quantity: 1 })
    expect(await active(box)).toBe(true)
    // The last piece leaves through a planned movement confirmed later.
    const last = await createMovement(h.svc, actor, { product_key: nut, type: 'unload', from_position_key: box, quantity: 1, serial: 'SN-D1', confirm: false })
    expect(await active(box)).toBe(true)
    await confirmMovement(h.svc, actor, last._key)
    expect(await active(box)).toBe(false)
    const auto = (await events(box)).at(-1)!
    expect(auto).toEqual(['POSITION_UPDATED', { changes: { active: { from: true, to: false } }, reason: 'disposable_emptied', movement_key: last._key }])
    expect((await refused(createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: box, quantity: 1 }))).appCode).toBe('POSITION_INACTIVE')
    // The shelf (not disposable) emptied stays active.
    await createMovement(h.svc, actor, { product_key: bolt, type: 'unload', from_position_key: shelf, quantity: 3 })
    expect(await active(shelf)).toBe(true)
  })

  test('a count that empties a disposable position deactivates it; one with active positions inside, or still holding something, stays active', async () => {
    const pallet = (await createPosition(h.svc, actor, { code: 'PALLET-D', fixed: false, disposable: true }))._key
    await createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: pallet, quantity: 4 })
    // Counted: the bolts are gone but a nut was found: what is found is added before, the position keeps stock.
    await countPosition(h.svc, actor, pallet, { reason: 'conta', lines: [{ product_key: bolt, quantity: 0 }, { product_key: nut, quantity: 1 }] })
    expect(await active(pallet)).toBe(true)
    await countPosition(h.svc, actor, pallet, { reason: 'conta', lines: [] })
    expect(await active(pallet)).toBe(false)

    const crate = (await createPosition(h.svc, actor, { code: 'CASSA-D', fixed: false, disposable: true }))._key
    await createPosition(h.svc, actor, { code: 'CASSA-D-1', parent_key: crate })
    await createMovement(h.svc, actor, { product_key: bolt, type: 'load', to_position_key: crate, quantity: 1 })
    await createMovement(h.svc, actor, { product_key: bolt, type: 'unload', from_position_key: crate, quantity: 1 })
    expect(await active(crate)).toBe(true)
  })
})
