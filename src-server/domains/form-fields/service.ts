import { sql } from 'kysely'
import {
  type FieldCreateInput,
  type FieldDeleteResult,
  type FieldListInput,
  type FieldPatchInput,
  type FieldRow,
  type FieldType,
  SINGLE_VALUE_TYPES,
} from '../../../src/domains/form-fields/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { containsPattern } from '../../db/like'
import { isSerialField, operationsUsingField, productsUsingFieldInMetadata, productsUsingFieldInSteps, selectFieldRows } from './queries'
import { invalidField } from '../../input-issues'

type Definition = { name: string; type: FieldType; options: string[]; multiple: boolean; mandatory: boolean; help_text: string }

const fieldNotFound = () => notFound('NOT_FOUND', 'form field not found')
const nameTaken = () => conflict('FIELD_NAME_TAKEN', 'form field name already in use')

/** The rules of a field definition, with their codes; options only mean something for choice fields. */
function checkedDefinition(d: Definition): Definition {
  const name = d.name.trim()
  if (!name) throw badRequest('FIELD_NAME_REQUIRED', 'form field name required')
  let options: string[] = []
  if (d.type === 'choice') {
    options = d.options.map((o) => o.trim())
    if (options.some((o) => o === '')) throw invalidField({ path: 'options', kind: 'empty_item', message: 'may not be empty' })
    if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) throw invalidField({ path: 'options', kind: 'duplicate', message: 'must all be different' })
    if (options.length === 0) throw badRequest('FIELD_OPTIONS_REQUIRED', 'a choice field needs at least one option')
  }
  if (d.multiple && SINGLE_VALUE_TYPES.includes(d.type)) {
    throw invalidField({ path: 'multiple', kind: 'not_allowed', message: `${d.type} fields take a single value: multiple values are not available` })
  }
  return { ...d, name, options, help_text: d.help_text.trim() }
}

async function assertNameFree(db: Db, name: string, exceptId?: string) {
  let q = db.selectFrom('form_fields').select('id').where(sql<string>`lower(name)`, '=', name.toLowerCase())
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw nameTaken()
}

export async function listFields(svc: Services, opts: FieldListInput = {}): Promise<FieldRow[]> {
  let q = selectFieldRows(svc.db)
  if (opts.active_only) q = q.where('f.archived_at', 'is', null)
  if (opts.archived_only) q = q.where('f.archived_at', 'is not', null)
  if (opts.search?.trim()) {
    const p = containsPattern(opts.search)
    q = q.where((eb) => eb.or([eb('f.name', 'ilike', p), eb('f.help_text', 'ilike', p)]))
  }
  const dir = opts.desc ? 'desc' : 'asc'
  if (opts.sort === 'type') q = q.orderBy('f.type', dir)
  else if (opts.sort === 'updated_at') q = q.orderBy('f.updated_at', dir)
  return q.orderBy(sql`lower(f.name)`, opts.sort === 'name' || !opts.sort ? dir : 'asc').orderBy('f.id').execute()
}

export async function getField(svc: Services, key: string): Promise<FieldRow> {
  const row = isUuid(key) ? await selectFieldRows(svc.db).where('f.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw fieldNotFound()
  return row
}

export async function createField(svc: Services, actor: Actor, input: FieldCreateInput): Promise<FieldRow> {
  const d = checkedDefinition({
    name: input.name,
    type: input.type,
    options: input.options ?? [],
    multiple: input.multiple ?? false,
    mandatory: input.mandatory ?? false,
    help_text: input.help_text ?? '',
  })
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, d.name)
      const { id } = await trx
        .insertInto('form_fields')
        .values({ ...d, options: JSON.stringify(d.options), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'FORM_FIELD_CREATED', subject_type: 'form_field', subject_key: id, data: { name: d.name, type: d.type } }, now)
      return id
    })
    return getField(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
}

/**
 * `PATCH field/{key}`: any part of the definition, and `active` to archive or restore.
 * A field in use keeps its type (409 FIELD_IN_USE naming the operations that use it).
 */
export async function patchField(svc: Services, actor: Actor, key: string, patch: FieldPatchInput): Promise<FieldRow> {
  if (!isUuid(key)) throw fieldNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('form_fields').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw fieldNotFound()
      const before: Definition = {
        name: old.name,
        type: old.type as FieldType,
        options: old.options,
        multiple: old.multiple,
        mandatory: old.mandatory,
        help_text: old.help_text,
      }
      const after = checkedDefinition({
        name: patch.name ?? before.name,
        type: patch.type ?? before.type,
        options: patch.options ?? before.options,
        multiple: patch.multiple ?? before.multiple,
        mandatory: patch.mandatory ?? before.mandatory,
        help_text: patch.help_text ?? before.help_text,
      })
      const changed = (Object.keys(after) as (keyof Definition)[]).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]))
      const wasActive = old.archived_at === null
      const activeChanged = patch.active !== undefined && patch.active !== wasActive
      if (changed.length === 0 && !activeChanged) return
      if (changed.includes('type')) {
        const operations = await operationsUsingField(trx, key)
        const products = await productsUsingFieldInSteps(trx, key)
        const described = await productsUsingFieldInMetadata(trx, key)
        const serial = await isSerialField(trx, key)
        if (operations.length || products.length || described.length || serial) {
          const users = [
            operations.length ? `operations: ${operations.join(', ')}` : '',
            products.length ? `product processes: ${products.join(', ')}` : '',
            described.length ? `product metadata: ${described.join(', ')}` : '',
            serial ? 'serial fields' : '',
          ]
          throw conflict('FIELD_IN_USE', `the field is in use, its type cannot change (${users.filter(Boolean).join('; ')})`, {
            operations,
            ...(products.length ? { products } : {}),
            ...(described.length ? { metadata_products: described } : {}),
            ...(serial ? { serial_field: true } : {}),
          })
        }
      }
      if (changed.includes('name')) await assertNameFree(trx, after.name, key)
      await trx
        .updateTable('form_fields')
        .set({
          ...after,
          options: JSON.stringify(after.options),
          updated_at: now,
          ...(activeChanged ? { archived_at: patch.active ? null : now } : {}),
        })
        .where('id', '=', key)
        .execute()
      if (changed.length) {
        await appendEvent(trx, actor, { event_type: 'FORM_FIELD_UPDATED', subject_type: 'form_field', subject_key: key, data: editData(changesOf(before, after, changed)) }, now)
      }
      if (activeChanged) {
        const event_type = patch.active ? 'FORM_FIELD_RESTORED' : 'FORM_FIELD_ARCHIVED'
        await appendEvent(trx, actor, { event_type, subject_type: 'form_field', subject_key: key, data: { name: after.name } }, now)
      }
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
  return getField(svc, key)
}

/** `DELETE field/{key}`: an unused field goes away; a field in use is archived instead (its data stays readable). */
export async function deleteField(svc: Services, actor: Actor, key: string): Promise<FieldDeleteResult> {
  if (!isUuid(key)) throw fieldNotFound()
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('form_fields').select(['name', 'archived_at']).where('id', '=', key).forUpdate().executeTakeFirst()
    if (!old) throw fieldNotFound()
    const operations = await operationsUsingField(trx, key)
    const products = await productsUsingFieldInSteps(trx, key)
    const described = await productsUsingFieldInMetadata(trx, key)
    const serial = await isSerialField(trx, key)
    if (operations.length === 0 && products.length === 0 && described.length === 0 && !serial) {
      await trx.deleteFrom('form_fields').where('id', '=', key).execute()
      await appendEvent(trx, actor, { event_type: 'FORM_FIELD_DELETED', subject_type: 'form_field', subject_key: key, data: { name: old.name } }, now)
      return { _key: key, deleted: true, archived: false }
    }
    if (old.archived_at === null) {
      await trx.updateTable('form_fields').set({ archived_at: now, updated_at: now }).where('id', '=', key).execute()
      await appendEvent(trx, actor, { event_type: 'FORM_FIELD_ARCHIVED', subject_type: 'form_field', subject_key: key, data: { name: old.name, operations, products, metadata_products: described, serial_field: serial } }, now)
    }
    return { _key: key, deleted: false, archived: true }
  })
}

/**
 * Steps may refer only to fields that exist; archived fields only where they were already used
 * (`allowArchived`). The rows are share-locked so a concurrent delete waits and then sees the use.
 */
export async function assertFieldsUsable(db: Db, keys: readonly string[], allowArchived: ReadonlySet<string> = new Set()): Promise<void> {
  if (keys.length === 0) return
  const rows = await db.selectFrom('form_fields').select(['id', 'name', 'archived_at']).where('id', 'in', keys).forShare().execute()
  const byId = new Map(rows.map((r) => [r.id, r]))
  const missing = keys.filter((k) => !byId.has(k))
  if (missing.length) throw badRequest('UNKNOWN_FIELD', `unknown form field: ${missing.join(', ')}`, { fields: missing })
  const archived = rows.filter((r) => r.archived_at !== null && !allowArchived.has(r.id))
  if (archived.length) {
    throw badRequest('FIELD_ARCHIVED', `archived form field: ${archived.map((r) => r.name).join(', ')}`, { fields: archived.map((r) => r.id) })
  }
}
