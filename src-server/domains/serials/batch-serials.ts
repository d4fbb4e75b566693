import { sql } from 'kysely'
import { batchConsumption } from '../../../src/domains/execution/rules'
import type { TraceabilityLevel } from '../../../src/domains/products/bom'
import { checkMetadataValue, isEmptyValue, type MetadataField } from '../../../src/domains/products/metadata'
import { type BatchPiece, type BatchSerialComponent, type BatchSerials, componentSlots, type PieceLinkInput, type PieceSerialsInput } from '../../../src/domains/serials/batch-serials'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, badRequest, conflict, isUniqueViolation, unprocessable } from '../../errors'
import { appendEvent, appendEvents } from '../events/service'
import { assertComponentSerialsInStock } from '../production-stock/service'
import { listSerialFields } from '../serial-fields/service'
import { lockSerialLinks } from './queries'
import { checkedCode, checkedData, codeInUseOnCreate, codeInUseOnUpdate, createSerial } from './service'

/**
 * Serials declared in an open batch (level complete): what each piece needs, the temporary serials
 * and links PUT batch/{key}/serial-temp-links writes, and the check before the step and the batch
 * complete. Execution calls these with the job and batch rows locked; finalizeBatchSerials (service.ts)
 * makes them final at BATCH_COMPLETED.
 */
/** Where a batch is: execution reads it and has checked who may read or write it. */
export type BatchPlace = {
  batch_id: string
  qt_total: number
  job_id: string
  work_order_id: string
  phase_id: string
  /** The job's first batch (lines per job are consumed with it). */
  first_batch: boolean
}

type Trace = {
  level: TraceabilityLevel
  product_id: string
  counter_id: string | null
  counter_name: string | null
  components: BatchSerialComponent[]
  fields: (MetadataField & { _key: string; help_text: string })[]
}

/** The phase's traceability level and counter, its components with declared serials, the serial fields. */
async function batchTrace(db: Db, place: BatchPlace): Promise<Trace> {
  const phase = await db
    .selectFrom('product_phases as ph')
    .leftJoin('counters as c', 'c.id', 'ph.counter_id')
    .select(['ph.product_id', 'ph.traceability_level', 'ph.counter_id', 'c.name as counter_name'])
    .where('ph.id', '=', place.phase_id)
    .executeTakeFirstOrThrow()
  const lines = await db
    .selectFrom('bom_lines as l')
    .innerJoin('products as p', 'p.id', 'l.item_id')
    .select(['l.id as component_key', 'l.item_id as item_key', 'p.code as item_code', 'p.description as item_description', 'l.quantity', 'l.quantity_per'])
    .where('l.phase_id', '=', place.phase_id)
    .where('l.declared_serials', '=', true)
    .orderBy('l.position')
    .orderBy('l.id')
    .execute()
  const components = lines.map((l) => {
    const batchQt = batchConsumption(l, place.qt_total, place.first_batch)
    return { ...l, quantity: Number(l.quantity), first_piece_slots: componentSlots(l, 1, batchQt), piece_slots: componentSlots(l, 2, batchQt) }
  })
  const fields = (await listSerialFields({ db })).filter((f) => f.field_active)
  return { level: phase.traceability_level, product_id: phase.product_id, counter_id: phase.counter_id, counter_name: phase.counter_name, components, fields }
}

const slotsOf = (c: BatchSerialComponent, piece: number) => (piece === 1 ? c.first_piece_slots : c.piece_slots)

/** The batch's piece serials and the links into them. */
async function readPieces(db: Db, batchId: string) {
  const serials = await db
    .selectFrom('serials')
    .select(['id', 'code', 'piece', 'state', 'data'])
    .where('batch_id', '=', batchId)
    .where('piece', 'is not', null)
    .orderBy('piece')
    .execute()
  const links = serials.length
    ? await db
        .selectFrom('serial_links as l')
        .innerJoin('serials as c', 'c.id', 'l.child_serial_id')
        .innerJoin('products as p', 'p.id', 'c.product_id')
        .select(['l.id as link_key', 'l.parent_serial_id', 'l.bom_line_id as component_key', 'l.batch_id', 'c.id as serial_key', 'c.code', 'p.code as product_code', 'l.state'])
        .where('l.parent_serial_id', 'in', serials.map((s) => s.id))
        // Links saved in one call share created_at: their code decides, never the random id.
        .orderBy('l.created_at')
        .orderBy('c.code')
        .orderBy('l.id')
        .execute()
    : []
  return { serials, links }
}

function piecesOf(trace: Trace, qtTotal: number, read: Awaited<ReturnType<typeof readPieces>>): BatchPiece[] {
  const byPiece = new Map(read.serials.map((s) => [s.piece!, s]))
  return Array.from({ length: qtTotal }, (_, i) => {
    const piece = i + 1
    const serial = byPiece.get(piece)
    const links = serial ? read.links.filter((l) => l.parent_serial_id === serial.id) : []
    const data = (serial?.data ?? {}) as Record<string, unknown>
    const declared =
      !!serial &&
      trace.fields.every((f) => !f.mandatory || !isEmptyValue(data[f._key])) &&
      trace.components.every((c) => links.filter((l) => l.component_key === c.component_key).length >= slotsOf(c, piece))
    return {
      piece,
      serial_key: serial?.id ?? null,
      code: serial?.code ?? null,
      state: serial?.state ?? null,
      data,
      links: links.map(({ link_key, component_key, serial_key, code, product_code, state }) => ({ link_key, component_key, serial_key, code, product_code, state })),
      declared,
    }
  })
}

/** `GET batch/{key}/serials` (execution checked the reader): pieces, their serials and what is missing. */
export async function readBatchSerials(db: Db, place: BatchPlace, serialStepKey: string | null): Promise<BatchSerials> {
  const trace = await batchTrace(db, place)
  const required = trace.level === 'complete'
  const pieces = required ? piecesOf(trace, place.qt_total, await readPieces(db, place.batch_id)) : []
  return {
    batch_key: place.batch_id,
    qt_total: place.qt_total,
    traceability_level: trace.level,
    required,
    counter_name: trace.counter_id ? (trace.counter_name ?? '') : null,
    serial_step_key: required ? serialStepKey : null,
    components: required ? trace.components : [],
    serial_fields: trace.fields.map(({ _key, name, type, options, multiple, mandatory, help_text }) => ({ _key, name, type, options: [...options], multiple, mandatory, help_text })),
    pieces,
    complete: pieces.every((p) => p.declared),
  }
}

/**
 * Step and batch completion (SPEC 5): with level complete, every piece needs its serial, its
 * mandatory serial fields and a serial in every component slot; else 422 SERIALS_NOT_DECLARED
 * naming the pieces.
 */
export async function assertBatchSerialsDeclared(db: Db, place: BatchPlace): Promise<void> {
  const trace = await batchTrace(db, place)
  if (trace.level !== 'complete') return
  const pieces = piecesOf(trace, place.qt_total, await readPieces(db, place.batch_id))
  const missing = pieces.filter((p) => !p.declared).map((p) => p.piece)
  if (missing.length === 0) return
  const shown = missing.length > 10 ? `${missing.slice(0, 10).join(', ')} ... (${missing.length} pieces)` : missing.join(', ')
  const first = pieces.find((p) => !p.declared)!
  throw unprocessable('SERIALS_NOT_DECLARED', `declare the serials of every piece first: piece ${shown}`, { pieces: missing, piece: first.piece, code: first.code, serial_code: first.code })
}

const declarationInvalid = (message: string, extra?: Record<string, unknown>) => badRequest('SERIAL_DECLARATION_INVALID', message, extra)

/**
 * `PUT batch/{key}/serial-temp-links` (execution locked the job and the open batch and checked
 * the operator): for each piece listed, its serial (created from the phase counter in this
 * transaction, or typed/scanned; a typed code of a temporary serial may be corrected), its serial
 * data and its component serials, which replace the piece's temporary links. A component code
 * not known yet registers a temporary serial of the component's product. Links follow linkSerials'
 * rules (SERIAL_ALREADY_LINKED unless confirm_move, SERIAL_WRONG_PRODUCT, SERIAL_LINK_CYCLE). Any
 * refusal rolls the whole call back (the caller's transaction).
 */
export async function saveBatchSerials(trx: Db, actor: Actor, place: BatchPlace, pieces: readonly PieceSerialsInput[], now: Date): Promise<void> {
  const trace = await batchTrace(trx, place)
  if (trace.level !== 'complete') throw declarationInvalid('this phase declares no serials: its traceability level is not complete')
  const components = new Map(trace.components.map((c) => [c.component_key, c]))
  const fields = new Map(trace.fields.map((f) => [f._key, f]))
  const seenPieces = new Set<number>()
  const seenCodes = new Map<string, number>()
  const checked = pieces.map((p) => {
    if (p.piece > place.qt_total) throw declarationInvalid(`piece ${p.piece} is not in this batch of ${place.qt_total}`, { piece: p.piece })
    if (seenPieces.has(p.piece)) throw declarationInvalid(`piece ${p.piece} is listed twice`, { piece: p.piece })
    seenPieces.add(p.piece)
    const code = p.serial_code?.trim() ? checkedCode(p.serial_code) : undefined
    if (code) {
      if (seenCodes.has(code)) throw badRequest('SERIAL_SCANNED_TWICE', `serial ${code} is declared twice in this batch`, { code, piece: p.piece })
      seenCodes.set(code, p.piece)
    }
    const links = p.links?.map((l) => {
      const component = components.get(l.component_key)
      if (!component) throw declarationInvalid('component not in this phase or without declared serials', { piece: p.piece, component_key: l.component_key })
      return { ...l, child_serial_code: checkedCode(l.child_serial_code), component }
    })
    for (const c of trace.components) {
      const n = links?.filter((l) => l.component === c).length ?? 0
      if (n > slotsOf(c, p.piece)) {
        throw declarationInvalid(`piece ${p.piece} takes ${slotsOf(c, p.piece)} serials of ${c.item_code}, not ${n}`, { piece: p.piece, component_key: c.component_key })
      }
    }
    for (const l of links ?? []) {
      if (seenCodes.has(l.child_serial_code)) {
        throw badRequest('SERIAL_SCANNED_TWICE', `serial ${l.child_serial_code} is declared twice in this batch`, { code: l.child_serial_code, piece: p.piece })
      }
      seenCodes.set(l.child_serial_code, p.piece)
    }
    let data: Record<string, unknown> | undefined
    if (p.data) {
      data = {}
      for (const [key, value] of Object.entries(p.data)) {
        const field = fields.get(key)
        if (!field) throw badRequest('SERIAL_DATA_INVALID', `not a serial field: ${key}`, { piece: p.piece, field_key: key })
        const ok = checkMetadataValue({ ...field, mandatory: false }, value)
        if (!ok.ok) throw badRequest('SERIAL_DATA_INVALID', `piece ${p.piece}, ${field.name}: ${ok.problem}`, { piece: p.piece, field_key: key })
        if (!isEmptyValue(ok.value)) data[key] = ok.value
      }
    }
    return { piece: p.piece, code, data, links }
  })

  await lockSerialLinks(trx)
  const read = await readPieces(trx, place.batch_id)
  const existing = new Map(read.serials.map((s) => [s.piece!, s]))
  // SPEC 5: a component serial newly put into a piece and in no stock position (inventory
  // management on) asks the person to confirm linking it without inventory movements.
  const kept = new Set(read.links.map((l) => `${l.parent_serial_id}\u0001${l.component_key}\u0001${l.code}`))
  const unconfirmed = checked.flatMap((p) =>
    (p.links ?? []).filter((l) => !l.confirm_not_in_stock && !kept.has(`${existing.get(p.piece)?.id}\u0001${l.component_key}\u0001${l.child_serial_code}`)),
  )
  await assertComponentSerialsInStock(trx, unconfirmed.map((l) => ({ product_key: l.component.item_key, code: l.child_serial_code })), false)
  const parents = new Map<number, string>()
  // First every piece's serial and the removals, so a serial moved between pieces is free when added.
  for (const p of checked) {
    const serial = existing.get(p.piece)
    if (!serial) {
      if (!p.code && !trace.counter_id && !p.links?.length && !(p.data && Object.keys(p.data).length)) continue
      const id = await withPiece(p.piece, p.code ?? null, () => createSerial(
        trx,
        actor,
        {
          code: p.code,
          counter_id: p.code ? null : trace.counter_id,
          product_id: trace.product_id,
          work_order_id: place.work_order_id,
          job_id: place.job_id,
          batch_id: place.batch_id,
          phase_id: place.phase_id,
          data: p.data,
          temporary: true,
          piece: p.piece,
        },
        now,
      ))
      parents.set(p.piece, id)
      continue
    }
    const parentId = serial.id
    parents.set(p.piece, parentId)
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    const set: { code?: string; data?: string } = {}
    if (p.code && p.code !== serial.code) {
      if (serial.state !== 'temporary') throw onPiece(conflict('SERIAL_ALREADY_PRESENT', `serial ${serial.code} is final: traceability staff correct it`), p.piece, p.code)
      if (await trx.selectFrom('serials').select('id').where('code', '=', p.code).executeTakeFirst()) throw onPiece(codeInUseOnUpdate(p.code), p.piece, p.code)
      changes.code = { from: serial.code, to: p.code }
      set.code = p.code
    }
    if (p.data && JSON.stringify(p.data) !== JSON.stringify(serial.data)) {
      changes.data = { from: serial.data, to: p.data }
      set.data = checkedData(p.data)
    }
    if (Object.keys(changes).length) {
      await trx.updateTable('serials').set({ ...set, updated_at: now }).where('id', '=', serial.id).execute()
      await appendEvent(trx, actor, { event_type: 'SERIAL_UPDATED', subject_type: 'serial', subject_key: serial.id, data: { reason: 'declared in the batch', batch_key: place.batch_id, changes } }, now)
    }
    const parentCode = set.code ?? serial.code
    if (!p.links) continue
    const wanted = new Set(p.links.map((l) => `${l.component_key}\u0001${l.child_serial_code}`))
    const gone = read.links.filter((l) => l.parent_serial_id === parentId && l.state === 'temporary' && !wanted.has(`${l.component_key}\u0001${l.code}`))
    for (const l of gone) {
      await trx.deleteFrom('serial_links').where('id', '=', l.link_key).execute()
      const data = { reason: 'declared in the batch', batch_key: place.batch_id, unlinked: { link_key: l.link_key, parent_key: parentId, parent_code: parentCode, child_key: l.serial_key, child_code: l.code, state: l.state } }
      await appendEvents(trx, actor, [l.serial_key, parentId].map((subject) => ({ event_type: 'SERIAL_UPDATED', subject_type: 'serial', subject_key: subject, data })), now)
    }
    // A serial registered by a scan and scanned away again is not kept.
    const orphans = gone.map((l) => l.serial_key)
    if (orphans.length) {
      await trx
        .deleteFrom('serials')
        .where('id', 'in', orphans)
        .where('state', '=', 'temporary')
        .where('batch_id', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('serial_links as x').select('x.id').where((w) => w.or([w('x.child_serial_id', '=', w.ref('serials.id')), w('x.parent_serial_id', '=', w.ref('serials.id'))])))))
        .execute()
    }
  }
  await addBatchLinks(
    trx,
    actor,
    place,
    checked.flatMap((p) => {
      const parent = parents.get(p.piece)
      return parent && p.links ? p.links.map((l) => ({ ...l, piece: p.piece, parent })) : []
    }),
    now,
  )
}

/** A refusal about one piece's own serial names the piece and the code, so the screen marks that field. */
const onPiece = (e: AppError, piece: number, code: string | null) => new AppError(e.status, e.appCode, `piece ${piece}: ${e.message}`, { ...e.extra, piece, code, serial_code: code })
async function withPiece<T>(piece: number, code: string | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    if (e instanceof AppError) throw onPiece(e, piece, code)
    throw e
  }
}

type WantedLink = PieceLinkInput & { piece: number; parent: string; component: BatchSerialComponent }

/**
 * The component serials of saveBatchSerials, all at once and by linkSerials' rules (the link lock
 * is held): known codes read in one query, unknown ones registered in one insert, the product and
 * current-parent rules checked in memory, moved links deleted and the new ones written in one
 * statement each, then one walk down from the new children looking for a cycle; events in one
 * insert. A refusal names the piece, the component and the code.
 */
async function addBatchLinks(trx: Db, actor: Actor, place: BatchPlace, wanted: WantedLink[], now: Date): Promise<void> {
  if (wanted.length === 0) return
  const refuse = (e: AppError, w: WantedLink) =>
    new AppError(e.status, e.appCode, `piece ${w.piece}: ${e.message}`, { ...e.extra, piece: w.piece, component_key: w.component_key, code: w.child_serial_code, serial_code: w.child_serial_code })
  const serials = new Map(
    (
      await trx
        .selectFrom('serials as s')
        .innerJoin('products as p', 'p.id', 's.product_id')
        .select(['s.id', 's.code', 's.product_id', 'p.code as product_code'])
        .where('s.code', 'in', wanted.map((w) => w.child_serial_code))
        .execute()
    ).map((r) => [r.code, r]),
  )
  const unknown = wanted.filter((w) => !serials.has(w.child_serial_code))
  if (unknown.length) {
    let rows: { id: string; code: string; product_id: string; product_code: string }[]
    try {
      rows = await trx
        .insertInto('serials')
        .values(
          unknown.map((w) => ({ code: w.child_serial_code, product_id: w.component.item_key, operator_id: actor.userId, data: '{}', state: 'temporary' as const, created_at: now, updated_at: now })),
        )
        .returning(['id', 'code', 'product_id'])
        .execute()
        .then((inserted) => inserted.map((r) => ({ ...r, product_code: unknown.find((w) => w.child_serial_code === r.code)!.component.item_code })))
    } catch (e) {
      // Registered meanwhile by another batch: the person scans again and it is found.
      if (isUniqueViolation(e)) throw refuse(codeInUseOnCreate(unknown[0]!.child_serial_code), unknown[0]!)
      throw e
    }
    for (const r of rows) serials.set(r.code, r)
    await appendEvents(
      trx,
      actor,
      rows.map((r) => ({ event_type: 'SERIAL_CREATED', subject_type: 'serial', subject_key: r.id, data: { code: r.code, product_key: r.product_id, batch_key: null, state: 'temporary' } })),
      now,
    )
  }
  const childOf = (w: WantedLink) => serials.get(w.child_serial_code)!
  const current = new Map(
    (
      await trx
        .selectFrom('serial_links as l')
        .innerJoin('serials as p', 'p.id', 'l.parent_serial_id')
        .select(['l.id', 'l.child_serial_id', 'l.parent_serial_id', 'p.code as parent_code'])
        .where('l.child_serial_id', 'in', wanted.map((w) => childOf(w).id))
        .execute()
    ).map((r) => [r.child_serial_id, r]),
  )
  const parentCodes = new Map(
    (await trx.selectFrom('serials').select(['id', 'code']).where('id', 'in', [...new Set(wanted.map((w) => w.parent))]).execute()).map((r) => [r.id, r.code]),
  )
  const adds: (WantedLink & { child: { id: string; code: string }; moved: { id: string; parent_serial_id: string; parent_code: string } | null })[] = []
  for (const w of wanted) {
    const child = childOf(w)
    if (child.product_id !== w.component.item_key) {
      throw refuse(
        unprocessable('SERIAL_WRONG_PRODUCT', `serial ${child.code} is of product ${child.product_code}, not ${w.component.item_code}`, {
          serial_product_code: child.product_code,
          component_product_code: w.component.item_code,
        }),
        w,
      )
    }
    if (child.id === w.parent) throw refuse(unprocessable('SERIAL_LINK_CYCLE', `serial ${child.code} cannot be inside itself`), w)
    const cur = current.get(child.id)
    if (cur?.parent_serial_id === w.parent) continue
    if (cur && !w.confirm_move) {
      throw refuse(
        conflict('SERIAL_ALREADY_LINKED', `serial ${child.code} is inside ${cur.parent_code}: confirm to remove it from there`, {
          child_key: child.id,
          child_code: child.code,
          current_parent_key: cur.parent_serial_id,
          current_parent_code: cur.parent_code,
        }),
        w,
      )
    }
    adds.push({ ...w, child, moved: cur ?? null })
  }
  if (adds.length === 0) return
  const moved = adds.flatMap((a) => (a.moved ? [a.moved.id] : []))
  if (moved.length) await trx.deleteFrom('serial_links').where('id', 'in', moved).execute()
  const links = await trx
    .insertInto('serial_links')
    .values(
      adds.map((a) => ({
        parent_serial_id: a.parent,
        child_serial_id: a.child.id,
        phase_id: place.phase_id,
        bom_line_id: a.component_key,
        batch_id: place.batch_id,
        state: 'temporary' as const,
        created_by: actor.userId,
        created_at: now,
      })),
    )
    .returning(['id', 'child_serial_id'])
    .execute()
  const linkOf = new Map(links.map((l) => [l.child_serial_id, l.id]))
  // A new link closes a cycle when its parent is found below its child (through any link, old or new).
  const { rows: cycles } = await sql<{ child_serial_id: string }>`
    with recursive down(start, id) as (
      select l.child_serial_id, l.child_serial_id from serial_links l where l.id = any(${links.map((l) => l.id)}::uuid[])
      union
      select d.start, x.child_serial_id from down d join serial_links x on x.parent_serial_id = d.id
    )
    select l.child_serial_id from serial_links l
    join down d on d.start = l.child_serial_id and d.id = l.parent_serial_id
    where l.id = any(${links.map((l) => l.id)}::uuid[])
    limit 1`.execute(trx)
  if (cycles.length) {
    const a = adds.find((x) => x.child.id === cycles[0]!.child_serial_id)!
    throw refuse(unprocessable('SERIAL_LINK_CYCLE', `serial ${a.child.code} already contains ${parentCodes.get(a.parent)}: a serial cannot be inside itself`), a)
  }
  await appendEvents(
    trx,
    actor,
    adds.flatMap((a) => {
      const data = {
        link_key: linkOf.get(a.child.id)!,
        parent_key: a.parent,
        parent_code: parentCodes.get(a.parent)!,
        child_key: a.child.id,
        child_code: a.child.code,
        phase_key: place.phase_id,
        component_key: a.component_key,
        batch_key: place.batch_id,
        state: 'temporary',
        ...(a.moved ? { moved_from_key: a.moved.parent_serial_id, moved_from_code: a.moved.parent_code } : {}),
      }
      return [a.child.id, a.parent].map((subject) => ({ event_type: 'SERIAL_LINKED', subject_type: 'serial', subject_key: subject, data }))
    }),
    now,
  )
}

// ---------------------------------------------------------------------------------------------
// Traceability staff: corrections with a reason, gated by the settings (SPEC 5)
