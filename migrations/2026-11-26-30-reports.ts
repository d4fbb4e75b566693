import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Reports (issue 16): the scrapped pieces of a completed batch (OEE quality) and the indexes the
// report read models range over (batches by completion time, work sessions by start, issues by
// close and escalation time).
export async function up(db: Kysely<any>): Promise<void> {
  // Of the batch's qt_total pieces, how many the operator declared scrap at completion.
  await sql`alter table batches add column scrapped_qt integer not null default 0`.execute(db)
  await sql`alter table batches add constraint batches_scrapped_within_total check (scrapped_qt >= 0 and scrapped_qt <= qt_total)`.execute(db)
  await sql`create index batches_completed_at on batches (completed_at) include (job_id, qt_total, scrapped_qt, completed_by) where status = 'completed'`.execute(db)
  await sql`create index work_sessions_started_at on work_sessions (started_at) include (job_id, user_id, ended_at, end_reason)`.execute(db)
  await sql`create index issues_closed_at on issues (closed_at) where closed_at is not null`.execute(db)
  await sql`create index issues_escalated_at on issues (escalated_at) where escalated_at is not null`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
