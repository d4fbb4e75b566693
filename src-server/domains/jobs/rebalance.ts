/**
 * Rebalancing one phase of a work order (SPEC 5, `POST job/rebalance`): the phase's quantity
 * distributed anew among its jobs, new jobs created, emptied ones removed or closed.
 */
import { minimumQuantity, releaseDue } from '../../../src/domains/jobs/rules'
import type { RebalanceInput, RebalanceResult } from '../../../src/domains/jobs/schemas'
import type { Actor, Services } from '../../context'
import { conflict, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { phaseInfo } from '../execution/queries'
import { readSettings } from '../settings/queries'
import { jobsJoined, referencedJobs, selectJobRow, siteOrder } from './queries'
import { checkedOperators, type Job, lockedPhases, lockedWorkOrder, moveReleased, today, unassignedRefused } from './shared'

/**
 * `POST job/rebalance`: the new distribution of one phase of a work order among existing and
 * new jobs. Serialised per phase by locking its work_order_phases row, then its jobs.
 */
export async function rebalancePhase(svc: Services, actor: Actor, input: RebalanceInput): Promise<RebalanceResult> {
  const listed = input.jobs.filter((r) => r.job_key !== undefined).map((r) => r.job_key!)
  if (new Set(listed).size !== listed.length) throw invalidField({ path: 'jobs', kind: 'duplicate', message: 'a job is listed twice' })
  const now = svc.clock.now()
  const result = await svc.db.transaction().execute(async (trx) => {
    const settings = await readSettings(trx)
    await lockedWorkOrder(trx, input.work_order_key)
    const { phase, next } = await lockedPhases(trx, input.work_order_key, input.phase_key)
    const jobs = await trx
      .selectFrom('jobs')
      .selectAll()
      .where('work_order_id', '=', input.work_order_key)
      .where('phase_id', '=', input.phase_key)
      .orderBy('id')
      .forUpdate()
      .execute()
    const byKey = new Map(jobs.map((j) => [j.id, j]))
    for (const key of listed) if (!byKey.has(key)) throw unprocessable('UNKNOWN_JOB', 'a job is not one of this phase of the work order', { job_key: key })

    const wanted = new Map(input.jobs.filter((r) => r.job_key).map((r) => [r.job_key!, r]))
    const newRows = input.jobs.filter((r) => r.job_key === undefined && r.quantity > 0)
    if (newRows.some((r) => r.operator_key === null)) {
      throw unprocessable('NEW_JOBS_NEED_OPERATOR', 'assign an operator to the new jobs')
    }
    const total = jobs.reduce((s, j) => s + j.quantity, 0)
    const after = jobs.reduce((s, j) => s + (wanted.get(j.id)?.quantity ?? j.quantity), 0) + newRows.reduce((s, r) => s + r.quantity, 0)
    if (after !== total) throw unprocessable('QUANTITIES_MISMATCH', 'quantities mismatch', { expected: total, actual: after })

    type Change = { job: Job; quantity: number; operator: string | null }
    const changes: Change[] = []
    for (const job of jobs) {
      const w = wanted.get(job.id)
      if (!w) continue
      const operatorChanges = w.operator_key !== job.operator_id
      if (w.quantity === job.quantity && !operatorChanges) continue
      if (job.status === 'closed') throw conflict('JOB_CLOSED', 'a closed job cannot be changed', { job_key: job.id })
      if (w.quantity < minimumQuantity(job)) {
        throw unprocessable('JOB_BELOW_DONE', "a job's done and active pieces cannot be moved away", {
          job_key: job.id,
          minimum: minimumQuantity(job),
        })
      }
      // Taking the last remaining pieces of a running job would close it under the operator.
      if (job.active && (operatorChanges || (w.quantity === job.completed_qt && job.active_qt === 0))) {
        throw conflict('JOB_RUNNING', 'the job is running: pause it first', { job_key: job.id })
      }
      if (operatorChanges && w.operator_key === null && !settings.allow_unassigned_jobs) throw unassignedRefused()
      changes.push({ job, quantity: w.quantity, operator: w.operator_key })
    }
    const operators = new Set<string>()
    for (const c of changes) if (c.operator && c.operator !== c.job.operator_id) operators.add(c.operator)
    for (const r of newRows) operators.add(r.operator_key!)
    await checkedOperators(trx, [...operators])
    if (changes.length === 0 && newRows.length === 0) return null

    const removed: string[] = []
    const closed: string[] = []
    const created: string[] = []
    const { parameters: params } = await phaseInfo(trx, input.phase_key)
    const deletable = (c: Change) => c.quantity === 0 && c.job.completed_qt === 0 && c.job.active_qt === 0 && c.job.status === 'queued'
    const referenced = await referencedJobs(trx, changes.filter(deletable).map((c) => c.job.id))
    for (const change of changes) {
      const { job, quantity, operator } = change
      if (deletable(change) && !referenced.has(job.id)) {
        await trx.deleteFrom('jobs').where('id', '=', job.id).execute()
        removed.push(job.id)
        continue
      }
      const closes = quantity === job.completed_qt && job.active_qt === 0
      const due = closes ? releaseDue(params, { completed_qt: job.completed_qt, released_qt: job.released_qt, closed: true }) : 0
      await trx
        .updateTable('jobs')
        .set({
          quantity,
          operator_id: operator,
          ...(operator !== job.operator_id ? { queue_position: null } : {}),
          ...(closes ? { status: 'closed', closed_at: now, active: false, released_qt: job.released_qt + due } : {}),
          updated_at: now,
        })
        .where('id', '=', job.id)
        .execute()
      if (closes) {
        closed.push(job.id)
        await moveReleased(trx, phase, next, due)
      }
    }
    if (newRows.length) {
      const template = jobs[0]
      const stepSequence = template
        ? JSON.stringify(template.step_sequence)
        : JSON.stringify(
            ((await trx.selectFrom('product_phases').select('steps').where('id', '=', input.phase_key).executeTakeFirstOrThrow()).steps ?? []).map((s) => ({
              _key: s._key,
              type: s.type,
            })),
          )
      const inserted = await trx
        .insertInto('jobs')
        .values(
          newRows.map((r) => ({
            work_order_id: input.work_order_key,
            phase_id: input.phase_key,
            position: template?.position ?? phase.position,
            quantity: r.quantity,
            operator_id: r.operator_key,
            step_sequence: stepSequence,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute()
      created.push(...inserted.map((r) => r.id))
    }
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'JOBS_REBALANCED',
        subject_type: 'work_order',
        subject_key: input.work_order_key,
        data: {
          phase_key: input.phase_key,
          total,
          before: jobs.map((j) => ({ job_key: j.id, quantity: j.quantity, operator_key: j.operator_id })),
          changed: changes.map((c) => ({ job_key: c.job.id, quantity: c.quantity, operator_key: c.operator })),
          created: created.map((key, i) => ({ job_key: key, quantity: newRows[i]!.quantity, operator_key: newRows[i]!.operator_key })),
          removed,
          closed,
        },
      },
      now,
    )
    return { created, removed, closed }
  })
  const rows = await siteOrder(
    selectJobRow(jobsJoined(svc.db), today(svc)).where('j.work_order_id', '=', input.work_order_key).where('j.phase_id', '=', input.phase_key),
  ).execute()
  return { jobs: rows, created: result?.created ?? [], removed: result?.removed ?? [], closed: result?.closed ?? [] }
}
