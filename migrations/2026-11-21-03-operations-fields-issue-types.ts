import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any> so later schema types never change it.
// Libraries of the admin area: media (files for steps), form fields, operations with their
// default phase steps, issue types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('form_fields')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('options', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('multiple', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('mandatory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('help_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'form_fields_type_known',
      sql`type in ('files', 'boolean', 'choice', 'date', 'number', 'text', 'ternary', 'time')`,
    )
    .execute()
  await sql`create unique index form_fields_name_unique on form_fields (lower(name))`.execute(db)

  await db.schema
    .createTable('operations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    // Ordered steps: [{_key, type, title, text, media: [media ids], fields: [form field ids], print_templates}]
    .addColumn('default_phase_steps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create unique index operations_name_unique on operations (lower(name))`.execute(db)
  // "Is this form field used by an operation?" is a containment test on the steps.
  await sql`create index operations_steps on operations using gin (default_phase_steps jsonb_path_ops)`.execute(db)

  await db.schema
    .createTable('issue_types')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('close_within_hours', 'integer', (c) => c.notNull().defaultTo(0).check(sql`close_within_hours >= 0`))
    .addColumn('critical', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('link_type', 'text', (c) => c.notNull().defaultTo('generic'))
    .addColumn('print_templates', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'issue_types_link_type_known',
      sql`link_type in ('job', 'work_order', 'product', 'serial', 'position', 'generic')`,
    )
    .execute()
  await sql`create unique index issue_types_code_unique on issue_types (lower(code))`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
