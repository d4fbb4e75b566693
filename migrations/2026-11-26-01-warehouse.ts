import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 14 (warehouse): positions (a tree with a materialised path), movements and the stock they
// keep. `path` is the ids from the root down to the position, each followed by '/', so a subtree
// is `path like '<path>%'` on a text_pattern_ops index. Stock is one row per position, product,
// serial ('' = none) and owned flag, changed only by confirming a movement in the same transaction.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('positions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().check(sql`length(code) between 1 and 100`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent_id', 'uuid', (c) => c.references('positions.id').onDelete('restrict'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('owned', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('fixed', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('available', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('disposable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('positions_not_own_parent', sql`parent_id is null or parent_id <> id`)
    .execute()
  await sql`create unique index positions_code_unique on positions (lower(code))`.execute(db)
  await sql`create index positions_code_search on positions (lower(code) text_pattern_ops)`.execute(db)
  await sql`create index positions_path on positions (path text_pattern_ops)`.execute(db)
  await db.schema.createIndex('positions_parent').on('positions').columns(['parent_id', 'code']).execute()

  await db.schema
    .createTable('movements')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('number', 'bigint', (c) => c.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('restrict'))
    .addColumn('serial', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('owned', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('from_position_id', 'uuid', (c) => c.references('positions.id').onDelete('restrict'))
    .addColumn('to_position_id', 'uuid', (c) => c.references('positions.id').onDelete('restrict'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('planned_quantity', 'numeric(18, 4)', (c) => c.notNull().check(sql`planned_quantity > 0`))
    .addColumn('confirmed_quantity', 'numeric(18, 4)', (c) => c.check(sql`confirmed_quantity > 0`))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('confirmed_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('reverts_id', 'uuid', (c) => c.unique().references('movements.id'))
    .addColumn('reverted_by_id', 'uuid', (c) => c.unique().references('movements.id'))
    .addColumn('revert_reason', 'text')
    .addColumn('work_order_id', 'uuid', (c) => c.references('work_orders.id').onDelete('set null'))
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('set null'))
    .addColumn('origin_type', 'text')
    .addColumn('origin_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('movements_type_known', sql`type in ('load', 'unload', 'transfer', 'production', 'consumption', 'adjustment')`)
    .addCheckConstraint('movements_status_known', sql`status in ('planned', 'confirmed', 'cancelled')`)
    .addCheckConstraint('movements_has_position', sql`from_position_id is not null or to_position_id is not null`)
    .addCheckConstraint('movements_from_not_to', sql`from_position_id is null or to_position_id is null or from_position_id <> to_position_id`)
    .addCheckConstraint('movements_confirmed_quantity', sql`(status = 'confirmed') = (confirmed_quantity is not null)`)
    .execute()
  // Lists: newest first (number), narrowed by product, position, work order, batch or origin.
  await db.schema.createIndex('movements_product').on('movements').columns(['product_id', 'number']).execute()
  await db.schema.createIndex('movements_from').on('movements').columns(['from_position_id', 'number']).execute()
  await db.schema.createIndex('movements_to').on('movements').columns(['to_position_id', 'number']).execute()
  await sql`create index movements_work_order on movements (work_order_id, number) where work_order_id is not null`.execute(db)
  await sql`create index movements_batch on movements (batch_id) where batch_id is not null`.execute(db)
  await sql`create index movements_origin on movements (origin_type, origin_key) where origin_type is not null`.execute(db)
  await sql`create index movements_planned on movements (number) where status = 'planned'`.execute(db)

  await db.schema
    .createTable('stock')
    .addColumn('position_id', 'uuid', (c) => c.notNull().references('positions.id').onDelete('restrict'))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('restrict'))
    .addColumn('serial', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('owned', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('quantity', 'numeric(18, 4)', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('stock_pk', ['position_id', 'product_id', 'serial', 'owned'])
    .execute()
  await db.schema.createIndex('stock_product').on('stock').columns(['product_id', 'position_id']).execute()
  await sql`create index stock_serial on stock (serial) where serial <> ''`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
