import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Numbers people read (work order and issue codes, movement, mission and movement list numbers)
// without holes: a sequence or identity hands out a number even to a transaction that rolls back
// (a refused movement, an import preview), and auditors read a hole as a deleted record. Each
// numbering is now one row whose `last_value` is raised by the inserting transaction itself, so
// a number exists only if the write that drew it commits.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('numberings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_value', 'bigint', (c) => c.notNull().check(sql`last_value >= 0`))
    .execute()
  await sql`
    insert into numberings (name, last_value) values
      ('work_order_code', (select case when is_called then last_value else 0 end from work_order_code_seq)),
      ('issue_code', (select case when is_called then last_value else 0 end from issue_code_seq)),
      ('movement', (select coalesce(max(number), 0) from movements)),
      ('mission', (select coalesce(max(number), 0) from missions)),
      ('movement_list', (select coalesce(max(number), 0) from movement_lists))`.execute(db)
  for (const table of ['movements', 'missions', 'movement_lists']) {
    await sql`alter table ${sql.table(table)} alter column number drop identity`.execute(db)
  }
  await sql`drop sequence work_order_code_seq`.execute(db)
  await sql`drop sequence issue_code_seq`.execute(db)
}
