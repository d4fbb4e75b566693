import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 15: print templates (a base PDF in the file store plus fields placed on it), where they
// are assigned (product, phase, operation, issue type, position, settings labels), printers
// reached by IPP or raw TCP, each user's default printer, and the print log.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('print_templates')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('base_pdf_key', 'text', (c) => c.notNull())
    .addColumn('base_pdf_name', 'text', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('page_width', 'double precision', (c) => c.notNull())
    .addColumn('page_height', 'double precision', (c) => c.notNull())
    .addColumn('fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('context', 'text')
    .addColumn('context_key', 'text')
    .addColumn('temp', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('trashed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create index print_templates_context on print_templates (lower(context), lower(context_key))`.execute(db)

  await db.schema
    .createTable('print_template_assignments')
    .addColumn('template_id', 'uuid', (c) => c.notNull().references('print_templates.id').onDelete('cascade'))
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('context_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('print_template_assignments_pk', ['context', 'context_key', 'template_id'])
    .execute()
  await sql`create index print_template_assignments_template on print_template_assignments (template_id)`.execute(db)

  await db.schema
    .createTable('printers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull().defaultTo('/ipp/print'))
    .addColumn('trashed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('printers_protocol_known', sql`protocol in ('ipp', 'raw')`)
    .execute()
  await sql`create unique index printers_name_unique on printers (lower(name))`.execute(db)

  await db.schema
    .createTable('printer_defaults')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('printer_id', 'uuid', (c) => c.notNull().references('printers.id').onDelete('cascade'))
    .execute()

  await db.schema
    .createTable('prints')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('template_id', 'uuid', (c) => c.references('print_templates.id'))
    .addColumn('printer_id', 'uuid', (c) => c.references('printers.id'))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('documents', 'integer', (c) => c.notNull())
    .addColumn('subject', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('prints_status_known', sql`status in ('made', 'accepted', 'refused', 'unreachable')`)
    .execute()
  await sql`create index prints_created on prints (created_at desc)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
