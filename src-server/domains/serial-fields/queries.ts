import { sql } from 'kysely'
import type { SerialFieldRow } from '../../../src/domains/serial-fields/schemas'
import type { Db } from '../../db/connect'

/** Serial fields as the API shows them: the form field's definition with the serial's own flags. */
export function selectSerialFieldRows(db: Db) {
  return db
    .selectFrom('serial_fields as s')
    .innerJoin('form_fields as f', 'f.id', 's.field_id')
    .select([
      's.field_id as _key',
      's.position',
      's.mandatory',
      'f.name',
      'f.type',
      'f.options',
      'f.multiple',
      'f.help_text',
      sql<boolean>`f.archived_at is null`.as('field_active'),
      sql<number>`(extract(epoch from s.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(extract(epoch from s.updated_at) * 1000)::float8`.as('updated_at'),
    ])
    .orderBy('s.position')
    .orderBy('s.field_id')
    .$castTo<SerialFieldRow>()
}

/** Serialises serial-field list changes, so positions stay a gapless sequence. */
export async function lockSerialFields(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('mes.serial_fields'))`.execute(db)
}
