import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Genealogy shows a component declared per job on every piece of the job: the piece serials of
// one job are found by this index.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index serials_job_pieces on serials (job_id) where piece is not null`.execute(db)
}
