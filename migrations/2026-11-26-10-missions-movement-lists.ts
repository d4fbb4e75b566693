import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 14 (warehouse): missions and movement lists. A mission is a set of planned movements for
// one purpose (components to the line for a work order, finished goods put away, or by hand),
// assigned to a warehouse user and carried out line by line with a scanner; each line is one
// movement of the warehouse (carried out = that movement confirmed). A movement list groups
// movements for printing and carrying out (a picking list per work order or per day). Both
// point at movements; the movements and the stock stay the warehouse service's own tables.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('missions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('number', 'bigint', (c) => c.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('to_line', 'put_away', 'manual')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'in_progress', 'done', 'cancelled')`))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('work_order_id', 'uuid', (c) => c.references('work_orders.id').onDelete('set null'))
    .addColumn('assignee_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('missions_status').on('missions').columns(['status', 'number']).execute()
  await sql`create index missions_assignee on missions (assignee_id, number) where assignee_id is not null`.execute(db)
  await sql`create index missions_work_order on missions (work_order_id, number) where work_order_id is not null`.execute(db)

  await db.schema
    .createTable('mission_lines')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('mission_id', 'uuid', (c) => c.notNull().references('missions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('movement_id', 'uuid', (c) => c.notNull().unique().references('movements.id').onDelete('restrict'))
    .addColumn('done_at', 'timestamptz')
    .addColumn('done_by', 'uuid', (c) => c.references('users.id'))
    .execute()
  await db.schema.createIndex('mission_lines_mission').on('mission_lines').columns(['mission_id', 'position']).execute()

  await db.schema
    .createTable('movement_lists')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('number', 'bigint', (c) => c.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('work_order', 'day', 'mission')`))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('work_order_id', 'uuid', (c) => c.references('work_orders.id').onDelete('set null'))
    .addColumn('mission_id', 'uuid', (c) => c.references('missions.id').onDelete('set null'))
    .addColumn('day', 'date')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('movement_lists_number').on('movement_lists').columns(['kind', 'number']).execute()
  await sql`create index movement_lists_work_order on movement_lists (work_order_id) where work_order_id is not null`.execute(db)

  await db.schema
    .createTable('movement_list_lines')
    .addColumn('list_id', 'uuid', (c) => c.notNull().references('movement_lists.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('movement_id', 'uuid', (c) => c.notNull().references('movements.id').onDelete('restrict'))
    .addPrimaryKeyConstraint('movement_list_lines_pk', ['list_id', 'movement_id'])
    .execute()
  await db.schema.createIndex('movement_list_lines_order').on('movement_list_lines').columns(['list_id', 'position']).execute()
  await db.schema.createIndex('movement_list_lines_movement').on('movement_list_lines').column('movement_id').execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
