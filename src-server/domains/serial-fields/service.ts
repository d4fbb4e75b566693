import type {
  SerialFieldCreateInput,
  SerialFieldDeleteResult,
  SerialFieldOrderInput,
  SerialFieldPatchInput,
  SerialFieldRow,
} from '../../../src/domains/serial-fields/schemas'
import { sql } from 'kysely'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { assertFieldsUsable } from '../form-fields/service'
import { lockSerialFields, selectSerialFieldRows } from './queries'

/**
 * Serial fields (SPEC 2 admin/general/serial-field): the form fields every serial carries, in
 * order, each mandatory or not. Rules kept here, each with its code:
 * - the form field exists (400 UNKNOWN_FIELD) and is not archived (400 FIELD_ARCHIVED);
 * - a form field is a serial field at most once (409 SERIAL_FIELD_TAKEN);
 * - a reorder lists every serial field exactly once (400 SERIAL_FIELD_ORDER_MISMATCH).
 * While a form field is a serial field the library keeps its type and archives it instead of
 * deleting it (form-fields `fieldInUse`). Removing a serial field keeps the form field, so
 * values already written under its key stay readable. Every change appends one event.
 */

const serialFieldNotFound = () => notFound('NOT_FOUND', 'serial field not found')
const taken = () => conflict('SERIAL_FIELD_TAKEN', 'the form field is already a serial field')

export function listSerialFields(svc: Pick<Services, 'db'>): Promise<SerialFieldRow[]> {
  return selectSerialFieldRows(svc.db).execute()
}

export async function getSerialField(svc: Pick<Services, 'db'>, key: string): Promise<SerialFieldRow> {
  const row = isUuid(key) ? await selectSerialFieldRows(svc.db).where('s.field_id', '=', key).executeTakeFirst() : undefined
  if (!row) throw serialFieldNotFound()
  return row
}

/** `POST serial-field`: the form field joins the end of the list. */
export async function createSerialField(svc: Services, actor: Actor, input: SerialFieldCreateInput): Promise<SerialFieldRow> {
  const now = svc.clock.now()
  const mandatory = input.mandatory ?? false
  try {
    await svc.db.transaction().execute(async (trx) => {
      await lockSerialFields(trx)
      await assertFieldsUsable(trx, [input.field_key])
      const existing = await trx.selectFrom('serial_fields').select('field_id').where('field_id', '=', input.field_key).executeTakeFirst()
      if (existing) throw taken()
      const { count } = await trx.selectFrom('serial_fields').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
      await trx
        .insertInto('serial_fields')
        .values({ field_id: input.field_key, mandatory, position: Number(count) + 1, created_at: now, updated_at: now })
        .execute()
      await appendEvent(trx, actor, { event_type: 'SERIAL_FIELD_CREATED', subject_type: 'serial_field', subject_key: input.field_key, data: { mandatory } }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw taken()
    throw e
  }
  return getSerialField(svc, input.field_key)
}

/** `PATCH serial-field/{key}`: the mandatory flag. */
export async function patchSerialField(svc: Services, actor: Actor, key: string, patch: SerialFieldPatchInput): Promise<SerialFieldRow> {
  if (!isUuid(key)) throw serialFieldNotFound()
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('serial_fields').select('mandatory').where('field_id', '=', key).forUpdate().executeTakeFirst()
    if (!old) throw serialFieldNotFound()
    if (patch.mandatory === undefined || patch.mandatory === old.mandatory) return
    await trx.updateTable('serial_fields').set({ mandatory: patch.mandatory, updated_at: now }).where('field_id', '=', key).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'SERIAL_FIELD_UPDATED', subject_type: 'serial_field', subject_key: key, data: editData(changesOf(old, { mandatory: patch.mandatory })) },
      now,
    )
  })
  return getSerialField(svc, key)
}

/** `PUT serial-field/order`: every serial field, in the new order. */
export async function reorderSerialFields(svc: Services, actor: Actor, input: SerialFieldOrderInput): Promise<SerialFieldRow[]> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSerialFields(trx)
    const current = await trx.selectFrom('serial_fields').select(['field_id', 'position']).orderBy('position').execute()
    const known = new Set(current.map((r) => r.field_id))
    const listed = new Set(input.field_keys)
    if (listed.size !== input.field_keys.length || listed.size !== known.size || [...listed].some((k) => !known.has(k))) {
      throw badRequest('SERIAL_FIELD_ORDER_MISMATCH', 'the order must list every serial field exactly once', {
        missing: [...known].filter((k) => !listed.has(k)),
        unknown: [...listed].filter((k) => !known.has(k)),
      })
    }
    if (current.every((r, i) => r.field_id === input.field_keys[i])) return
    await sql`update serial_fields set position = o.n, updated_at = ${now}
      from unnest(${input.field_keys}::uuid[]) with ordinality as o(id, n)
      where serial_fields.field_id = o.id`.execute(trx)
    await appendEvent(trx, actor, { event_type: 'SERIAL_FIELDS_REORDERED', subject_type: 'serial_field', subject_key: 'order', data: { field_keys: input.field_keys, changes: { order: { from: current.map((r) => r.field_id), to: input.field_keys } } } }, now)
  })
  return listSerialFields(svc)
}

/** `DELETE serial-field/{key}`: serials stop carrying the field; the form field stays in the library. */
export async function deleteSerialField(svc: Services, actor: Actor, key: string): Promise<SerialFieldDeleteResult> {
  if (!isUuid(key)) throw serialFieldNotFound()
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSerialFields(trx)
    const old = await trx.selectFrom('serial_fields').select('position').where('field_id', '=', key).executeTakeFirst()
    if (!old) throw serialFieldNotFound()
    await trx.deleteFrom('serial_fields').where('field_id', '=', key).execute()
    await trx
      .updateTable('serial_fields')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('position', '>', old.position)
      .execute()
    await appendEvent(trx, actor, { event_type: 'SERIAL_FIELD_DELETED', subject_type: 'serial_field', subject_key: key }, now)
  })
  return { _key: key, deleted: true }
}
