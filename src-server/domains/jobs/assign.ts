/**
 * Giving jobs to operators: the operators jobs can be assigned to, and `POST job/assign`
 * (assign, or take back where the settings allow unassigned jobs).
 */
import { sql } from 'kysely'
import type { AssignInput, JobRow, OperatorRow } from '../../../src/domains/jobs/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { appendEvent } from '../events/service'
import { readSettings } from '../settings/queries'
import { eligibleOperators, jobsJoined, selectJobRow, siteOrder } from './queries'
import { archived, checkedOperators, jobClosed, jobReason, jobRunning, today, unassignedRefused, unknownJob } from './shared'

/** Rows of the given jobs (any state), in site order. */
async function jobRows(db: Db, day: string, keys: readonly string[]): Promise<JobRow[]> {
  if (keys.length === 0) return []
  return siteOrder(selectJobRow(jobsJoined(db).where('j.id', 'in', keys), day)).execute()
}

/** Operators jobs can be assigned to (optionally of one department), by surname, name, username. */
export function listOperators(svc: Pick<Services, 'db'>, opts: { department_key?: string } = {}): Promise<OperatorRow[]> {
  let q = eligibleOperators(svc.db)
  if (opts.department_key) q = q.where('u.department_id', '=', opts.department_key)
  return q.orderBy(sql`lower(u.surname)`).orderBy(sql`lower(u.name)`).orderBy(sql`lower(u.username)`).execute()
}

/**
 * `POST job/assign` (production): gives jobs to an eligible operator, or takes them back
 * (operator null) where the settings allow unassigned jobs. A running job keeps its operator
 * (JOB_RUNNING), a closed one is not changed (JOB_CLOSED). All or nothing; one event per job,
 * with the optional `reason` as `reason_text` (the operators read it: execution/interruption.ts).
 */
export async function assignJobs(svc: Services, actor: Actor, input: AssignInput): Promise<JobRow[]> {
  const keys = [...new Set(input.job_keys)].sort()
  const reason = jobReason(input.reason)
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    if (input.operator_key === null) {
      if (!(await readSettings(trx)).allow_unassigned_jobs) throw unassignedRefused()
    } else await checkedOperators(trx, [input.operator_key])
    const jobs = await trx
      .selectFrom('jobs as j')
      .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
      .select(['j.id', 'j.operator_id', 'j.status', 'j.active', 'j.work_order_id', 'j.phase_id', 'wo.archived_at'])
      .where('j.id', 'in', keys)
      .orderBy('j.id')
      .forUpdate('j')
      .execute()
    if (jobs.length !== keys.length) throw unknownJob()
    const changed = jobs.filter((j) => j.operator_id !== input.operator_key)
    for (const j of changed) {
      if (j.archived_at !== null) throw archived()
      if (j.status === 'closed') throw jobClosed()
      if (j.active) throw jobRunning()
    }
    if (changed.length === 0) return
    await trx
      .updateTable('jobs')
      .set({ operator_id: input.operator_key, queue_position: null, updated_at: now })
      .where(
        'id',
        'in',
        changed.map((j) => j.id),
      )
      .execute()
    for (const j of changed) {
      await appendEvent(
        trx,
        actor,
        {
          event_type: input.operator_key ? 'JOB_ASSIGNED' : 'JOB_UNASSIGNED',
          subject_type: 'job',
          subject_key: j.id,
          data: {
            work_order_key: j.work_order_id,
            phase_key: j.phase_id,
            operator_key: input.operator_key,
            previous_operator_key: j.operator_id,
            ...(reason ? { reason_text: reason } : {}),
          },
        },
        now,
      )
    }
  })
  return jobRows(svc.db, today(svc), keys)
}
