import { type SelectQueryBuilder, sql } from 'kysely'
import {
  type Genealogy,
  type GenealogyDirection,
  SERIAL_CODE_MAX,
  SERIAL_DATA_MAX_CHARS,
  SERIAL_LIST_LIMIT,
  SERIAL_TOTAL_CAP,
  type SerialDetail,
  type SerialList,
  type SerialListInput,
  type SerialPatchInput,
  type SerialRow,
} from '../../../src/domains/serials/schemas'
import { batchConsumption } from '../../../src/domains/execution/rules'
import type { TraceabilityLevel } from '../../../src/domains/products/bom'
import { checkMetadataValue, isEmptyValue, type MetadataField } from '../../../src/domains/products/metadata'
import { type BatchPiece, type BatchSerialComponent, type BatchSerials, componentSlots, type PieceLinkInput, type PieceSerialsInput } from '../../../src/domains/serials/batch-serials'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound, unprocessable } from '../../errors'
import { nextCounterCode } from '../counters/service'
import { appendEvent, appendEvents } from '../events/service'
import { listSerialFields } from '../serial-fields/service'
import { assertComponentSerialsInStock } from '../production-stock/service'
import { readSettings } from '../settings/queries'
import { readGenealogy } from './genealogy'
import { ancestorIds, lockSerial, lockSerialLinks, selectLinkRows, selectSerialHistory, selectSerialRows } from './queries'

const serialNotFound = () => notFound('NOT_FOUND', 'serial not found')
const unknownSerial = (which: string) => unprocessable('UNKNOWN_SERIAL', `${which} serial not found`)
/** Deep enough for any real assembly; the cycle check walks at most this many parents. */
const MAX_CHAIN = 10_000

/** SPEC 5: a code is required, at most SERIAL_CODE_MAX characters, without control characters (NUL ...). */
function checkedCode(code: string | undefined): string {
  const trimmed = (code ?? '').trim()
  if (!trimmed) throw badRequest('SERIAL_CODE_REQUIRED', 'serial code required')
  if (trimmed.length > SERIAL_CODE_MAX) {
    throw badRequest('SERIAL_CODE_INVALID', `a serial code may have at most ${SERIAL_CODE_MAX} characters (this one has ${trimmed.length})`)
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(trimmed) || !trimmed.isWellFormed()) {
    throw badRequest('SERIAL_CODE_INVALID', 'a serial code cannot contain control characters (NUL, tab, new line ...) or broken Unicode')
  }
  return trimmed
}

/** Serial data is stored as jsonb: bounded in size, and without NUL (PostgreSQL refuses \u0000 in jsonb). */
function checkedData(data: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(data ?? {})
  if (text.length > SERIAL_DATA_MAX_CHARS) {
    throw badRequest('SERIAL_DATA_INVALID', `serial data may have at most ${SERIAL_DATA_MAX_CHARS} characters as JSON`)
  }
  if (text.includes('\\u0000') || !text.isWellFormed()) {
    throw badRequest('SERIAL_DATA_INVALID', 'serial data contains characters that cannot be stored (NUL or broken Unicode)')
  }
  return text
}

function checkedReason(reason: string | undefined): string {
  const trimmed = (reason ?? '').trim()
  if (!trimmed) throw badRequest('SERIAL_REASON_REQUIRED', 'a serial change needs a reason')
  return trimmed
}

// ---------------------------------------------------------------------------------------------
// Writes called by execution inside the batch's transaction (and by tests directly)

export type NewSerial = {
  /** The code typed or scanned; without it the counter numbers the serial. */
  code?: string
  /** The counter of the phase that makes the serial (product_phases.counter_id). */
  counter_id?: string | null
  product_id: string
  work_order_id?: string | null
  job_id?: string | null
  batch_id?: string | null
  phase_id?: string | null
  operator_id?: string | null
  data?: Record<string, unknown>
  /** Declared in an open batch: final at BATCH_COMPLETED (finalizeBatchSerials). */
  temporary?: boolean
  /** The piece of its batch (1..qt_total) this serial numbers. */
  piece?: number | null
}

/**
 * Creates one serial in the caller's transaction, its code typed or, when none is typed, the next
 * code of the counter (COUNTER_NOT_DEFINED without one: the serial must be entered by hand). A used
 * code is refused with SERIAL_NEW_ALREADY_PRESENT (SPEC 8). Appends SERIAL_CREATED. Returns its key.
 */
export async function createSerial(trx: Db, actor: Actor | null, input: NewSerial, now: Date): Promise<string> {
  const code = checkedCode(input.code ?? (await counterCode(trx, input.counter_id, now)))
  const data = checkedData(input.data)
  if (!isUuid(input.product_id) || !(await trx.selectFrom('products').select('id').where('id', '=', input.product_id).executeTakeFirst())) {
    throw unprocessable('UNKNOWN_PRODUCT', 'product not found')
  }
  if (await trx.selectFrom('serials').select('id').where('code', '=', code).executeTakeFirst()) throw codeInUseOnCreate(code)
  const state = input.temporary ? 'temporary' : 'final'
  let id: string
  try {
    ;({ id } = await trx
      .insertInto('serials')
      .values({
        code,
        product_id: input.product_id,
        work_order_id: input.work_order_id ?? null,
        job_id: input.job_id ?? null,
        batch_id: input.batch_id ?? null,
        phase_id: input.phase_id ?? null,
        operator_id: input.operator_id ?? actor?.userId ?? null,
        data,
        state,
        piece: input.piece ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow())
  } catch (e) {
    if (isUniqueViolation(e)) throw codeInUseOnCreate(code)
    throw e
  }
  await appendEvent(
    trx,
    actor,
    { event_type: 'SERIAL_CREATED', subject_type: 'serial', subject_key: id, data: { code, product_key: input.product_id, batch_key: input.batch_id ?? null, state } },
    now,
  )
  return id
}
async function counterCode(trx: Db, counterId: string | null | undefined, now: Date): Promise<string> {
  if (!counterId) throw unprocessable('COUNTER_NOT_DEFINED', 'no counter numbers these serials: enter the serial code by hand')
  return (await nextCounterCode(trx, counterId, now)).code
}
const codeInUseOnCreate = (code: string) => conflict('SERIAL_NEW_ALREADY_PRESENT', `serial code ${code} already used: cannot create a new one`)

export type NewSerialLink = {
  parent_id: string
  child_id: string
  phase_id?: string | null
  /** The bom line the child serial is a component of: the child must be that line's item. */
  bom_line_id?: string | null
  batch_id?: string | null
  temporary?: boolean
  /** The child is inside another serial: move it (SPEC 5 asks the person to confirm first). */
  confirm_move?: boolean
}

/**
 * Puts `child` inside `parent` (SPEC 5): a child already inside another serial is refused with
 * SERIAL_ALREADY_LINKED (naming that parent) unless `confirm_move`; a component serial of another
 * product is refused (SERIAL_WRONG_PRODUCT); a link that would put a serial inside itself,
 * directly or through any number of levels, is refused (SERIAL_LINK_CYCLE). Link writes are
 * serialised by a lock so that two concurrent links cannot close a cycle. Appends SERIAL_LINKED
 * to both serials. The same link twice is a no-op.
 */
export async function linkSerials(trx: Db, actor: Actor | null, input: NewSerialLink, now: Date): Promise<{ link_key: string; moved_from: string | null }> {
  await lockSerialLinks(trx)
  const load = async (id: string, which: string) => {
    const row = isUuid(id) ? await trx.selectFrom('serials').select(['id', 'code', 'product_id']).where('id', '=', id).executeTakeFirst() : undefined
    if (!row) throw unknownSerial(which)
    return row
  }
  const parent = await load(input.parent_id, 'parent')
  const child = await load(input.child_id, 'child')
  if (parent.id === child.id) throw unprocessable('SERIAL_LINK_CYCLE', `serial ${parent.code} cannot be inside itself`)
  if (input.bom_line_id) {
    const line = isUuid(input.bom_line_id)
      ? await trx.selectFrom('bom_lines').select(['product_id', 'item_id']).where('id', '=', input.bom_line_id).executeTakeFirst()
      : undefined
    if (!line) throw unprocessable('NOT_FOUND', 'component (bom line) not found')
    if (line.item_id !== child.product_id) {
      throw unprocessable('SERIAL_WRONG_PRODUCT', `serial ${child.code} is of another product than this component`)
    }
    if (line.product_id !== parent.product_id) {
      throw unprocessable('SERIAL_WRONG_PRODUCT', `serial ${parent.code} is of another product than the one this component belongs to`)
    }
  }
  const above = await ancestorIds(trx, parent.id, MAX_CHAIN)
  if (above.includes(child.id)) {
    throw unprocessable('SERIAL_LINK_CYCLE', `serial ${child.code} already contains ${parent.code} (${above.indexOf(child.id) + 1} levels up): a serial cannot be inside itself`)
  }
  const current = await trx
    .selectFrom('serial_links as l')
    .innerJoin('serials as p', 'p.id', 'l.parent_serial_id')
    .select(['l.id', 'l.parent_serial_id', 'p.code as parent_code'])
    .where('l.child_serial_id', '=', child.id)
    .executeTakeFirst()
  if (current?.parent_serial_id === parent.id) return { link_key: current.id, moved_from: null }
  if (current && !input.confirm_move) {
    throw conflict('SERIAL_ALREADY_LINKED', `serial ${child.code} is inside ${current.parent_code}: confirm to remove it from there`, {
      child_key: child.id,
      child_code: child.code,
      current_parent_key: current.parent_serial_id,
      current_parent_code: current.parent_code,
    })
  }
  if (current) await trx.deleteFrom('serial_links').where('id', '=', current.id).execute()
  const state = input.temporary ? 'temporary' : 'final'
  const { id } = await trx
    .insertInto('serial_links')
    .values({
      parent_serial_id: parent.id,
      child_serial_id: child.id,
      phase_id: input.phase_id ?? null,
      bom_line_id: input.bom_line_id ?? null,
      batch_id: input.batch_id ?? null,
      state,
      created_by: actor?.userId ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const data = {
    link_key: id,
    parent_key: parent.id,
    parent_code: parent.code,
    child_key: child.id,
    child_code: child.code,
    phase_key: input.phase_id ?? null,
    component_key: input.bom_line_id ?? null,
    batch_key: input.batch_id ?? null,
    state,
    ...(current ? { moved_from_key: current.parent_serial_id, moved_from_code: current.parent_code } : {}),
  }
  for (const subject of [child.id, parent.id]) {
    await appendEvent(trx, actor, { event_type: 'SERIAL_LINKED', subject_type: 'serial', subject_key: subject, data }, now)
  }
  return { link_key: id, moved_from: current?.parent_serial_id ?? null }
}

/**
 * At BATCH_COMPLETED (execution calls it in the batch's transaction): the batch's temporary
 * serials and links become final, and so do the component serials registered when they were
 * scanned into it; one SERIAL_FINALIZED per serial made, registered or linked in the batch,
 * appended in one statement.
 */
export async function finalizeBatchSerials(trx: Db, actor: Actor | null, batchId: string, now: Date): Promise<number> {
  const links = await trx
    .updateTable('serial_links')
    .set({ state: 'final' })
    .where('batch_id', '=', batchId)
    .where('state', '=', 'temporary')
    .returning(['id', 'child_serial_id'])
    .execute()
  const linkOf = new Map(links.map((l) => [l.child_serial_id, l.id]))
  const serials = await trx
    .updateTable('serials')
    .set({ state: 'final', updated_at: now })
    .where('state', '=', 'temporary')
    .where((eb) => eb.or([eb('batch_id', '=', batchId), ...(linkOf.size ? [eb('id', 'in', [...linkOf.keys()])] : [])]))
    .returning('id')
    .execute()
  const subjects = [...new Set([...serials.map((s) => s.id), ...linkOf.keys()])]
  await appendEvents(
    trx,
    actor,
    subjects.map((id) => ({ event_type: 'SERIAL_FINALIZED', subject_type: 'serial', subject_key: id, data: { batch_key: batchId, link_key: linkOf.get(id) ?? null } })),
    now,
  )
  return subjects.length
}

// ---------------------------------------------------------------------------------------------
// Serials declared in an open batch (execution calls these with the job and batch rows locked)

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
  throw unprocessable('SERIALS_NOT_DECLARED', `declare the serials of every piece first: piece ${shown}`, { pieces: missing })
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
      const id = await createSerial(
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
      )
      parents.set(p.piece, id)
      continue
    }
    const parentId = serial.id
    parents.set(p.piece, parentId)
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    const set: { code?: string; data?: string } = {}
    if (p.code && p.code !== serial.code) {
      if (serial.state !== 'temporary') throw conflict('SERIAL_ALREADY_PRESENT', `serial ${serial.code} is final: traceability staff correct it`)
      if (await trx.selectFrom('serials').select('id').where('code', '=', p.code).executeTakeFirst()) throw codeInUseOnUpdate(p.code)
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
    new AppError(e.status, e.appCode, `piece ${w.piece}: ${e.message}`, { ...e.extra, piece: w.piece, component_key: w.component_key, code: w.child_serial_code })
  const serials = new Map(
    (await trx.selectFrom('serials').select(['id', 'code', 'product_id']).where('code', 'in', wanted.map((w) => w.child_serial_code)).execute()).map((r) => [r.code, r]),
  )
  const unknown = wanted.filter((w) => !serials.has(w.child_serial_code))
  if (unknown.length) {
    let rows: { id: string; code: string; product_id: string }[]
    try {
      rows = await trx
        .insertInto('serials')
        .values(
          unknown.map((w) => ({ code: w.child_serial_code, product_id: w.component.item_key, operator_id: actor.userId, data: '{}', state: 'temporary' as const, created_at: now, updated_at: now })),
        )
        .returning(['id', 'code', 'product_id'])
        .execute()
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
      throw refuse(unprocessable('SERIAL_WRONG_PRODUCT', `serial ${child.code} is of another product than this component`), w)
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

/**
 * `PATCH serial/{key}`: a new code (only with the serial_code_edit setting; a used code is
 * SERIAL_ALREADY_PRESENT) and/or new data, always with a reason. SERIAL_UPDATED records the
 * reason and each changed value before and after.
 */
export async function editSerial(svc: Services, actor: Actor, key: string, patch: SerialPatchInput): Promise<SerialRow> {
  if (!isUuid(key)) throw serialNotFound()
  const reason = checkedReason(patch.reason)
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await lockSerial(trx, key)
      if (!old) throw serialNotFound()
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      const set: { code?: string; data?: string } = {}
      if (patch.code !== undefined) {
        const code = checkedCode(patch.code)
        if (code !== old.code) {
          const settings = await readSettings(trx)
          if (!settings.serial_code_edit) throw forbidden('SERIAL_CODE_EDIT_DISABLED', 'editing serial codes is turned off in the settings')
          if (await trx.selectFrom('serials').select('id').where('code', '=', code).where('id', '!=', key).executeTakeFirst()) {
            throw codeInUseOnUpdate(code)
          }
          changes.code = { from: old.code, to: code }
          set.code = code
        }
      }
      if (patch.data !== undefined) {
        const next = await checkedCorrectedData(trx, old.data as Record<string, unknown>, patch.data)
        const data = checkedData(next)
        if (data !== JSON.stringify(old.data)) {
          changes.data = { from: old.data, to: next }
          set.data = data
        }
      }
      if (Object.keys(changes).length === 0) return
      await trx.updateTable('serials').set({ ...set, updated_at: now }).where('id', '=', key).execute()
      await appendEvent(trx, actor, { event_type: 'SERIAL_UPDATED', subject_type: 'serial', subject_key: key, data: { reason, changes } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw codeInUseOnUpdate(patch.code ?? '')
    throw e
  }
  return getSerialRow(svc.db, key)
}
/**
 * Corrected serial data: a key must be a serial field (active; its value checked and stored by the
 * field's type, an empty value removes it) or a key the serial already carries (kept editable as
 * it is: data written before the field list changed, or by a script). Any other key is 400
 * SERIAL_DATA_INVALID naming it. Mandatory serial fields are not enforced here: old serials may
 * lack them, and staff correct one value at a time.
 */
async function checkedCorrectedData(db: Db, old: Record<string, unknown>, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fields = new Map((await listSerialFields({ db })).filter((f) => f.field_active).map((f) => [f._key, f]))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    const field = fields.get(key)
    if (field) {
      const ok = checkMetadataValue({ ...field, mandatory: false }, value)
      if (!ok.ok) throw badRequest('SERIAL_DATA_INVALID', `${field.name}: ${ok.problem}`, { field_key: key })
      if (!isEmptyValue(ok.value)) out[key] = ok.value
    } else if (Object.hasOwn(old, key)) out[key] = value
    else throw badRequest('SERIAL_DATA_INVALID', `not a serial field: ${key} (add it in the serial fields first)`, { field_key: key })
  }
  return out
}
const codeInUseOnUpdate = (code: string) => conflict('SERIAL_ALREADY_PRESENT', `serial code ${code} already used: cannot update`)

/**
 * `DELETE serial-link/{key}`: takes a serial out of the one it is inside, only with the
 * serial_delete setting and with a reason; SERIAL_UPDATED on both serials records it.
 */
export async function unlinkSerial(svc: Services, actor: Actor, linkKey: string, reasonText: string): Promise<{ _key: string }> {
  if (!isUuid(linkKey)) throw notFound('NOT_FOUND', 'serial link not found')
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const settings = await readSettings(trx)
    if (!settings.serial_delete) throw forbidden('SERIAL_DELETE_DISABLED', 'removing serial links is turned off in the settings')
    const reason = checkedReason(reasonText)
    await lockSerialLinks(trx)
    const link = await trx
      .selectFrom('serial_links as l')
      .innerJoin('serials as p', 'p.id', 'l.parent_serial_id')
      .innerJoin('serials as c', 'c.id', 'l.child_serial_id')
      .select(['l.id', 'l.parent_serial_id', 'l.child_serial_id', 'p.code as parent_code', 'c.code as child_code', 'l.state'])
      .where('l.id', '=', linkKey)
      .executeTakeFirst()
    if (!link) throw notFound('NOT_FOUND', 'serial link not found')
    await trx.deleteFrom('serial_links').where('id', '=', link.id).execute()
    const data = {
      reason,
      unlinked: { link_key: link.id, parent_key: link.parent_serial_id, parent_code: link.parent_code, child_key: link.child_serial_id, child_code: link.child_code, state: link.state },
    }
    for (const subject of [link.child_serial_id, link.parent_serial_id]) {
      await appendEvent(trx, actor, { event_type: 'SERIAL_UPDATED', subject_type: 'serial', subject_key: subject, data }, now)
    }
  })
  return { _key: linkKey }
}

// ---------------------------------------------------------------------------------------------
// Reads

async function getSerialRow(db: Db, id: string): Promise<SerialRow> {
  const row = isUuid(id) ? await selectSerialRows(db).where('s.id', '=', id).executeTakeFirst() : undefined
  if (!row) throw serialNotFound()
  return row
}

/**
 * `GET serial` with params: serials whose code starts with `search` (any case; at least the
 * settings' autocomplete_min_chars_serials characters) or equals `code`, filtered by product,
 * work order, phase, state and creation days; the first SERIAL_LIST_LIMIT (by code when
 * searching, newest first otherwise) and the total, counted up to SERIAL_TOTAL_CAP.
 */
export async function listSerials(svc: Services, input: SerialListInput): Promise<SerialList> {
  const search = input.search?.trim() ?? ''
  if (search) {
    const min = (await readSettings(svc.db)).autocomplete_min_chars_serials
    if (search.length < min) throw badRequest('SERIAL_SEARCH_TOO_SHORT', `type at least ${min} characters to search serials`, { min })
  }
  // Only columns of `serials as s`: the same filters for the page and for the count.
  // biome-ignore lint/suspicious/noExplicitAny: one filter list for two differently shaped queries
  const filtered = <Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q => {
    let f = q
    if (search) f = f.where(sql<string>`lower(s.code)`, 'like', `${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as Q
    if (input.code !== undefined) f = f.where('s.code', '=', input.code) as Q
    if (input.product_key) f = f.where('s.product_id', '=', input.product_key) as Q
    if (input.work_order_key) f = f.where('s.work_order_id', '=', input.work_order_key) as Q
    if (input.phase_key) f = f.where('s.phase_id', '=', input.phase_key) as Q
    if (input.state) f = f.where('s.state', '=', input.state) as Q
    if (input.from) f = f.where('s.created_at', '>=', sql<Date>`${input.from.replaceAll('/', '-')}::date`) as Q
    if (input.to) f = f.where('s.created_at', '<', sql<Date>`${input.to.replaceAll('/', '-')}::date + 1`) as Q
    return f
  }
  const page = filtered(selectSerialRows(svc.db))
  const ordered = search ? page.orderBy(sql`lower(s.code)`).orderBy('s.id') : page.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc')
  const capped = filtered(svc.db.selectFrom('serials as s').select('s.id')).limit(SERIAL_TOTAL_CAP + 1)
  const [rows, count] = await Promise.all([
    ordered.limit(SERIAL_LIST_LIMIT).execute(),
    svc.db.selectFrom(capped.as('m')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  const n = Number(count.n)
  return { rows, total: Math.min(n, SERIAL_TOTAL_CAP), total_capped: n > SERIAL_TOTAL_CAP }
}

/** `GET serial/{key}`: the serial, its components, what it is inside and its history. */
export async function getSerial(svc: Services, key: string): Promise<SerialDetail> {
  const row = await getSerialRow(svc.db, key)
  const [components, containedIn, history] = await Promise.all([
    selectLinkRows(svc.db, 'child_serial_id').where('l.parent_serial_id', '=', row._key).orderBy('o.code').execute(),
    selectLinkRows(svc.db, 'parent_serial_id').where('l.child_serial_id', '=', row._key).executeTakeFirst(),
    selectSerialHistory(svc.db, row._key).execute(),
  ])
  return { ...row, components, contained_in: containedIn ?? null, history }
}

/** `GET serial/{key}/genealogy?direction=backward|forward` (see genealogy.ts). */
export async function getGenealogy(svc: Services, key: string, direction: GenealogyDirection): Promise<Genealogy> {
  const row = isUuid(key) ? await svc.db.selectFrom('serials').select('id').where('id', '=', key).executeTakeFirst() : undefined
  if (!row) throw serialNotFound()
  return readGenealogy(svc.db, row.id, direction)
}
