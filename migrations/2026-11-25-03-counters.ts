import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 13: counters make serial codes from a template (literal text, date parts, a zero-padded
// sequence). next_value is the sequence the next code gets; period_start is the first day (plant
// time zone) of the reset period next_value belongs to, null for a counter that never resets.
// A code is taken with one UPDATE ... RETURNING in the caller's transaction, so the row lock
// orders concurrent takers on any number of app instances.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('counters')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull().defaultTo('never'))
    .addColumn('next_value', 'bigint', (c) => c.notNull().defaultTo(1).check(sql`next_value >= 1`))
    .addColumn('period_start', 'date')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('counters_frequency_known', sql`frequency in ('never', 'year', 'month', 'week', 'day')`)
    .execute()
  await sql`create unique index counters_name_unique on counters (lower(name))`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
