import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { PieceSerialsInput } from '../../../src/domains/serials/batch-serials'
import { adminKey, appCode, quickUser, tableCounts } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { createMovement } from '../movements/service'
import { readWarehouseSettings, updateWarehouseSettings } from '../movements/settings'
import { createPosition } from '../positions/service'
import { createSerial, editSerial, getGenealogy, linkSerials } from '../serials/service'
import { getBatchSerials, saveSerialTempLinks } from './batch-serials'
import { completeBatch } from './batches'
import { heartbeat } from './heartbeat'
import { startJobs } from './start-pause'
import { completeStep, saveStep } from './steps'
import { eventsOf, makeComponent, makeField, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { reshapeReleased } from '../../test/revisions'

/**
 * Serials declared in a batch (issue 13, SPEC 5 and 7): with traceability level complete every
 * piece gets its serial (counter, or typed) and its component serials as temporary rows; step and
 * batch completion are refused until each piece is declared; BATCH_COMPLETED makes them final.
 * Every refusal writes nothing.
 */
describe('execution: serials declared in a batch', () => {
  const h = useHarness()
  let op: Operator
  let other: Operator
  let seq = 0
  const unique = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`

  const refused = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      const err = e as { status?: number; appCode?: string; message?: string; extra?: Record<string, unknown> }
      return { status: err.status, code: err.appCode, message: err.message ?? '', extra: err.extra ?? {} }
    }
    throw new Error('expected a refusal')
  }
  const refusedWritingNothing = async (p: () => Promise<unknown>) => {
    const before = await tableCounts(h)
    const serialsBefore = await h.svc.db.selectFrom('serials').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const linksBefore = await h.svc.db.selectFrom('serial_links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const r = await refused(p())
    expect(await tableCounts(h)).toEqual(before)
    expect(await h.svc.db.selectFrom('serials').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual(serialsBefore)
    expect(await h.svc.db.selectFrom('serial_links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual(linksBefore)
    return r
  }

  /** A one-phase product at level complete: a component per item (`perPiece` serials each), batches of 2. */
  async function traced(opts: { counter?: boolean; perPiece?: number; quantity?: number; mandatoryField?: boolean; maxOffline?: number } = {}) {
    const s = await makeSetup(h.svc.db, {
      quantity: opts.quantity ?? 2,
      operator: op.key,
      defaults: { production_batch_qt: 2, parallel_job_allowed: true, ...(opts.maxOffline ? { max_offline: opts.maxOffline } : {}) },
      phases: [{ bom: [{ quantity: opts.perPiece ?? 2, quantity_per: 'item', code: unique('BOARD') }] }],
    })
    const phase = s.phases[0]!
    let counterName: string | null = null
    let counterId: string | null = null
    if (opts.counter !== false) {
      counterName = unique('Seriali')
      const prefix = unique('SN').toUpperCase()
      ;({ id: counterId } = await h.svc.db.insertInto('counters').values({ name: counterName, template: `${prefix}-{###}` }).returning('id').executeTakeFirstOrThrow())
    }
    await reshapeReleased(h.svc.db, (trx) => trx.updateTable('product_phases').set({ traceability_level: 'complete', counter_id: counterId }).where('id', '=', phase.key).execute())
    const line = await reshapeReleased(h.svc.db, (trx) => trx.updateTable('bom_lines').set({ declared_serials: true }).where('phase_id', '=', phase.key).returning(['id', 'item_id']).executeTakeFirstOrThrow())
    const out = await startJobs(h.svc, op.actor, { job_keys: [s.jobs[0]![0]!], idempotency_key: newKey() })
    const batch = out.jobs[0]!.batch!
    const [instr, form] = phase.steps.map((x) => x._key)
    const formField = phase.fields[1]!.f0!
    return { s, phase, batch: batch._key, instr: instr!, form: form!, formField, component: line.id, item: line.item_id, counterName }
  }
  type Traced = Awaited<ReturnType<typeof traced>>
  const save = (t: Traced, pieces: PieceSerialsInput[], who = op) => saveSerialTempLinks(h.svc, who.actor, { batch_key: t.batch, pieces, idempotency_key: newKey() })
  const completeForm = (t: Traced) =>
    completeStep(h.svc, op.actor, { batch_key: t.batch, step_key: t.form, form_data: [{ field_key: t.formField, value: 'ok' }], idempotency_key: newKey() })
  const links = (t: Traced, piece: number, codes: string[]) => ({ piece, links: codes.map((c) => ({ component_key: t.component, child_serial_code: c })) })

  test('setup', async () => {
    op = await makeOperator(h, 'op.serials')
    other = await makeOperator(h, 'op.serials.other')
  }, 60_000)

  test('the batch lists its pieces; the serial step is refused until every piece is declared; temporary until the batch completes, then final with events saying which (its own batch, or the link into the parent)', async () => {
    const t = await traced()
    const start = await getBatchSerials(h.svc, op.actor, t.batch)
    expect(start).toMatchObject({
      qt_total: 2,
      required: true,
      traceability_level: 'complete',
      counter_name: t.counterName,
      serial_step_key: t.form,
      components: [{ component_key: t.component, first_piece_slots: 2, piece_slots: 2 }],
      pieces: [
        { piece: 1, serial_key: null, declared: false },
        { piece: 2, serial_key: null, declared: false },
      ],
      complete: false,
    })
    // The first step is not the serial step: it completes.
    expect((await completeStep(h.svc, op.actor, { batch_key: t.batch, step_key: t.instr, idempotency_key: newKey() })).next).toBe('continue')
    const early = await refusedWritingNothing(() => completeForm(t))
    expect(early).toMatchObject({ status: 422, code: 'SERIALS_NOT_DECLARED', extra: { pieces: [1, 2], piece: 1, code: null } })

    // Piece 1 whole, piece 2 with one board of two: the counter numbers both pieces.
    const a = unique('B'), b = unique('B'), c = unique('B')
    const half = await save(t, [links(t, 1, [a, b]), links(t, 2, [c])])
    expect(half.pieces.map((p) => [p.piece, p.declared, p.links.length, p.state])).toEqual([
      [1, true, 2, 'temporary'],
      [2, false, 1, 'temporary'],
    ])
    expect(half.pieces[0]!.code).toMatch(/-001$/)
    expect(half.pieces[1]!.code).toMatch(/-002$/)
    expect(await refused(completeForm(t))).toMatchObject({ status: 422, code: 'SERIALS_NOT_DECLARED', extra: { pieces: [2] } })

    // Saving again keeps the codes (no new counter number) and fills piece 2.
    const d = unique('B')
    const full = await save(t, [links(t, 1, [a, b]), links(t, 2, [c, d])])
    expect(full.pieces.map((p) => p.code)).toEqual(half.pieces.map((p) => p.code))
    expect(full.complete).toBe(true)
    const pieceKeys = full.pieces.map((p) => p.serial_key!)
    const children = full.pieces.flatMap((p) => p.links.map((l) => l.serial_key))
    // Still temporary: nothing is final before the batch completes.
    const states = async () =>
      (await h.svc.db.selectFrom('serials').select('state').where('id', 'in', [...pieceKeys, ...children]).execute()).map((r) => r.state)
    expect(new Set(await states())).toEqual(new Set(['temporary']))
    const done = await completeForm(t)
    expect(done.next).toBe('job_closed')
    expect(new Set(await states())).toEqual(new Set(['final']))
    expect(new Set((await h.svc.db.selectFrom('serial_links').select('state').where('batch_id', '=', t.batch).execute()).map((r) => r.state))).toEqual(new Set(['final']))
    const finalized = await h.svc.db
      .selectFrom('events')
      .select(['subject_key', 'data'])
      .where('event_type', '=', 'SERIAL_FINALIZED')
      .where('subject_key', 'in', [...pieceKeys, ...children])
      .execute()
    expect(finalized.length).toBe(6)
    // Each says which (the history's "Reso definitivo" detail): a piece, its own batch by number;
    // a component, its link into the piece by the piece's code.
    const batchNumber = (await h.svc.db.selectFrom('batches').select('number').where('id', '=', t.batch).executeTakeFirstOrThrow()).number
    const dataOf = (key: string) => finalized.find((e) => e.subject_key === key)!.data as Record<string, unknown>
    for (const p of full.pieces) {
      expect(dataOf(p.serial_key!)).toMatchObject({ batch_key: t.batch, batch_number: batchNumber, own_batch: true, into_code: null, link_key: null })
      for (const l of p.links) {
        expect(dataOf(l.serial_key!)).toMatchObject({ batch_key: t.batch, batch_number: batchNumber, own_batch: false, into_code: p.code })
        expect(dataOf(l.serial_key!).link_key).toEqual(expect.any(String))
      }
    }
    // The serial knows where it was made.
    const made = await h.svc.db.selectFrom('serials').selectAll().where('id', '=', pieceKeys[0]!).executeTakeFirstOrThrow()
    expect(made).toMatchObject({ batch_id: t.batch, piece: 1, work_order_id: t.s.workOrderKey, phase_id: t.phase.key, operator_id: op.key })
  })

  test('completing the whole batch (step_check off) is refused the same way and finalises in the same transaction', async () => {
    const t = await traced()
    await reshapeReleased(h.svc.db, (trx) => trx.updateTable('product_phases').set((eb) => ({ parameters: eb.fn('jsonb_set', [eb.ref('parameters'), eb.val('{step_check}'), eb.val('false')]) as never })).where('id', '=', t.phase.key).execute())
    await saveStep(h.svc, op.actor, { batch_key: t.batch, step_key: t.form, form_data: [{ field_key: t.formField, value: 'ok' }], idempotency_key: newKey() })
    await save(t, [links(t, 1, [unique('B'), unique('B')])])
    const r = await refusedWritingNothing(() => completeBatch(h.svc, op.actor, { batch_key: t.batch, idempotency_key: newKey() }))
    expect(r).toMatchObject({ status: 422, code: 'SERIALS_NOT_DECLARED', extra: { pieces: [2] } })
    await save(t, [links(t, 2, [unique('B'), unique('B')])])
    const out = await completeBatch(h.svc, op.actor, { batch_key: t.batch, idempotency_key: newKey() })
    expect(out.completed_batch?._key).toBe(t.batch)
    expect((await h.svc.db.selectFrom('serials').select('state').where('batch_id', '=', t.batch).execute()).map((s) => s.state)).toEqual(['final', 'final'])
  })

  test('rule errors: scanned twice, another product, inside another serial (confirm_move), bad codes; each writes nothing', async () => {
    const t = await traced()
    const admin = { userId: await adminKey(h), sessionId: null, scope: 'admin', tokenId: null }
    const twice = unique('B')
    expect(await refusedWritingNothing(() => save(t, [links(t, 1, [twice, twice])]))).toMatchObject({ status: 400, code: 'SERIAL_SCANNED_TWICE' })
    expect(await refusedWritingNothing(() => save(t, [links(t, 1, [twice]), links(t, 2, [twice])]))).toMatchObject({ status: 400, code: 'SERIAL_SCANNED_TWICE' })

    // A serial of another product.
    const otherProduct = await makeComponent(h.svc.db, unique('OTHER'))
    const foreign = unique('F')
    await h.svc.db.transaction().execute((trx) => createSerial(trx, admin, { code: foreign, product_id: otherProduct }, h.clock.now()))
    const wrong = await refusedWritingNothing(() => save(t, [links(t, 1, [unique('B'), foreign])]))
    expect(wrong).toMatchObject({ status: 422, code: 'SERIAL_WRONG_PRODUCT', extra: { piece: 1, code: foreign, serial_product_code: expect.stringMatching(/^OTHER-/) } })
    expect(wrong.message).toContain('is of product OTHER-')

    // A board already inside another serial: asks to confirm, then moves.
    const boxProduct = await makeComponent(h.svc.db, unique('BOX'))
    const box = unique('BOX')
    const board = unique('B')
    await h.svc.db.transaction().execute(async (trx) => {
      const boxKey = await createSerial(trx, admin, { code: box, product_id: boxProduct }, h.clock.now())
      const boardKey = await createSerial(trx, admin, { code: board, product_id: t.item }, h.clock.now())
      await linkSerials(trx, admin, { parent_id: boxKey, child_id: boardKey }, h.clock.now())
    })
    const asked = await refusedWritingNothing(() => save(t, [links(t, 1, [board])]))
    expect(asked).toMatchObject({ status: 409, code: 'SERIAL_ALREADY_LINKED', extra: { piece: 1, code: board, current_parent_code: box } })
    const moved = await save(t, [{ piece: 1, links: [{ component_key: t.component, child_serial_code: board, confirm_move: true }] }])
    expect(moved.pieces[0]!.links.map((l) => l.code)).toEqual([board])

    // Codes of 10,000 characters or with NUL bytes; a piece outside the batch; a component of another phase.
    expect(await refusedWritingNothing(() => save(t, [links(t, 2, ['X'.repeat(10_000)])]))).toMatchObject({ status: 400, code: 'SERIAL_CODE_INVALID' })
    expect(await refusedWritingNothing(() => save(t, [links(t, 2, ['AB\u0000CD'])]))).toMatchObject({ status: 400, code: 'SERIAL_CODE_INVALID' })
    expect(await refusedWritingNothing(() => save(t, [links(t, 3, [unique('B')])]))).toMatchObject({ status: 400, code: 'SERIAL_DECLARATION_INVALID' })
    expect(await refusedWritingNothing(() => save(t, [links(t, 2, [unique('B'), unique('B'), unique('B')])]))).toMatchObject({ status: 400, code: 'SERIAL_DECLARATION_INVALID' })
    const stray = { piece: 2, links: [{ component_key: crypto.randomUUID(), child_serial_code: unique('B') }] }
    expect(await refusedWritingNothing(() => save(t, [stray]))).toMatchObject({ status: 400, code: 'SERIAL_DECLARATION_INVALID' })

    // All or nothing: piece 2 is fine, piece 1 is refused: piece 2 is not saved either.
    const ok2 = links(t, 2, [unique('B'), unique('B')])
    expect(await refusedWritingNothing(() => save(t, [ok2, links(t, 1, [board, foreign])]))).toMatchObject({ code: 'SERIAL_WRONG_PRODUCT' })

    // Only the job's operator writes, and only while the batch is open.
    expect(await refused(save(t, [ok2], other))).toMatchObject({ status: 403, code: 'JOB_NOT_YOURS' })
  })

  test('without a counter: the serial is typed; COUNTER_NOT_DEFINED; a used code is refused on create and on correction', async () => {
    const t = await traced({ counter: false })
    expect((await getBatchSerials(h.svc, op.actor, t.batch)).counter_name).toBeNull()
    expect(await refusedWritingNothing(() => save(t, [links(t, 1, [unique('B')])]))).toMatchObject({ status: 422, code: 'COUNTER_NOT_DEFINED' })
    const used = unique('USED')
    const admin = { userId: await adminKey(h), sessionId: null, scope: 'admin', tokenId: null }
    await h.svc.db.transaction().execute((trx) => createSerial(trx, admin, { code: used, product_id: t.s.productKey }, h.clock.now()))
    expect(await refusedWritingNothing(() => save(t, [{ piece: 1, serial_code: used }]))).toMatchObject({ status: 409, code: 'SERIAL_NEW_ALREADY_PRESENT', extra: { piece: 1, code: used } })
    const typed = unique('TYPED')
    const first = await save(t, [{ ...links(t, 1, [unique('B'), unique('B')]), serial_code: ` ${typed} ` }])
    expect(first.pieces[0]).toMatchObject({ code: typed, declared: true })
    expect(first.pieces[1]).toMatchObject({ serial_key: null, declared: false })
    // A typo corrected while the batch is open; a used code is refused as an update.
    expect(await refusedWritingNothing(() => save(t, [{ piece: 1, serial_code: used }]))).toMatchObject({ status: 409, code: 'SERIAL_ALREADY_PRESENT' })
    const fixed = await save(t, [{ piece: 1, serial_code: `${typed}-B` }])
    expect(fixed.pieces[0]).toMatchObject({ code: `${typed}-B`, serial_key: first.pieces[0]!.serial_key, declared: true })
  })

  test('a component scanned away again: its link goes, and a serial only registered by that scan is not kept', async () => {
    const t = await traced({ perPiece: 1 })
    const scanned = unique('B')
    const first = await save(t, [links(t, 1, [scanned])])
    const child = first.pieces[0]!.links[0]!.serial_key
    const replaced = await save(t, [links(t, 1, [unique('B')])])
    expect(replaced.pieces[0]!.links.map((l) => l.code)).not.toContain(scanned)
    expect(await h.svc.db.selectFrom('serials').select('id').where('id', '=', child).executeTakeFirst()).toBeUndefined()
  })

  test('mandatory serial fields: data keyed by serial field key, checked by type, required to declare the piece', async () => {
    const field = await makeField(h.svc.db, { type: 'number', name: unique('Tensione') })
    await h.svc.db.insertInto('serial_fields').values({ field_id: field, mandatory: true, position: 999 }).execute()
    try {
      const t = await traced({ perPiece: 1 })
      const view = await getBatchSerials(h.svc, op.actor, t.batch)
      expect(view.serial_fields.find((f) => f._key === field)).toMatchObject({ mandatory: true, type: 'number' })
      const saved = await save(t, [links(t, 1, [unique('B')])])
      expect(saved.pieces[0]!.declared).toBe(false)
      expect(await refusedWritingNothing(() => save(t, [{ piece: 1, data: { [field]: 'dodici' } }]))).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID' })
      expect(await refusedWritingNothing(() => save(t, [{ piece: 1, data: { [crypto.randomUUID()]: 1 } }]))).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID' })
      const filled = await save(t, [{ piece: 1, data: { [field]: 230 } }])
      expect(filled.pieces[0]).toMatchObject({ data: { [field]: 230 }, declared: true })
      // Staff corrections keep it filled too: emptying it is refused naming the field.
      const staff = { ...op.actor, userId: await adminKey(h), scope: 'admin' }
      const emptied = await refused(editSerial(h.svc, staff, filled.pieces[0]!.serial_key!, { data: {}, reason: 'pulizia' }))
      expect(emptied).toMatchObject({ status: 400, code: 'SERIAL_DATA_INVALID', extra: { field_key: field } })
      expect((await editSerial(h.svc, staff, filled.pieces[0]!.serial_key!, { data: { [field]: 231 }, reason: 'rimisurata' })).data).toEqual({ [field]: 231 })
    } finally {
      await h.svc.db.deleteFrom('serial_fields').where('field_id', '=', field).execute()
    }
  })

  test('a component declared per batch or per job is in the genealogy of every piece, and goes into every piece', async () => {
    for (const per of ['batch', 'job'] as const) {
      const t = await traced({ perPiece: 1 })
      await reshapeReleased(h.svc.db, (trx) => trx.updateTable('bom_lines').set({ quantity_per: per, quantity: 1 }).where('id', '=', t.component).execute())
      const lot = unique('LOT')
      const saved = await save(t, [links(t, 1, [lot]), { piece: 2 }])
      expect(saved.complete).toBe(true)
      const [p1, p2] = saved.pieces.map((p) => p.serial_key!)
      for (const piece of [p1!, p2!]) {
        const inside = await getGenealogy(h.svc, piece, 'backward')
        expect([per, inside.rows.map((r) => r.code)]).toEqual([per, [saved.pieces.find((p) => p.serial_key === piece)!.code!, lot]])
      }
      const lotKey = saved.pieces[0]!.links[0]!.serial_key
      const into = await getGenealogy(h.svc, lotKey, 'forward')
      expect(into.rows.slice(1).map((r) => r.code).sort()).toEqual(saved.pieces.map((p) => p.code!).sort())
    }
  })

  test('a cycle through the batch is refused (a kit whose component is the kit itself)', async () => {
    const t = await traced({ perPiece: 1 })
    await reshapeReleased(h.svc.db, (trx) => trx.updateTable('bom_lines').set({ item_id: t.s.productKey }).where('id', '=', t.component).execute())
    const first = await save(t, [{ piece: 1 }, { piece: 2 }])
    const [p1, p2] = first.pieces.map((p) => p.code!)
    await save(t, [links(t, 2, [p1!])])
    const cycle = await refusedWritingNothing(() => save(t, [links(t, 1, [p2!])]))
    expect(cycle).toMatchObject({ status: 422, code: 'SERIAL_LINK_CYCLE' })
  })

  test('a batch of 100 pieces with 2 component serials each: declared in one call, final in the completing transaction', async () => {
    const t = await traced({ quantity: 100 })
    await h.svc.db.updateTable('batches').set({ qt_total: 100 }).where('id', '=', t.batch).execute()
    await h.svc.db.updateTable('jobs').set({ active_qt: 100 }).where('id', '=', t.s.jobs[0]![0]!).execute()
    await h.svc.db.updateTable('work_order_phases').set({ taken_qt: 100 }).where('work_order_id', '=', t.s.workOrderKey).execute()
    const pieces = Array.from({ length: 100 }, (_, i) => links(t, i + 1, [unique(`M${i}`), unique(`N${i}`)]))
    const started = performance.now()
    const saved = await save(t, pieces)
    const saveMs = performance.now() - started
    expect(saved.complete).toBe(true)
    expect(new Set(saved.pieces.map((p) => p.code)).size).toBe(100)
    await completeStep(h.svc, op.actor, { batch_key: t.batch, step_key: t.instr, idempotency_key: newKey() })
    const before = performance.now()
    const done = await completeForm(t)
    const completeMs = performance.now() - before
    expect(done.completed_batch?.qt_total).toBe(100)
    const final = await h.svc.db.selectFrom('serial_links').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', t.batch).where('state', '=', 'final').executeTakeFirstOrThrow()
    expect(Number(final.n)).toBe(200)
    const events = await h.svc.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_type', '=', 'SERIAL_FINALIZED')
      .where(sql<string>`data->>'batch_key'`, '=', t.batch)
      .executeTakeFirstOrThrow()
    expect(Number(events.n)).toBe(300)
    console.log(`[serials-batch] 100 pieces x 2 components: declared in ${saveMs.toFixed(0)} ms, completed (finalised) in ${completeMs.toFixed(0)} ms`)
  }, 60_000)

  test('SPEC 5: with inventory management on, a component serial in no stock position is refused (409 naming it, nothing written) until confirmed; off, nothing is checked', async () => {
    const admin = { userId: await adminKey(h), sessionId: null, scope: 'admin warehouse', tokenId: null }
    const before = await readWarehouseSettings(h.svc.db)
    const t = await traced({ perPiece: 2 })
    const store = (await createPosition(h.svc, admin, { code: unique('SB-STORE') }))._key
    const [inStock, missing, missing2] = [unique('IN'), unique('OUT'), unique('OUT')]
    await createMovement(h.svc, admin, { type: 'load', product_key: t.item, to_position_key: store, quantity: 1, serial: inStock })
    await updateWarehouseSettings(h.svc, admin, { inventory_management: true })
    try {
      const put = (body: unknown) => h.request('PUT', `/api/batch/${t.batch}/serial-temp-links?idempotency_key=${newKey()}`, { token: op.token, body })
      const before = await tableCounts(h)
      const serialsBefore = await h.svc.db.selectFrom('serials').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      const no = await put([links(t, 1, [inStock, missing]), links(t, 2, [missing2])])
      expect({ status: no.status, code: appCode(no.body), serials: no.body.detail.serials }).toEqual({ status: 409, code: 'SERIAL_NOT_IN_STOCK', serials: [missing, missing2] })
      expect(await tableCounts(h)).toEqual(before)
      expect(await h.svc.db.selectFrom('serials').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual(serialsBefore)
      // Only the confirmed one passes: the other is still named.
      const confirmOne = (code: string) => ({ component_key: t.component, child_serial_code: code, confirm_not_in_stock: true })
      const half = await put([{ piece: 1, links: [{ component_key: t.component, child_serial_code: inStock }, confirmOne(missing)] }, links(t, 2, [missing2])])
      expect({ status: half.status, serials: half.body.detail.serials }).toEqual({ status: 409, serials: [missing2] })
      const ok = await put([{ piece: 1, links: [{ component_key: t.component, child_serial_code: inStock }, confirmOne(missing)] }, { piece: 2, links: [confirmOne(missing2)] }])
      expect(ok.status).toBe(200)
      expect(ok.body.detail.pieces[0].links.map((l: { code: string }) => l.code)).toEqual([inStock, missing])
      // Links already declared are not asked again when the piece is sent again without the flag.
      const again = await save(t, [links(t, 1, [inStock, missing])])
      expect(again.pieces[0]!.links.map((l) => l.code)).toEqual([inStock, missing])
      // Inventory management off: nothing is checked.
      await updateWarehouseSettings(h.svc, admin, { inventory_management: false })
      const off = await save(t, [links(t, 2, [missing2, unique('OUT')])])
      expect(off.pieces[1]!.links).toHaveLength(2)
    } finally {
      await updateWarehouseSettings(h.svc, admin, { inventory_management: before.inventory_management })
    }
  })

  test('a declaration kept offline (issue 24): its client time recorded, sent twice applied once, past max_offline refused', async () => {
    const t = await traced({ perPiece: 1, maxOffline: 120 })
    const madeAt = h.clock.now().getTime()
    h.clock.advance(60_000)
    const declaration = { batch_key: t.batch, pieces: [links(t, 1, [unique('B')])], idempotency_key: newKey(), client_time: madeAt }
    const first = await saveSerialTempLinks(h.svc, op.actor, declaration)
    // The answer was lost on the way back and the tablet sends it again, even once its time has aged.
    h.clock.advance(120_000)
    expect(await saveSerialTempLinks(h.svc, op.actor, declaration)).toEqual(first)
    const saved = await eventsOf(h.svc.db, t.s.jobs[0]![0]!, 'SERIAL_TEMP_LINKS_SAVED')
    expect(saved.map((e) => e.data)).toEqual([expect.objectContaining({ batch_key: t.batch, pieces: [1], client_time: madeAt })])
    // Made longer ago than max_offline while the job kept running (it beat since): refused, nothing written.
    await heartbeat(h.svc, op.actor, { job_key: t.s.jobs[0]![0]! }, { sessionLocked: false })
    const stale = { batch_key: t.batch, pieces: [links(t, 2, [unique('B')])], idempotency_key: newKey(), client_time: madeAt }
    expect(await refusedWritingNothing(() => saveSerialTempLinks(h.svc, op.actor, stale))).toMatchObject({ status: 409, code: 'CLIENT_TIME_PAST_MAX_OFFLINE' })
    // REST: the key and the time travel in the query string, the pieces are the body; no key is refused.
    const now = h.clock.now().getTime()
    const path = `/api/batch/${t.batch}/serial-temp-links`
    const rest = await h.request('PUT', `${path}?idempotency_key=${newKey()}&client_time=${now}`, { token: op.token, body: [links(t, 2, [unique('B')])] })
    expect(rest.status).toBe(200)
    expect((await eventsOf(h.svc.db, t.s.jobs[0]![0]!, 'SERIAL_TEMP_LINKS_SAVED')).map((e) => e.data.client_time)).toEqual([madeAt, now])
    const noKey = await h.request('PUT', path, { token: op.token, body: [{ piece: 2 }] })
    expect(noKey.status).toBe(400)
  })

  test('REST: GET batch/{key}/serials, PUT batch/{key}/serial-temp-links, GET component-batch; errors and permissions', async () => {
    const t = await traced({ perPiece: 1 })
    const auth = { token: op.token }
    const read = await h.request('GET', `/api/batch/${t.batch}/serials`, auth)
    expect(read.status).toBe(200)
    expect(read.body.detail).toMatchObject({ required: true, pieces: [{ piece: 1 }, { piece: 2 }] })
    const cb = await h.request('GET', `/api/component-batch?batch_key=${t.batch}`, auth)
    expect(cb.body.detail.components[0]).toMatchObject({ _key: t.component, declared_serials: true, batch_quantity: 2 })
    const put = (body: unknown, token = op.token) => h.request('PUT', `/api/batch/${t.batch}/serial-temp-links?idempotency_key=${newKey()}`, { token, body })
    const ok = await put([{ piece: 1, links: [{ component_key: t.component, child_serial_code: unique('B') }] }])
    expect(ok.status).toBe(200)
    expect(ok.body.detail.pieces[0].declared).toBe(true)
    // Bad input: 4xx with a clear message.
    const long = await put([{ piece: 2, links: [{ component_key: t.component, child_serial_code: 'X'.repeat(10_000) }] }])
    expect({ status: long.status, code: appCode(long.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    const nul = await put([{ piece: 2, serial_code: 'A\u0000B' }])
    expect(nul.status).toBe(400)
    const typo = await put([{ piece: 2, colour: 'red' }])
    expect(typo.body.detail.issues[0].kind).toBe('unknown_key')
    expect((await put({ piece: 2 })).status).toBe(400)
    expect((await put([{ piece: 0 }])).status).toBe(400)
    const twice = await put([{ piece: 2, links: [{ component_key: t.component, child_serial_code: 'SAME' }] }, { piece: 2 }])
    expect({ status: twice.status, code: appCode(twice.body) }).toEqual({ status: 400, code: 'SERIAL_DECLARATION_INVALID' })
    // Permissions: another operator 403, production reads but does not write, other scopes 403, no token 401.
    expect((await put([{ piece: 2 }], other.token)).status).toBe(403)
    const prod = await quickUser(h, unique('prod'), 'production')
    expect((await h.request('GET', `/api/batch/${t.batch}/serials`, { token: prod.token })).status).toBe(200)
    expect((await put([{ piece: 2 }], prod.token)).status).toBe(403)
    const trace = await quickUser(h, unique('trace'), 'traceability')
    expect((await h.request('GET', `/api/batch/${t.batch}/serials`, { token: trace.token })).status).toBe(403)
    expect((await h.request('GET', `/api/batch/${t.batch}/serials`, {})).status).toBe(401)
    expect((await h.request('GET', `/api/batch/${crypto.randomUUID()}/serials`, auth)).status).toBe(404)
    // The step is refused over REST too, with the pieces named.
    await completeStep(h.svc, op.actor, { batch_key: t.batch, step_key: t.instr, idempotency_key: newKey() })
    const step = await h.request('POST', `/api/batch/${t.batch}/steps/${t.form}/complete`, {
      ...auth,
      body: { form_data: [{ field_key: t.formField, value: 'ok' }], idempotency_key: newKey() },
    })
    expect({ status: step.status, code: appCode(step.body), pieces: step.body.detail.pieces, piece: step.body.detail.piece }).toEqual({ status: 422, code: 'SERIALS_NOT_DECLARED', pieces: [2], piece: 2 })
    expect(step.body.detail).toHaveProperty('serial_code')
  })
})
