import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any> so later schema types never change it.
// The product library: products with documents and tags, their process (ordered phases with
// steps, parameters and print templates) and the bill of materials per phase.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('trashed_at', 'timestamptz')
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('minimum_order', 'integer', (c) => c.check(sql`minimum_order >= 0`))
    .addColumn('technical_batch', 'integer', (c) => c.check(sql`technical_batch >= 0`))
    .addColumn('image_path', 'text')
    // [{custom_field_key, value}] typed by the form field library
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('print_templates', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create unique index products_code_unique on products (lower(code))`.execute(db)
  // The list is sorted by code and filtered by state; 10,000+ products page through this index.
  await sql`create index products_state_code on products ((trashed_at is null), active, lower(code))`.execute(db)

  await db.schema
    .createTable('product_docs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('product_docs_name_unique', ['product_id', 'name'])
    .execute()

  await db.schema
    .createTable('tags')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create unique index tags_name_unique on tags (lower(name))`.execute(db)

  // A tag attached to anything: context 'product' with the product key, later others.
  await db.schema
    .createTable('tag_links')
    .addColumn('tag_id', 'uuid', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('context_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tag_links_pk', ['tag_id', 'context', 'context_key'])
    .execute()
  await db.schema.createIndex('tag_links_target').on('tag_links').columns(['context', 'context_key']).execute()

  await db.schema
    .createTable('product_phases')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // An operation used by a process cannot be deleted (the operations service maps the violation).
    .addColumn('operation_id', 'uuid', (c) => c.notNull().references('operations.id').onDelete('restrict'))
    .addColumn('department_id', 'uuid', (c) => c.references('departments.id').onDelete('restrict'))
    .addColumn('parameters', 'jsonb', (c) => c.notNull())
    // Ordered steps, same shape as an operation's default steps (src/domains/process/steps.ts)
    .addColumn('steps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('production_notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('print_templates', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('product_phases_product').on('product_phases').columns(['product_id', 'position']).execute()
  // Step media endpoints find a step by its key; form fields in use are found by containment.
  await sql`create index product_phases_steps on product_phases using gin (steps jsonb_path_ops)`.execute(db)

  await db.schema
    .createTable('bom_lines')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('cascade'))
    // A phase with components cannot be deleted.
    .addColumn('phase_id', 'uuid', (c) => c.notNull().references('product_phases.id').onDelete('restrict'))
    .addColumn('item_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('restrict'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'numeric(14, 4)', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('quantity_per', 'text', (c) => c.notNull().check(sql`quantity_per in ('item', 'job', 'batch')`))
    .addColumn('traceability', 'text', (c) => c.notNull().defaultTo('none').check(sql`traceability in ('none', 'form', 'complete')`))
    .addUniqueConstraint('bom_lines_item_once_per_phase', ['phase_id', 'item_id'])
    .execute()
  await db.schema.createIndex('bom_lines_product').on('bom_lines').columns(['product_id', 'phase_id', 'position']).execute()
  await db.schema.createIndex('bom_lines_item').on('bom_lines').column('item_id').execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
