import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Searching work orders by code (the work order list's search, the job list's search words) is a
// "contains" match (ILIKE '%word%'): at 100,000 work orders a scan of every code took hundreds of
// milliseconds. Trigram indexes answer it from the index; the line is searched alongside the code.
// pg_trgm is a trusted extension (the database owner may create it); PGlite loads it too (connect.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db)
  await sql`create index work_orders_code_trgm on work_orders using gin (code gin_trgm_ops)`.execute(db)
  await sql`create index work_orders_line_trgm on work_orders using gin (line gin_trgm_ops)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
