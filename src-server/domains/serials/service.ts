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
import { checkMetadataValue, isEmptyValue } from '../../../src/domains/products/metadata'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, forbidden, isUniqueViolation, notFound, unprocessable } from '../../errors'
import { nextCounterCode } from '../counters/service'
import { appendEvent, appendEvents } from '../events/service'
import { type SubjectEvent, subjectEvents } from '../events/subject-events'
import { listSerialFields } from '../serial-fields/service'
import { readSettings } from '../settings/queries'
import { readGenealogy } from './genealogy'
import { ancestorIds, lockSerial, lockSerialLinks, selectLinkRows, selectSerialHistory, selectSerialRows } from './queries'
import { actionSignature, signRecord } from '../signatures/actions'
import { correctionSubject } from '../signatures/records'
import { recordSignatures } from '../signatures/service'

const serialNotFound = () => notFound('NOT_FOUND', 'serial not found')
const unknownSerial = (which: string) => unprocessable('UNKNOWN_SERIAL', `${which} serial not found`)
/** Deep enough for any real assembly; the cycle check walks at most this many parents. */
const MAX_CHAIN = 10_000

/** SPEC 5: a code is required, at most SERIAL_CODE_MAX characters, without control characters (NUL ...). */
export function checkedCode(code: string | undefined): string {
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
export function checkedData(data: Record<string, unknown> | undefined): string {
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
export const codeInUseOnCreate = (code: string) => conflict('SERIAL_NEW_ALREADY_PRESENT', `serial code ${code} already used: cannot create a new one`)

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
    .returning(['id', 'child_serial_id', 'parent_serial_id'])
    .execute()
  const linkOf = new Map(links.map((l) => [l.child_serial_id, l.id]))
  // The history says which: the serial's own batch, or its link into a parent (by code).
  const parentIds = [...new Set(links.map((l) => l.parent_serial_id))]
  const parentCodes = new Map(parentIds.length ? (await trx.selectFrom('serials').select(['id', 'code']).where('id', 'in', parentIds).execute()).map((r) => [r.id, r.code]) : [])
  const parentOf = new Map(links.map((l) => [l.child_serial_id, parentCodes.get(l.parent_serial_id) ?? null]))
  const batch = await trx.selectFrom('batches').select('number').where('id', '=', batchId).executeTakeFirst()
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
    subjects.map((id) => ({
      event_type: 'SERIAL_FINALIZED',
      subject_type: 'serial',
      subject_key: id,
      data: {
        batch_key: batchId,
        batch_number: batch?.number ?? null,
        link_key: linkOf.get(id) ?? null,
        into_code: parentOf.get(id) ?? null,
        own_batch: serials.some((s) => s.id === id) && !linkOf.has(id),
      },
    })),
    now,
  )
  return subjects.length
}

/**
 * `PATCH serial/{key}`: a new code (only with the serial_code_edit setting; a used code is
 * SERIAL_ALREADY_PRESENT) and/or new data, always with a reason. SERIAL_UPDATED records the
 * reason and each changed value before and after.
 */
export async function editSerial(svc: Services, actor: Actor, key: string, patch: SerialPatchInput, ip: string | null = null): Promise<SerialRow> {
  if (!isUuid(key)) throw serialNotFound()
  const reason = checkedReason(patch.reason)
  const signature = await actionSignature(svc, actor, 'serial_correction', patch.signature, ip)
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
        const next = await checkedCorrectedData(trx, old.data as Record<string, unknown>, patch.data, old.piece !== null)
        const data = checkedData(next)
        if (data !== JSON.stringify(old.data)) {
          changes.data = { from: old.data, to: next }
          set.data = data
        }
      }
      if (Object.keys(changes).length === 0) return
      await trx.updateTable('serials').set({ ...set, updated_at: now }).where('id', '=', key).execute()
      const eventId = await appendEvent(trx, actor, { event_type: 'SERIAL_UPDATED', subject_type: 'serial', subject_key: key, data: { reason, changes } }, now)
      const subject = { type: 'serial_correction', key: correctionSubject(key, eventId), event: { subject_type: 'serial', subject_key: key } } as const
      if (signature) await signRecord(trx, actor, signature, subject, now)
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
 * SERIAL_DATA_INVALID naming it. A piece declared in a batch (`declared`) keeps every mandatory
 * serial field filled, as its batch could not complete without them: a correction that leaves one
 * empty is 400 SERIAL_DATA_INVALID naming it.
 */
async function checkedCorrectedData(db: Db, old: Record<string, unknown>, data: Record<string, unknown>, declared: boolean): Promise<Record<string, unknown>> {
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
  const emptied = declared ? [...fields.values()].find((f) => f.mandatory && isEmptyValue(out[f._key])) : undefined
  if (emptied) throw badRequest('SERIAL_DATA_INVALID', `${emptied.name}: mandatory, it cannot be left empty`, { field_key: emptied._key, field: emptied.name, kind: 'required' })
  return out
}
export const codeInUseOnUpdate = (code: string) => conflict('SERIAL_ALREADY_PRESENT', `serial code ${code} already used: cannot update`)

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
      changes: { link: { from: { parent_code: link.parent_code, child_code: link.child_code, state: link.state }, to: null } },
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
  const [components, containedIn, history, signatures] = await Promise.all([
    selectLinkRows(svc.db, 'child_serial_id').where('l.parent_serial_id', '=', row._key).orderBy('o.code').execute(),
    selectLinkRows(svc.db, 'parent_serial_id').where('l.child_serial_id', '=', row._key).executeTakeFirst(),
    selectSerialHistory(svc.db, row._key).execute(),
    recordSignatures(svc.db, 'serial_correction', row._key),
  ])
  return { ...row, components, contained_in: containedIn ?? null, history, signatures }
}

/**
 * The corrections of some serials, oldest first: SERIAL_UPDATED by traceability staff (`PATCH
 * serial/{key}`, a link taken out), each with its reason and old and new values. A serial declared
 * in a batch (data `batch_key`) is production recording it, not a correction.
 */
export async function serialCorrectionEvents(db: Db, serialIds: readonly string[]): Promise<SubjectEvent[]> {
  return (await subjectEvents(db, 'serial', serialIds, ['SERIAL_UPDATED'])).filter((e) => e.data.batch_key === undefined)
}

/** `GET serial/{key}/genealogy?direction=backward|forward` (see genealogy.ts). */
export async function getGenealogy(svc: Services, key: string, direction: GenealogyDirection): Promise<Genealogy> {
  const row = isUuid(key) ? await svc.db.selectFrom('serials').select('id').where('id', '=', key).executeTakeFirst() : undefined
  if (!row) throw serialNotFound()
  return readGenealogy(svc.db, row.id, direction)
}
