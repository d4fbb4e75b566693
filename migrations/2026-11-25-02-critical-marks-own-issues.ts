import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Issue 11: work_orders.critical marks an open critical issue raised on the work order itself;
// an issue on one of its jobs marks that job only (the work order "has a critical job", read from
// the jobs). Until now the work order was marked by its jobs' issues too: recompute the stored
// flag from the issues. jobs.critical already meant the job's own issues.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update work_orders w set critical = exists (
      select 1 from issues i where i.work_order_id = w.id and i.job_id is null and i.critical and i.state <> 'closed'
    )
    where w.critical <> exists (
      select 1 from issues i where i.work_order_id = w.id and i.job_id is null and i.critical and i.state <> 'closed'
    )`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
