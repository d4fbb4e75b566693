import { type Expression, sql } from 'kysely'
import type { FieldRow } from '../../../src/domains/form-fields/schemas'
import type { Db } from '../../db/connect'

/**
 * "The field is referenced": by an operation's default steps, product steps, product metadata
 * or the serial fields, so every in-use rule (type change, delete) follows.
 */
export function fieldInUse(fieldId: Expression<string>) {
  return sql<boolean>`(exists (
    select 1 from operations o
    where o.default_phase_steps @> jsonb_build_array(jsonb_build_object('fields', jsonb_build_array(${fieldId}::text)))
  ) or exists (
    select 1 from product_phases pp
    where pp.steps @> jsonb_build_array(jsonb_build_object('fields', jsonb_build_array(${fieldId}::text)))
  ) or exists (
    select 1 from products pm
    where pm.metadata @> jsonb_build_array(jsonb_build_object('custom_field_key', ${fieldId}::text))
  ) or exists (
    select 1 from serial_fields sf where sf.field_id = ${fieldId}::uuid
  ))`
}

/** Codes of the products whose custom metadata uses the field (index products_metadata). */
export async function productsUsingFieldInMetadata(db: Db, fieldId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('products')
    .select('code')
    .where(sql<boolean>`metadata @> jsonb_build_array(jsonb_build_object('custom_field_key', ${fieldId}::text))`)
    .orderBy('code')
    .limit(50)
    .execute()
  return rows.map((r) => r.code)
}

/** Codes of the products whose process steps use the field, for messages. */
export async function productsUsingFieldInSteps(db: Db, fieldId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('products')
    .select('code')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_phases as pp')
          .select(sql`1`.as('one'))
          .whereRef('pp.product_id', '=', 'products.id')
          .where(sql<boolean>`pp.steps @> jsonb_build_array(jsonb_build_object('fields', jsonb_build_array(${fieldId}::text)))`),
      ),
    )
    .orderBy('code')
    .limit(50)
    .execute()
  return rows.map((r) => r.code)
}

/** Whether serials carry the field (admin/general/serial-field). */
export async function isSerialField(db: Db, fieldId: string): Promise<boolean> {
  return Boolean(await db.selectFrom('serial_fields').select('field_id').where('field_id', '=', fieldId).executeTakeFirst())
}

/** Names of the operations whose default steps use the field, for messages. */
export async function operationsUsingField(db: Db, fieldId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('operations')
    .select('name')
    .where(sql<boolean>`default_phase_steps @> jsonb_build_array(jsonb_build_object('fields', jsonb_build_array(${fieldId}::text)))`)
    .orderBy('name')
    .limit(50)
    .execute()
  return rows.map((r) => r.name)
}

export function selectFieldRows(db: Db) {
  return db
    .selectFrom('form_fields as f')
    .select((eb) => [
      'f.id as _key',
      'f.name',
      'f.type',
      'f.options',
      'f.multiple',
      'f.mandatory',
      'f.help_text',
      sql<boolean>`f.archived_at is null`.as('active'),
      fieldInUse(eb.ref('f.id')).as('in_use'),
      sql<number>`(extract(epoch from f.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(extract(epoch from f.updated_at) * 1000)::float8`.as('updated_at'),
    ])
    .$castTo<FieldRow>()
}
