import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 14: a subtree is read as the range of paths starting with a position's path
// (`path ~>=~ p and path ~<~ p'`); carrying the id in the index answers it from the index alone.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index positions_path_ids on positions (path text_pattern_ops) include (id)`.execute(db)
  await sql`drop index positions_path`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
