import { beforeAll, describe, expect, test } from 'bun:test'
import type { Actor } from '../../context'
import { AppError } from '../../errors'
import { adminKey } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { makeSetup } from '../execution/test-fixtures'
import { getMovement, listMovements } from '../movements/list'
import { cancelMovement, confirmMovement, createMovement, stockOfProduct } from '../movements/service'
import { updateWarehouseSettings } from '../movements/settings'
import { createPosition } from '../positions/service'
import { createMovementList, getMovementList, listMovementLists } from '../movement-lists/service'
import { getWorkOrderMaterial } from '../production-stock/service'
import { assignMission, cancelMission, carryOutMovement, createMission, createPutAwayMission, createToLineMission, getMission, listMissions, scanMission } from './service'

/** Missions (generation from a work order's bom, carrying out by scanning) and movement lists. */
const h = useHarness()
let admin: Actor
let wh: Actor
let whKey: string
let opKey: string
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
const eventTypes = async (key: string) =>
  (await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', key).orderBy('id').execute()).map((e) => e.event_type)

/** A work order of `quantity` pieces whose one phase uses the given components (batches of `batch`). */
async function workOrder(quantity: number, bom: { quantity: number; quantity_per: 'item' | 'job' | 'batch'; code: string }[], batch = 0) {
  return makeSetup(h.svc.db, { phases: [{ params: { production_batch_qt: batch }, steps: [{ type: 'instruction' }], bom }], quantity, operator: null })
}

beforeAll(async () => {
  admin = { userId: await adminKey(h), sessionId: null, scope: 'admin warehouse', tokenId: null }
  const user = await userWithScope(h, 'magazziniere', 'warehouse')
  whKey = user.key
  wh = { userId: user.key, sessionId: null, scope: 'warehouse', tokenId: null }
  opKey = (await userWithScope(h, 'operatore.m', 'operator')).key
  pos.S1 = (await createPosition(h.svc, admin, { code: 'MS-S1' }))._key
  pos.S2 = (await createPosition(h.svc, admin, { code: 'MS-S2' }))._key
  pos.LINE = (await createPosition(h.svc, admin, { code: 'MS-LINE' }))._key
  pos.PROD = (await createPosition(h.svc, admin, { code: 'MS-PROD' }))._key
  pos.FG = (await createPosition(h.svc, admin, { code: 'MS-FG' }))._key
  await updateWarehouseSettings(h.svc, admin, {
    inventory_management: true,
    default_consumption_position_key: pos.LINE,
    default_production_position_key: pos.PROD,
    negative_stock_allowed: false,
  })
}, 60_000)

describe('missions: components to the line', () => {
  test("generated from the work order's bom and quantities, from where the stock is, largest first; a second one has nothing left to bring", async () => {
    const [a, b] = [code('MA'), code('MB')]
    // 10 pieces in batches of 4 (3 batches): A 2 per piece = 20, B 1 per batch = 3.
    const s = await workOrder(10, [
      { quantity: 2, quantity_per: 'item', code: a },
      { quantity: 1, quantity_per: 'batch', code: b },
    ], 4)
    const [A, B] = [await productId(a), await productId(b)]
    await load(A, pos.S1!, 15)
    await load(A, pos.S2!, 10)
    await load(B, pos.S2!, 7)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey, assignee_key: whKey })
    expect(m).toMatchObject({ kind: 'to_line', status: 'open', work_order_key: s.workOrderKey, assignee_key: whKey, lines_total: 3, lines_done: 0, shortfalls: [] })
    expect(m.code).toBe(`MIS-${m.number}`)
    expect(m.lines.map((l) => [l.movement.product_code, l.movement.from_position_code, l.movement.to_position_code, l.movement.planned_quantity, l.movement.status])).toEqual([
      [a, 'MS-S1', 'MS-LINE', 15, 'planned'],
      [a, 'MS-S2', 'MS-LINE', 5, 'planned'],
      [b, 'MS-S2', 'MS-LINE', 3, 'planned'],
    ])
    for (const l of m.lines) expect(l.movement).toMatchObject({ type: 'transfer', work_order_key: s.workOrderKey, origin_type: 'mission', origin_key: m._key })
    // Planned movements change no stock.
    expect(await stock(A, pos.S1!)).toBe(15)
    expect((await refused(createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey }))).appCode).toBe('MISSION_EMPTY')
    const material = await getWorkOrderMaterial(h.svc, s.workOrderKey)
    expect(material.lines.map((l) => [l.item_code, l.required, l.planned_to_line, l.available_at_line, l.available])).toEqual([
      [a, 20, 20, 0, 25],
      [b, 3, 3, 0, 7],
    ])
    expect(await eventTypes(m._key)).toEqual(['MISSION_CREATED'])
  })

  test('what the stock cannot cover is answered as a shortfall; no stock at all is MISSION_EMPTY with the shortfalls', async () => {
    const [c, d] = [code('MC'), code('MD')]
    const s = await workOrder(5, [{ quantity: 1, quantity_per: 'item', code: c }])
    await load(await productId(c), pos.S1!, 2)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    expect(m.lines.map((l) => l.movement.planned_quantity)).toEqual([2])
    expect(m.shortfalls).toEqual([{ product_key: await productId(c), product_code: c, needed: 5, planned: 2 }])
    const none = await workOrder(1, [{ quantity: 1, quantity_per: 'job', code: d }])
    const e = await refused(createToLineMission(h.svc, wh, { work_order_key: none.workOrderKey }))
    expect([e.status, e.appCode]).toEqual([422, 'MISSION_EMPTY'])
    expect(e.extra?.shortfalls).toEqual([{ product_key: await productId(d), product_code: d, needed: 1, planned: 0 }])
  })

  test('carried out by scanning: a wrong position or item says what is wrong and changes nothing; each line confirms its movement; the last completes the mission', async () => {
    const [e, f] = [code('ME'), code('MF')]
    const s = await workOrder(2, [
      { quantity: 1, quantity_per: 'item', code: e },
      { quantity: 3, quantity_per: 'job', code: f },
    ])
    const [E, F] = [await productId(e), await productId(f)]
    await load(E, pos.S1!, 2)
    await load(F, pos.S2!, 5)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })

    const unknown = await refused(scanMission(h.svc, wh, m._key, { position_code: 'NOPE-99', item_code: e }))
    expect([unknown.status, unknown.appCode]).toEqual([422, 'MISSION_SCAN_POSITION'])
    expect(unknown.message).toContain('NOPE-99')
    const nothingThere = await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-LINE', item_code: e }))
    expect(nothingThere.appCode).toBe('MISSION_SCAN_POSITION')
    expect(nothingThere.extra?.expected_positions).toEqual(['MS-S1', 'MS-S2'])
    const wrongItem = await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: f }))
    expect([wrongItem.status, wrongItem.appCode]).toEqual([422, 'MISSION_SCAN_ITEM'])
    expect(wrongItem.extra?.expected).toEqual([e])
    expect(await stock(E, pos.S1!)).toBe(2)
    expect((await getMission(h.svc, m._key)).lines_done).toBe(0)

    // Codes as a scanner types them: any case, surrounding spaces.
    const first = await scanMission(h.svc, wh, m._key, { position_code: ' ms-s1', item_code: `${e.toLowerCase()} ` })
    expect(first.mission).toMatchObject({ status: 'in_progress', lines_done: 1, lines_total: 2 })
    const line = first.mission.lines.find((l) => l._key === first.line_key)!
    expect(line.movement).toMatchObject({ status: 'confirmed', confirmed_quantity: 2 })
    expect(line.done_by_name).not.toBeNull()
    expect(await stock(E, pos.S1!)).toBe(0)
    expect(await stock(E, pos.LINE!)).toBe(2)

    const last = await scanMission(h.svc, wh, m._key, { position_code: 'MS-S2', item_code: f })
    expect(last.mission).toMatchObject({ status: 'done', lines_done: 2 })
    expect(last.mission.ended_at).not.toBeNull()
    expect(await stock(F, pos.LINE!)).toBe(3)
    expect(await stock(F, pos.S2!)).toBe(2)
    expect((await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-S2', item_code: f }))).appCode).toBe('MISSION_NOT_OPEN')
    expect(await eventTypes(m._key)).toEqual(['MISSION_CREATED', 'MISSION_LINE_DONE', 'MISSION_LINE_DONE', 'MISSION_COMPLETED'])
    const material = await getWorkOrderMaterial(h.svc, s.workOrderKey)
    expect(material.lines.map((l) => [l.item_code, l.available_at_line, l.planned_to_line])).toEqual([
      [e, 2, 0],
      [f, 3, 0],
    ])
  })

  test('stock in positions not flagged available is not taken', async () => {
    const u = code('MU')
    const s = await workOrder(3, [{ quantity: 1, quantity_per: 'item', code: u }])
    const U = await productId(u)
    const quarantine = (await createPosition(h.svc, admin, { code: code('MS-QUAR'), available: false }))._key
    await load(U, quarantine, 5)
    await load(U, pos.S2!, 1)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    expect(m.lines.map((l) => [l.movement.from_position_code, l.movement.planned_quantity])).toEqual([['MS-S2', 1]])
    expect(m.shortfalls).toEqual([{ product_key: U, product_code: u, needed: 3, planned: 1 }])
  })

  test('a serial-tracked line wants its serial, not the product code', async () => {
    const g = code('MG')
    const s = await workOrder(1, [{ quantity: 1, quantity_per: 'item', code: g }])
    const G = await productId(g)
    const serial = code('SN')
    await load(G, pos.S1!, 1, serial)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    expect(m.lines.map((l) => [l.movement.serial, l.movement.planned_quantity])).toEqual([[serial, 1]])
    const e = await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: g }))
    expect(e.appCode).toBe('MISSION_SCAN_ITEM')
    expect(e.message).toContain('serial')
    const done = await scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: serial })
    expect(done.mission.status).toBe('done')
    expect(await stockOfProduct(h.svc.db, G, { positionKey: pos.LINE })).toBe(1)
  })

  test('stock gone since the mission was made: the scan is refused (409 INSUFFICIENT_STOCK) and the line stays to do', async () => {
    const k = code('MK')
    const s = await workOrder(3, [{ quantity: 1, quantity_per: 'item', code: k }])
    const K = await productId(k)
    await load(K, pos.S1!, 3)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    await createMovement(h.svc, admin, { type: 'unload', product_key: K, from_position_key: pos.S1, quantity: 2 })
    const e = await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: k }))
    expect([e.status, e.appCode]).toEqual([409, 'INSUFFICIENT_STOCK'])
    const after = await getMission(h.svc, m._key)
    expect(after).toMatchObject({ status: 'open', lines_done: 0 })
    expect(after.lines[0]!.movement.status).toBe('planned')
  })
})

describe('missions: two scanners at once', () => {
  test('the same line scanned twice at the same moment is carried out once; the stock moves once', async () => {
    const t1 = code('MT')
    const s = await workOrder(4, [{ quantity: 1, quantity_per: 'item', code: t1 }])
    const T = await productId(t1)
    await load(T, pos.S1!, 4)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: t1 })))
    const ok = results.filter((r) => r.status === 'fulfilled')
    expect(ok).toHaveLength(1)
    for (const r of results) {
      if (r.status === 'rejected') expect([409, 422]).toContain((r.reason as AppError).status)
    }
    expect(await stock(T, pos.LINE!)).toBe(4)
    expect(await stock(T, pos.S1!)).toBe(0)
    expect(await getMission(h.svc, m._key)).toMatchObject({ status: 'done', lines_done: 1 })
  })
})

describe('missions: assignment, cancel, put away, by hand, list', () => {
  test('assigned only to enabled warehouse users; the list filters by assignee, status and work order', async () => {
    const h1 = code('MH')
    const s = await workOrder(1, [{ quantity: 1, quantity_per: 'item', code: h1 }])
    await load(await productId(h1), pos.S1!, 1)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    const e = await refused(assignMission(h.svc, wh, m._key, { assignee_key: opKey }))
    expect([e.status, e.appCode]).toEqual([422, 'MISSION_ASSIGNEE_NOT_WAREHOUSE'])
    expect((await getMission(h.svc, m._key)).assignee_key).toBeNull()
    const assigned = await assignMission(h.svc, wh, m._key, { assignee_key: whKey })
    expect(assigned).toMatchObject({ assignee_key: whKey, assignee_name: expect.any(String) })
    const mine = await listMissions(h.svc, wh, { mine: true, status: 'active' })
    expect(mine.rows.map((r) => r._key)).toContain(m._key)
    expect(mine.rows.every((r) => r.assignee_key === whKey && ['open', 'in_progress'].includes(r.status))).toBe(true)
    const byWo = await listMissions(h.svc, wh, { work_order_key: s.workOrderKey })
    expect(byWo).toMatchObject({ total: 1, rows: [{ _key: m._key, work_order_code: expect.any(String), lines_total: 1 }] })
    expect(await eventTypes(m._key)).toEqual(['MISSION_CREATED', 'MISSION_ASSIGNED'])
  })

  test('cancel: the planned movements are cancelled; a cancelled mission takes no scans', async () => {
    const j = code('MJ')
    const s = await workOrder(2, [{ quantity: 1, quantity_per: 'item', code: j }])
    await load(await productId(j), pos.S1!, 2)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    const c = await cancelMission(h.svc, wh, m._key)
    expect(c.status).toBe('cancelled')
    expect((await getMovement(h.svc, c.lines[0]!.movement._key)).status).toBe('cancelled')
    expect((await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: j }))).appCode).toBe('MISSION_NOT_OPEN')
    expect((await refused(cancelMission(h.svc, wh, m._key))).appCode).toBe('MISSION_NOT_OPEN')
    // Cancelled missions do not count as brought: the components can be asked again.
    expect((await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })).lines).toHaveLength(1)
  })

  test('put away: finished goods from the production position to where they are kept', async () => {
    const s = await workOrder(3, [])
    await createMovement(h.svc, admin, { type: 'production', product_key: s.productKey, to_position_key: pos.PROD, quantity: 3 })
    const m = await createPutAwayMission(h.svc, wh, { work_order_key: s.workOrderKey, to_position_key: pos.FG! })
    expect(m.lines.map((l) => [l.movement.from_position_code, l.movement.to_position_code, l.movement.planned_quantity])).toEqual([['MS-PROD', 'MS-FG', 3]])
    const code1 = m.lines[0]!.movement.product_code
    await scanMission(h.svc, wh, m._key, { position_code: 'MS-PROD', item_code: code1 })
    expect(await stock(s.productKey, pos.FG!)).toBe(3)
    expect(await stock(s.productKey, pos.PROD!)).toBe(0)
    expect((await refused(createPutAwayMission(h.svc, wh, { work_order_key: s.workOrderKey, to_position_key: pos.FG! }))).appCode).toBe('MISSION_EMPTY')
  })

  test('by hand: bad lines are refused whole, nothing written', async () => {
    const n = code('MN')
    const s = await workOrder(1, [{ quantity: 1, quantity_per: 'item', code: n }])
    const N = await productId(n)
    const before = (await listMissions(h.svc, wh, {})).total
    expect((await refused(createMission(h.svc, wh, { lines: [] }))).appCode).toBe('MISSION_EMPTY')
    const same = await refused(createMission(h.svc, wh, { lines: [{ product_key: N, from_position_key: pos.S1!, to_position_key: pos.S1!, quantity: 1 }] }))
    expect(same.status).toBe(400)
    const unknown = await refused(
      createMission(h.svc, wh, {
        lines: [
          { product_key: N, from_position_key: pos.S1!, to_position_key: pos.LINE!, quantity: 1 },
          { product_key: N, from_position_key: '00000000-0000-4000-8000-000000000000', to_position_key: pos.LINE!, quantity: 1 },
        ],
      }),
    )
    expect([unknown.status, unknown.appCode]).toEqual([422, 'UNKNOWN_POSITION'])
    expect((await listMissions(h.svc, wh, {})).total).toBe(before)
    expect((await listMovements(h.svc, { product_key: N })).total).toBe(0)
    const ok = await createMission(h.svc, wh, {
      work_order_key: s.workOrderKey,
      notes: 'urgente',
      lines: [{ product_key: N, from_position_key: pos.S1!, to_position_key: pos.LINE!, quantity: 1 }],
    })
    expect(ok).toMatchObject({ kind: 'manual', notes: 'urgente', lines_total: 1 })
  })
})

describe('movement lists', () => {
  test("a work order's picking list, a mission's list and a day's list hold the planned movements in picking order", async () => {
    const [p, q] = [code('LP'), code('LQ')]
    const s = await workOrder(2, [
      { quantity: 1, quantity_per: 'item', code: q },
      { quantity: 1, quantity_per: 'item', code: p },
    ])
    await load(await productId(p), pos.S2!, 2)
    await load(await productId(q), pos.S1!, 2)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    const byWo = await createMovementList(h.svc, wh, { kind: 'work_order', work_order_key: s.workOrderKey })
    expect(byWo).toMatchObject({ kind: 'work_order', work_order_key: s.workOrderKey, lines_total: 2 })
    expect(byWo.code).toBe(`LST-${byWo.number}`)
    expect(byWo.movements.map((x) => [x.from_position_code, x.product_code])).toEqual([
      ['MS-S1', q],
      ['MS-S2', p],
    ])
    const byMission = await createMovementList(h.svc, wh, { kind: 'mission', mission_key: m._key })
    expect(byMission.movements).toHaveLength(2)
    expect(byMission.title).toBe(m.code)
    const today = new Date(h.clock.now())
    const day = `${today.getFullYear()}/${String(today.getMonth() + 1).padStart(2, '0')}/${String(today.getDate()).padStart(2, '0')}`
    const byDay = await createMovementList(h.svc, wh, { kind: 'day', day })
    expect(byDay.movements.map((x) => x._key)).toEqual(expect.arrayContaining(byWo.movements.map((x) => x._key)))
    expect(byDay.day).toBe(day)
    // Carried out, the list shows each movement as it is now.
    await scanMission(h.svc, wh, m._key, { position_code: 'MS-S1', item_code: q })
    expect((await getMovementList(h.svc, byWo._key)).movements.map((x) => x.status)).toEqual(['confirmed', 'planned'])
    const listed = await listMovementLists(h.svc, { work_order_key: s.workOrderKey })
    expect(listed.rows.map((r) => r._key).sort()).toEqual([byWo._key, byMission._key].sort())
    expect((await listMovementLists(h.svc, { kind: 'day', day })).rows.map((r) => r._key)).toEqual([byDay._key])
  })

  test('confirming a mission movement from a list carries out its mission line; other movements are just confirmed', async () => {
    const r = code('LR')
    const s = await workOrder(2, [{ quantity: 1, quantity_per: 'item', code: r }])
    const R = await productId(r)
    await load(R, pos.S1!, 1)
    await load(R, pos.S2!, 1)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    expect(m.lines).toHaveLength(2)
    const first = await carryOutMovement(h.svc, wh, m.lines[0]!.movement._key)
    expect(first.status).toBe('confirmed')
    expect(await getMission(h.svc, m._key)).toMatchObject({ status: 'in_progress', lines_done: 1 })
    expect((await refused(carryOutMovement(h.svc, wh, m.lines[0]!.movement._key))).appCode).toBe('MOVEMENT_NOT_PLANNED')
    await carryOutMovement(h.svc, wh, m.lines[1]!.movement._key)
    expect(await getMission(h.svc, m._key)).toMatchObject({ status: 'done', lines_done: 2 })
    expect(await stock(R, pos.LINE!)).toBe(2)
    const plain = await createMovement(h.svc, admin, { type: 'load', product_key: R, to_position_key: pos.S1, quantity: 4, confirm: false })
    expect((await carryOutMovement(h.svc, wh, plain._key)).status).toBe('confirmed')
    expect(await stock(R, pos.S1!)).toBe(4)
  })

  test('nothing planned: 422 MOVEMENT_LIST_EMPTY; the key the kind needs is required', async () => {
    const s = await workOrder(1, [])
    expect((await refused(createMovementList(h.svc, wh, { kind: 'work_order', work_order_key: s.workOrderKey }))).appCode).toBe('MOVEMENT_LIST_EMPTY')
    const e = await refused(createMovementList(h.svc, wh, { kind: 'day' }))
    expect([e.status, e.appCode]).toEqual([400, 'INVALID_INPUT'])
    expect(e.extra?.issues).toEqual([{ path: 'day', kind: 'required', message: expect.any(String) }])
    expect((await refused(createMovementList(h.svc, wh, { kind: 'day', day: '1999/01/01' }))).appCode).toBe('MOVEMENT_LIST_EMPTY')
  })
})

describe('missions follow their movements wherever they are confirmed or cancelled (movements screen, REST)', () => {
  test('a line confirmed or cancelled from the movements screen is done or dropped; the last one completes the mission', async () => {
    const t = code('MT')
    const s = await workOrder(3, [{ quantity: 1, quantity_per: 'item', code: t }])
    const T = await productId(t)
    await load(T, pos.S1!, 1)
    await load(T, pos.S2!, 1)
    await load(T, pos.FG!, 1)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    expect(m.lines.map((l) => l.movement.from_position_code)).toEqual(['MS-FG', 'MS-S1', 'MS-S2'])
    const [, l2, l3] = m.lines.map((l) => l.movement._key) as [string, string, string]
    await scanMission(h.svc, wh, m._key, { position_code: 'MS-FG', item_code: t })

    // Too little stock: the confirmation is refused and the line stays to do (same transaction).
    await createMovement(h.svc, admin, { type: 'unload', product_key: T, from_position_key: pos.S1, quantity: 1 })
    expect((await refused(confirmMovement(h.svc, wh, l2))).appCode).toBe('INSUFFICIENT_STOCK')
    expect(await getMission(h.svc, m._key)).toMatchObject({ status: 'in_progress', lines_done: 1 })
    await load(T, pos.S1!, 1)

    await confirmMovement(h.svc, wh, l2)
    const mid = await getMission(h.svc, m._key)
    expect(mid).toMatchObject({ status: 'in_progress', lines_done: 2 })
    expect(mid.lines[1]!.done_at).not.toBeNull()
    expect(mid.lines[1]!.done_by_name).not.toBeNull()
    expect(await stock(T, pos.LINE!)).toBe(2)

    await cancelMovement(h.svc, wh, l3)
    const end = await getMission(h.svc, m._key)
    expect(end).toMatchObject({ status: 'done', lines_done: 2, lines_total: 3 })
    expect(end.ended_at).not.toBeNull()
    expect(end.lines[2]!.done_at).toBeNull()
    expect(await eventTypes(m._key)).toEqual(['MISSION_CREATED', 'MISSION_LINE_DONE', 'MISSION_LINE_DONE', 'MISSION_LINE_CANCELLED', 'MISSION_COMPLETED'])
    expect((await refused(scanMission(h.svc, wh, m._key, { position_code: 'MS-S2', item_code: t }))).appCode).toBe('MISSION_NOT_OPEN')
    expect(await stock(T, pos.S2!)).toBe(1)
  })

  test('every line cancelled from the movements screen cancels the mission; cancelling the mission still writes one MISSION_CANCELLED', async () => {
    const u = code('MU')
    const s = await workOrder(2, [{ quantity: 1, quantity_per: 'item', code: u }])
    const U = await productId(u)
    await load(U, pos.S1!, 1)
    await load(U, pos.S2!, 1)
    const m = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    await cancelMovement(h.svc, wh, m.lines[0]!.movement._key)
    expect(await getMission(h.svc, m._key)).toMatchObject({ status: 'open', lines_done: 0 })
    await cancelMovement(h.svc, wh, m.lines[1]!.movement._key)
    expect(await getMission(h.svc, m._key)).toMatchObject({ status: 'cancelled', lines_done: 0 })
    expect(await eventTypes(m._key)).toEqual(['MISSION_CREATED', 'MISSION_LINE_CANCELLED', 'MISSION_LINE_CANCELLED', 'MISSION_CANCELLED'])

    const again = await createToLineMission(h.svc, wh, { work_order_key: s.workOrderKey })
    await cancelMission(h.svc, wh, again._key)
    expect(await eventTypes(again._key)).toEqual(['MISSION_CREATED', 'MISSION_CANCELLED'])
    expect((await getMission(h.svc, again._key)).lines.map((l) => l.movement.status)).toEqual(['cancelled', 'cancelled'])
  })
})
