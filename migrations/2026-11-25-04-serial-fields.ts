import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Traceability configuration (issue 13): the fields a serial carries, each built on a form field
// of the library (its type, options and help text come from there); the traceability level of a
// product phase and the counter numbering what it produces; bom lines whose component serials must be declared.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('serial_fields')
    // The serial field is keyed by its form field: a form field is carried at most once.
    .addColumn('field_id', 'uuid', (c) => c.primaryKey().references('form_fields.id'))
    .addColumn('mandatory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .alterTable('product_phases')
    .addColumn('traceability_level', 'text', (c) => c.notNull().defaultTo('none').check(sql`traceability_level in ('none', 'form', 'complete')`))
    // The counter numbering what the phase produces; a counter in use cannot be deleted.
    .addColumn('counter_id', 'uuid', (c) => c.references('counters.id'))
    .execute()
  await db.schema.createIndex('product_phases_counter').on('product_phases').column('counter_id').where(sql.ref('counter_id'), 'is not', null).execute()

  await db.schema.alterTable('bom_lines').addColumn('declared_serials', 'boolean', (c) => c.notNull().defaultTo(false)).execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
