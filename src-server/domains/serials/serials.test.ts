import { beforeAll, describe, expect, test } from 'bun:test'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { useHarness } from '../../test/harness'
import { adminKey, tableCounts } from '../../test/fixtures'
import { writeSettings } from '../settings/queries'
import { makeField } from '../execution/test-fixtures'
import { makeProduct } from '../work-orders/test-fixtures'
import { createSerial, editSerial, finalizeBatchSerials, getGenealogy, getSerial, linkSerials, listSerials, unlinkSerial, type NewSerialLink } from './service'
import { testRevisionOf } from '../../test/revisions'

const h = useHarness()
let actor: Actor
let assembly: string
let board: string
let screw: string
let boardLine: string
let assemblyPhase: string

/** Runs a service write in its own transaction, as execution will. */
const inTrx = <T>(fn: (trx: Db) => Promise<T>) => h.svc.db.transaction().execute(fn)
const make = (code: string | undefined, product = assembly, extra: Record<string, unknown> = {}) =>
  inTrx((trx) => createSerial(trx, actor, { code, product_id: product, ...extra }, h.clock.now()))
const link = (parent_id: string, child_id: string, extra: Partial<NewSerialLink> = {}) =>
  inTrx((trx) => linkSerials(trx, actor, { parent_id, child_id, ...extra }, h.clock.now()))
const events = (key: string) =>
  h.svc.db.selectFrom('events').select(['event_type', 'data']).where('subject_type', '=', 'serial').where('subject_key', '=', key).orderBy('id').execute()

async function refused(p: Promise<unknown>): Promise<{ status: number; code: string; message: string; extra: Record<string, unknown> }> {
  try {
    await p
  } catch (e) {
    const err = e as { status: number; appCode: string; message: string; extra?: Record<string, unknown> }
    return { status: err.status, code: err.appCode, message: err.message, extra: err.extra ?? {} }
  }
  throw new Error('expected a refusal')
}

beforeAll(async () => {
  actor = { userId: await adminKey(h), sessionId: null, scope: 'admin traceability', tokenId: null }
  const a = await makeProduct(h.svc.db, { code: 'ASSY', phases: ['Montaggio'] })
  assembly = a.key
  assemblyPhase = a.phases[0]!.key
  board = (await makeProduct(h.svc.db, { code: 'BOARD' })).key
  screw = (await makeProduct(h.svc.db, { code: 'SCREW' })).key
  const line = await h.svc.db
    .insertInto('bom_lines')
    .values({ product_id: assembly, phase_id: a.phases[0]!.key, item_id: board, position: 0, quantity: 1, quantity_per: 'item', traceability: 'complete' })
    .returning('id')
    .executeTakeFirstOrThrow()
  boardLine = line.id
})

describe('createSerial', () => {
  test('stores the serial and SERIAL_CREATED; a used code is SERIAL_NEW_ALREADY_PRESENT', async () => {
    const id = await make('SN-0001', assembly, { data: { colore: 'rosso' } })
    const detail = await getSerial(h.svc, id)
    expect(detail).toMatchObject({ code: 'SN-0001', product_code: 'ASSY', data: { colore: 'rosso' }, state: 'final', operator_key: actor.userId })
    expect((await events(id)).map((e) => e.event_type)).toEqual(['SERIAL_CREATED'])
    const before = await tableCounts(h)
    expect(await refused(make('SN-0001'))).toMatchObject({ status: 409, code: 'SERIAL_NEW_ALREADY_PRESENT' })
    expect(await tableCounts(h)).toEqual(before)
  })

  test('a 10,000-character code, a NUL byte, an empty code, NUL in data: 4xx and nothing written', async () => {
    const before = await tableCounts(h)
    expect(await refused(make('X'.repeat(10_000)))).toMatchObject({ status: 400, code: 'SERIAL_CODE_INVALID' })
    expect(await refused(make('SN\u0000NUL'))).toMatchObject({ status: 400, code: 'SERIAL_CODE_INVALID' })
    expect(await refused(make('   '))).toMatchObject({ status: 400, code: 'SERIAL_CODE_REQUIRED' })
    expect(await refused(make('SN-DATA', assembly, { data: { note: 'a\u0000b' } }))).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID' })
    expect(await refused(make('SN-PROD', '00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 422, code: 'UNKNOWN_PRODUCT' })
    expect(await tableCounts(h)).toEqual(before)
  })
})

describe('createSerial with a counter', () => {
  test('no code typed: the counter numbers it; without a counter COUNTER_NOT_DEFINED; a counter code in use is refused', async () => {
    const { id: counter } = await h.svc.db.insertInto('counters').values({ name: 'Seriali', template: 'CNT-{###}' }).returning('id').executeTakeFirstOrThrow()
    const first = await make(undefined, assembly, { counter_id: counter })
    expect((await getSerial(h.svc, first)).code).toBe('CNT-001')
    await make('CNT-002')
    const before = await tableCounts(h)
    expect(await refused(make(undefined, assembly, { counter_id: counter }))).toMatchObject({ status: 409, code: 'SERIAL_NEW_ALREADY_PRESENT' })
    expect(await refused(make(undefined))).toMatchObject({ status: 422, code: 'COUNTER_NOT_DEFINED' })
    // Refused: the counter's number went back with the rollback.
    expect(await tableCounts(h)).toEqual(before)
    expect((await h.svc.db.selectFrom('counters').select('next_value').where('id', '=', counter).executeTakeFirstOrThrow()).next_value).toBe(2)
  })
})

describe('linkSerials', () => {
  test('a serial already inside another asks to confirm; confirmed, it moves', async () => {
    const [p1, p2, c] = [await make('MOVE-P1'), await make('MOVE-P2'), await make('MOVE-C', board)]
    await link(p1, c)
    const before = await tableCounts(h)
    const r = await refused(link(p2, c))
    expect(r).toMatchObject({ status: 409, code: 'SERIAL_ALREADY_LINKED', extra: { current_parent_key: p1, current_parent_code: 'MOVE-P1' } })
    expect(await tableCounts(h)).toEqual(before)
    const moved = await link(p2, c, { confirm_move: true })
    expect(moved.moved_from).toBe(p1)
    expect((await getSerial(h.svc, c)).contained_in?.code).toBe('MOVE-P2')
    expect((await getSerial(h.svc, p1)).components).toEqual([])
    const linked = (await events(c)).filter((e) => e.event_type === 'SERIAL_LINKED')
    expect(linked.at(-1)!.data).toMatchObject({ parent_code: 'MOVE-P2', moved_from_code: 'MOVE-P1' })
    // The same link again changes nothing.
    const again = await tableCounts(h)
    expect((await link(p2, c)).link_key).toBe(moved.link_key)
    expect(await tableCounts(h)).toEqual(again)
  })

  test('a component serial of another product is refused (SERIAL_WRONG_PRODUCT); the right one is linked', async () => {
    const parent = await make('BOM-P')
    const wrong = await make('BOM-SCREW', screw)
    const right = await make('BOM-BOARD', board)
    const before = await tableCounts(h)
    expect(await refused(link(parent, wrong, { bom_line_id: boardLine }))).toMatchObject({ status: 422, code: 'SERIAL_WRONG_PRODUCT' })
    expect(await tableCounts(h)).toEqual(before)
    await link(parent, right, { bom_line_id: boardLine })
    expect((await getSerial(h.svc, parent)).components).toMatchObject([{ code: 'BOM-BOARD', component_key: boardLine }])
  })

  test('cycles are refused: a serial inside itself, directly or through 9 levels', async () => {
    const chain: string[] = []
    for (let i = 0; i < 10; i++) chain.push(await make(`CYC-${i}`))
    for (let i = 0; i < 9; i++) await link(chain[i]!, chain[i + 1]!)
    const before = await tableCounts(h)
    expect(await refused(link(chain[0]!, chain[0]!))).toMatchObject({ status: 422, code: 'SERIAL_LINK_CYCLE' })
    expect(await refused(link(chain[1]!, chain[0]!, { confirm_move: true }))).toMatchObject({ status: 422, code: 'SERIAL_LINK_CYCLE' })
    const deep = await refused(link(chain[9]!, chain[0]!, { confirm_move: true }))
    expect(deep).toMatchObject({ status: 422, code: 'SERIAL_LINK_CYCLE' })
    expect(deep.message).toContain('9 levels up')
    expect(await tableCounts(h)).toEqual(before)
    const forward = await getGenealogy(h.svc, chain[9]!, 'forward')
    expect(forward.rows.map((r) => [r.depth, r.code])).toEqual(chain.map((_, i) => [i, `CYC-${9 - i}`]))
  })

  test('two links made at once cannot close a cycle between them', async () => {
    const [a, b] = [await make('RACE-A'), await make('RACE-B')]
    const results = await Promise.allSettled([link(a, b), link(b, a)])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(failed.reason.appCode).toBe('SERIAL_LINK_CYCLE')
  })
})

describe('genealogy', () => {
  test('backward (every level, depth-first) and forward (up to the outermost) on a small tree', async () => {
    // G-A contains G-B and G-C; G-B contains G-D and G-E; G-D contains G-F.
    const k = Object.fromEntries(await Promise.all(['G-A', 'G-B', 'G-C', 'G-D', 'G-E', 'G-F'].map(async (c) => [c, await make(c)] as const)))
    await link(k['G-A']!, k['G-C']!)
    await link(k['G-A']!, k['G-B']!)
    await link(k['G-B']!, k['G-E']!)
    await link(k['G-B']!, k['G-D']!)
    await link(k['G-D']!, k['G-F']!)
    const back = await getGenealogy(h.svc, k['G-A']!, 'backward')
    expect(back.rows.map((r) => `${r.depth}:${r.code}`)).toEqual(['0:G-A', '1:G-B', '2:G-D', '3:G-F', '2:G-E', '1:G-C'])
    expect(back.rows[0]!.link_key).toBeNull()
    expect(back.truncated).toBe(false)
    const fwd = await getGenealogy(h.svc, k['G-F']!, 'forward')
    expect(fwd.rows.map((r) => `${r.depth}:${r.code}`)).toEqual(['0:G-F', '1:G-D', '2:G-B', '3:G-A'])
    expect((await getGenealogy(h.svc, k['G-C']!, 'backward')).rows.map((r) => r.code)).toEqual(['G-C'])
  })

  test('a cycle written around the service (bad data) still reads finite', async () => {
    const [x, y] = [await make('BAD-X'), await make('BAD-Y')]
    await h.svc.db.insertInto('serial_links').values([{ parent_serial_id: x, child_serial_id: y }, { parent_serial_id: y, child_serial_id: x }]).execute()
    const fwd = await getGenealogy(h.svc, x, 'forward')
    expect(fwd.rows.length).toBe(51)
    expect(fwd.rows.slice(0, 3).map((r) => `${r.depth}:${r.code}`)).toEqual(['0:BAD-X', '1:BAD-Y', '2:BAD-X'])
  })
})

describe('finalizeBatchSerials', () => {
  test('at batch completion the batch serials and links turn final, one SERIAL_FINALIZED each; other batches stay as they are', async () => {
    const wo = await h.svc.db.insertInto('work_orders').values({ code: 'WO-FIN', product_id: assembly, planned_qt: 2, revision_id: await testRevisionOf(h.svc.db, assembly) }).returning('id').executeTakeFirstOrThrow()
    const job = await h.svc.db
      .insertInto('jobs')
      .values({ work_order_id: wo.id, phase_id: assemblyPhase, position: 0, quantity: 2 })
      .returning('id')
      .executeTakeFirstOrThrow()
    // One open batch per job: the other batch is an earlier, completed one.
    const batch = async (number: number, status: 'open' | 'completed') =>
      (await h.svc.db.insertInto('batches').values({ job_id: job.id, number, status, qt_total: 1, opened_at: h.clock.now() }).returning('id').executeTakeFirstOrThrow()).id
    const [b1, b2] = [await batch(2, 'open'), await batch(1, 'completed')]
    const inBatch = (batch_id: string) => ({ batch_id, job_id: job.id, work_order_id: wo.id, phase_id: assemblyPhase, temporary: true })
    const parent = await make('FIN-P', assembly, inBatch(b1))
    const child = await make('FIN-C', board)
    await link(parent, child, { batch_id: b1, bom_line_id: boardLine, phase_id: assemblyPhase, temporary: true })
    const other = await make('FIN-OTHER', assembly, inBatch(b2))
    expect((await getSerial(h.svc, parent)).components[0]!.state).toBe('temporary')

    expect(await inTrx((trx) => finalizeBatchSerials(trx, actor, b1, h.clock.now()))).toBe(2)
    const detail = await getSerial(h.svc, parent)
    expect(detail).toMatchObject({ state: 'final', work_order_code: 'WO-FIN', revision_number: 1, batch_number: 2 })
    expect(detail.components[0]!.state).toBe('final')
    expect((await getSerial(h.svc, other)).state).toBe('temporary')
    expect((await events(parent)).at(-1)).toMatchObject({ event_type: 'SERIAL_FINALIZED', data: { batch_key: b1, link_key: null } })
    expect((await events(child)).at(-1)).toMatchObject({ event_type: 'SERIAL_FINALIZED', data: { batch_key: b1, link_key: detail.components[0]!.link_key } })
    // Twice: nothing left to finalise.
    expect(await inTrx((trx) => finalizeBatchSerials(trx, actor, b1, h.clock.now()))).toBe(0)
  })
})

describe('corrections with a reason, gated by the settings', () => {
  test('code edit: refused while the setting is off; with it on, old and new value and the reason land in the event', async () => {
    const id = await make('EDIT-1', assembly, { data: { lotto: 'L1' } })
    await make('EDIT-TAKEN')
    await writeSettings(h.svc.db, { serial_code_edit: false })
    expect(await refused(editSerial(h.svc, actor, id, { code: 'EDIT-2', reason: 'etichetta errata' }))).toMatchObject({ status: 403, code: 'SERIAL_CODE_EDIT_DISABLED' })
    expect(await refused(editSerial(h.svc, actor, id, { data: { lotto: 'L2' }, reason: '  ' }))).toMatchObject({ status: 400, code: 'SERIAL_REASON_REQUIRED' })
    // Data may be corrected without the setting, with a reason.
    await editSerial(h.svc, actor, id, { data: { lotto: 'L2' }, reason: 'lotto sbagliato' })
    await writeSettings(h.svc.db, { serial_code_edit: true })
    expect(await refused(editSerial(h.svc, actor, id, { code: 'EDIT-TAKEN', reason: 'x' }))).toMatchObject({ status: 409, code: 'SERIAL_ALREADY_PRESENT' })
    expect(await refused(editSerial(h.svc, actor, id, { code: 'E\u0000', reason: 'x' }))).toMatchObject({ status: 400, code: 'SERIAL_CODE_INVALID' })
    const row = await editSerial(h.svc, actor, id, { code: 'EDIT-2', reason: 'etichetta errata' })
    expect(row).toMatchObject({ code: 'EDIT-2', data: { lotto: 'L2' } })
    const updates = (await events(id)).filter((e) => e.event_type === 'SERIAL_UPDATED').map((e) => e.data)
    expect(updates).toEqual([
      { reason: 'lotto sbagliato', changes: { data: { from: { lotto: 'L1' }, to: { lotto: 'L2' } } } },
      { reason: 'etichetta errata', changes: { code: { from: 'EDIT-1', to: 'EDIT-2' } } },
    ])
    await writeSettings(h.svc.db, { serial_code_edit: false })
  })

  test('data correction: configured serial fields checked by type, keys already on the serial kept editable, any other key 400 naming it and nothing written', async () => {
    const volts = await makeField(h.svc.db, { type: 'number', name: 'Tensione collaudo' })
    const ok = await makeField(h.svc.db, { type: 'boolean', name: 'Collaudato' })
    await h.svc.db.insertInto('serial_fields').values([{ field_id: volts, mandatory: true, position: 901 }, { field_id: ok, mandatory: false, position: 902 }]).execute()
    try {
      const id = await make('DATA-1', assembly, { data: { lotto: 'L1', [volts]: 12 } })
      const before = await tableCounts(h)
      const bad = await refused(editSerial(h.svc, actor, id, { data: { lotto: 'L1', colore: 'rosso' }, reason: 'aggiunto colore' }))
      expect(bad).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID' })
      expect(bad.message).toContain('colore')
      const typed = await refused(editSerial(h.svc, actor, id, { data: { [volts]: 'dodici' }, reason: 'x' }))
      expect(typed).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID' })
      expect(typed.message).toContain('Tensione collaudo')
      expect(await tableCounts(h)).toEqual(before)
      // A configured field added, one changed, an old free key edited: accepted; an empty value removes its key.
      const row = await editSerial(h.svc, actor, id, { data: { lotto: 'L1bis', [volts]: 12.5, [ok]: true }, reason: 'collaudo rifatto' })
      expect(row.data).toEqual({ lotto: 'L1bis', [volts]: 12.5, [ok]: true })
      const removed = await editSerial(h.svc, actor, id, { data: { [volts]: 12.5, [ok]: null }, reason: 'lotto e collaudo tolti' })
      expect(removed.data).toEqual({ [volts]: 12.5 })
      // A piece declared in a batch keeps its mandatory fields: emptying one is refused, naming the field.
      await h.svc.db.updateTable('serials').set({ piece: 1 }).where('id', '=', id).execute()
      const beforeEmptied = await tableCounts(h)
      const emptied = await refused(editSerial(h.svc, actor, id, { data: { [volts]: null }, reason: 'tolta la misura' }))
      expect(emptied).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID', extra: { field_key: volts, field: 'Tensione collaudo', kind: 'required' } })
      expect(await tableCounts(h)).toEqual(beforeEmptied)
      await h.svc.db.updateTable('serials').set({ piece: null }).where('id', '=', id).execute()
      // The free key is gone now: it cannot come back.
      expect(await refused(editSerial(h.svc, actor, id, { data: { lotto: 'L1' }, reason: 'x' }))).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID' })
    } finally {
      await h.svc.db.deleteFrom('serial_fields').where('field_id', 'in', [volts, ok]).execute()
    }
  })

  test('removing a link: refused while serial_delete is off; with it on, needs a reason, recorded on both serials', async () => {
    const [p, c] = [await make('UNL-P'), await make('UNL-C')]
    const { link_key } = await link(p, c)
    await writeSettings(h.svc.db, { serial_delete: false })
    expect(await refused(unlinkSerial(h.svc, actor, link_key, 'smontato'))).toMatchObject({ status: 403, code: 'SERIAL_DELETE_DISABLED' })
    await writeSettings(h.svc.db, { serial_delete: true })
    expect(await refused(unlinkSerial(h.svc, actor, link_key, ''))).toMatchObject({ status: 400, code: 'SERIAL_REASON_REQUIRED' })
    await unlinkSerial(h.svc, actor, link_key, 'smontato in riparazione')
    expect((await getSerial(h.svc, c)).contained_in).toBeNull()
    for (const key of [p, c]) {
      const last = (await events(key)).at(-1)!
      expect(last).toMatchObject({ event_type: 'SERIAL_UPDATED', data: { reason: 'smontato in riparazione', unlinked: { parent_code: 'UNL-P', child_code: 'UNL-C' } } })
    }
    expect(await refused(unlinkSerial(h.svc, actor, link_key, 'ancora'))).toMatchObject({ status: 404 })
    await writeSettings(h.svc.db, { serial_delete: false })
  })
})

describe('listSerials', () => {
  test('search by code prefix from the minimum length, filters, first 100 with a total', async () => {
    for (let i = 0; i < 105; i++) await make(`LST-${String(i).padStart(3, '0')}`, i % 2 ? board : assembly)
    expect(await refused(listSerials(h.svc, { search: 'LS' }))).toMatchObject({ status: 400, code: 'SERIAL_SEARCH_TOO_SHORT' })
    const all = await listSerials(h.svc, { search: 'lst-' })
    expect(all.total).toBe(105)
    expect(all.total_capped).toBe(false)
    expect(all.rows).toHaveLength(100)
    expect(all.rows[0]!.code).toBe('LST-000')
    const boards = await listSerials(h.svc, { search: 'LST-1', product_key: board })
    expect(boards.rows.map((r) => r.code)).toEqual(['LST-101', 'LST-103'])
    expect(boards.total).toBe(2)
    expect((await listSerials(h.svc, { code: 'LST-007' })).rows.map((r) => r.code)).toEqual(['LST-007'])
    // A '%' or '_' typed is a character, not a wildcard.
    expect((await listSerials(h.svc, { search: 'LST%0' })).total).toBe(0)
    expect((await listSerials(h.svc, { search: 'LST-', state: 'temporary' })).total).toBe(0)
  })
})
