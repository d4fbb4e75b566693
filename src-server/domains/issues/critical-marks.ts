import { sql } from 'kysely'
import type { Db } from '../../db/connect'

/** A critical issue that is not closed names this job or work order. */
const criticalIssueOn = (column: 'job_id' | 'work_order_id', id: string) =>
  sql<boolean>`exists (select 1 from issues i where ${sql.ref(`i.${column}`)} = ${id} and i.critical and i.state <> 'closed')`

/**
 * SPEC 2/4: critical issues mark their job and work order. jobs.critical is set while a
 * critical issue that is not closed names the job; work_orders.critical while one names the
 * work order, which includes the issues on its jobs (they carry the work order key too).
 * The job list, the operator queue and the work order list read these flags.
 *
 * Call it in the transaction of every change that can move them (create, actions, escalation),
 * after the issue row is written. The rows are locked first, work order then job (the lock order
 * of production writers), and the flag is computed in a later statement: two transactions
 * changing issues of the same work order then take turns, and the last one sees the other's
 * committed issue, so the flag never stays stale. updated_at is left alone on purpose: it is not
 * a change of the job (the offline sweep reads jobs.updated_at).
 */
export async function refreshCriticalMarks(trx: Db, issue: { job_id: string | null; work_order_id: string | null }): Promise<void> {
  const { work_order_id: woId, job_id: jobId } = issue
  if (woId) await trx.selectFrom('work_orders').select('id').where('id', '=', woId).forNoKeyUpdate().execute()
  if (jobId) await trx.selectFrom('jobs').select('id').where('id', '=', jobId).forNoKeyUpdate().execute()
  // Flipped only where the stored flag differs: no write when nothing changed.
  if (woId) {
    await trx
      .updateTable('work_orders')
      .set({ critical: sql<boolean>`not critical` })
      .where('id', '=', woId)
      .where(sql<boolean>`critical <> ${criticalIssueOn('work_order_id', woId)}`)
      .execute()
  }
  if (jobId) {
    await trx
      .updateTable('jobs')
      .set({ critical: sql<boolean>`not critical` })
      .where('id', '=', jobId)
      .where(sql<boolean>`critical <> ${criticalIssueOn('job_id', jobId)}`)
      .execute()
  }
}
