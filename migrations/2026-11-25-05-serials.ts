import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 13 (traceability): serials and the links between them. A serial is contained in at most
// one parent (unique child); links are temporary while the batch that declared them is open and
// final at BATCH_COMPLETED. Genealogy walks the links both ways: indexed by parent and by child.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('serials')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().unique().check(sql`length(code) between 1 and 200`))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('restrict'))
    .addColumn('work_order_id', 'uuid', (c) => c.references('work_orders.id').onDelete('set null'))
    .addColumn('job_id', 'uuid', (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('set null'))
    .addColumn('phase_id', 'uuid', (c) => c.references('product_phases.id').onDelete('set null'))
    .addColumn('operator_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('final').check(sql`state in ('temporary', 'final')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // Search: code prefix in any case, newest first within each filter.
  await sql`create index serials_code_lower on serials (lower(code) text_pattern_ops)`.execute(db)
  await db.schema.createIndex('serials_created').on('serials').columns(['created_at', 'id']).execute()
  await db.schema.createIndex('serials_product').on('serials').columns(['product_id', 'created_at']).execute()
  await db.schema.createIndex('serials_work_order').on('serials').columns(['work_order_id', 'created_at']).execute()
  await db.schema.createIndex('serials_phase').on('serials').columns(['phase_id', 'created_at']).execute()
  await db.schema.createIndex('serials_batch').on('serials').column('batch_id').execute()

  await db.schema
    .createTable('serial_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('parent_serial_id', 'uuid', (c) => c.notNull().references('serials.id').onDelete('cascade'))
    // A serial is inside one thing at a time: moving it replaces its link.
    .addColumn('child_serial_id', 'uuid', (c) => c.notNull().unique().references('serials.id').onDelete('cascade'))
    .addColumn('phase_id', 'uuid', (c) => c.references('product_phases.id').onDelete('set null'))
    .addColumn('bom_line_id', 'uuid', (c) => c.references('bom_lines.id').onDelete('set null'))
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('final').check(sql`state in ('temporary', 'final')`))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('serial_links_not_itself', sql`parent_serial_id <> child_serial_id`)
    .execute()
  await db.schema.createIndex('serial_links_parent').on('serial_links').columns(['parent_serial_id', 'child_serial_id']).execute()
  await db.schema.createIndex('serial_links_batch').on('serial_links').column('batch_id').execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
