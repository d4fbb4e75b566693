import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// "Is this form field used by product metadata?" (the field library's in-use rule, shown for
// every field in its list) is a jsonb containment test on products.metadata: with 10,000+
// products it needs an index rather than a scan per field.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index products_metadata on products using gin (metadata jsonb_path_ops)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
