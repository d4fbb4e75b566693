import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 13 (traceability, execution wiring): a serial made in a batch names the piece of the
// batch it numbers (1..qt_total), so the operator's declarations of a batch are rows of
// `serials` / `serial_links` with state 'temporary' (final at BATCH_COMPLETED) instead of the
// loose JSON `batches.serial_temp_links`, which is dropped (nothing wrote it but the placeholder).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('serials')
    .addColumn('piece', 'integer', (c) => c.check(sql`piece >= 1`))
    .execute()
  await sql`create unique index serials_batch_piece on serials (batch_id, piece) where piece is not null`.execute(db)
  await db.schema.alterTable('batches').dropColumn('serial_temp_links').execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
