import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Electronic signatures (issue 22, docs/signatures.md). A signature names what it signed by type
// and key (a batch step: `batch_step`, `<batch id>:<step key>`) and keeps the SHA-256 of the
// canonical content it signed, so a later change of that content shows. `work_order_id` lists a
// work order's signatures in one indexed read. No foreign keys: a signature outlives nothing it
// refers to, and the rows it names are themselves never deleted once signed.
// Append-only like events: the database refuses UPDATE, DELETE and TRUNCATE.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signatures')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_key', 'text', (c) => c.notNull())
    .addColumn('work_order_id', 'uuid')
    .addColumn('meaning', 'text', (c) => c.notNull().check(sql`meaning in ('performed', 'verified', 'approved')`))
    // 'signer' (the person acting) or 'second_signer' (four eyes), with the permission word asked of them.
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('signer', 'second_signer')`))
    .addColumn('required_scope', 'text')
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull().check(sql`content_hash ~ '^[0-9a-f]{64}$'`))
    .execute()
  await db.schema.createIndex('signatures_subject').on('signatures').columns(['subject_type', 'subject_key']).execute()
  await db.schema.createIndex('signatures_work_order').on('signatures').columns(['work_order_id', 'signed_at']).execute()

  await sql`
    create function signatures_append_only() returns trigger language plpgsql as $$
    begin raise exception 'signatures are append-only'; end $$`.execute(db)
  await sql`
    create trigger signatures_no_change before update or delete on signatures
    for each row execute function signatures_append_only()`.execute(db)
  await sql`
    create trigger signatures_no_truncate before truncate on signatures
    for each statement execute function signatures_append_only()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table signatures`.execute(db)
  await sql`drop function signatures_append_only()`.execute(db)
}
