import { sql } from 'kysely'
import type { Db } from '../../db/connect'

/**
 * A critical issue that is not closed names this job, or this work order itself (an issue on
 * one of its jobs carries the work order key too, but marks the job, not the work order).
 */
const criticalIssueOn = (column: 'job_id' | 'work_order_id', id: string) =>
  column === 'job_id'
    ? sql<boolean>`exists (select 1 from issues i where i.job_id = ${id} and i.critical and i.state <> 'closed')`
    : sql<boolean>`exists (select 1 from issues i where i.work_order_id = ${id} and i.job_id is null and i.critical and i.state <> 'closed')`

/**
 * SPEC 2/4, issue 11: critical marks land where the issue was raised. jobs.critical is set while
 * a critical issue that is not closed names the job; work_orders.critical while one names the
 * work order itself. A work order "has a critical job" (work order list and page) while one of
 * its open jobs is marked; a job shows critical (job list, operator queue, work session) while
 * it is open and it or its work order is marked (isCritical in src/domains/jobs/rules.ts), so a
 * closed job or a job of another phase never shows an issue that is not its own.
 *
 * Call it in the transaction of every change that can move them (create, actions, escalation,
 * delete), after the issue row is written. The rows are locked first, work order then job (the
 * lock order of production writers), and the flag is computed in a later statement: two
 * transactions changing issues of the same work order then take turns, and the last one sees the
 * other's committed issue, so the flag never stays stale. updated_at is left alone on purpose: it
 * is not a change of the job (the offline sweep reads jobs.updated_at).
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
