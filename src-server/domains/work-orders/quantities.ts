/**
 * Changing the planned quantity of a work order together with its distribution among the jobs of
 * every phase (the rules a distribution must keep: distributionProblems in
 * src/domains/work-orders/rules.ts, shared with the screen).
 */
import type { QuantityChangeInput, WorkOrderDetail } from '../../../src/domains/work-orders/schemas'
import { type DistributionPhase, distributionProblems } from '../../../src/domains/work-orders/rules'
import type { Actor, Services } from '../../context'
import { badRequest, conflict, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { referencedJobs } from '../jobs/queries'
import { readSettings } from '../settings/queries'
import { readDetail } from './detail'
import { refreshWorkOrderProgress } from './progress'
import { lockWorkOrder, workOrderPhases } from './queries'
import { archivedRefusal, assertOperators, requireWorkOrderId, SUBJECT, todayOf, workOrderNotFound } from './shared'

/**
 * `PATCH work-order/{id}/update-quantities`: the new planned quantity and its distribution among
 * the jobs of every phase (SPEC 5). Listed jobs take the given quantity (never below their done
 * and active pieces), jobs left out keep theirs, new jobs are added (with an operator where
 * unassigned jobs are not allowed); every phase must add up to the new quantity
 * (422 WORKLOAD_NOT_DISTRIBUTED naming the phase). Phase 1's released material follows the new
 * quantity. Jobs left with nothing to do close (or go, if they never started). One event with
 * before and after; nothing is written on a refusal.
 */
export async function changeQuantities(svc: Services, actor: Actor, key: string, input: QuantityChangeInput): Promise<WorkOrderDetail> {
  const now = svc.clock.now()
  const today = todayOf(svc)
  const id = await svc.db.transaction().execute(async (trx) => {
    const id = await requireWorkOrderId(trx, key)
    const wo = await lockWorkOrder(trx, id)
    if (!wo) throw workOrderNotFound()
    if (wo.archived_at) throw archivedRefusal()
    if (wo.status === 'closed') throw conflict('WORK_ORDER_CLOSED', 'the work order is closed: reopen it before changing its quantity')

    const phases = await workOrderPhases(trx, id).forUpdate('wp').execute()
    const jobs = await trx
      .selectFrom('jobs')
      .select(['id', 'phase_id', 'position', 'quantity', 'completed_qt', 'active_qt', 'status', 'active', 'operator_id', 'started_at', 'created_at'])
      .where('work_order_id', '=', id)
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .forUpdate()
      .execute()

    const byPhase = new Map<string, QuantityChangeInput['phases'][number]>()
    for (const p of input.phases) {
      if (!phases.some((ph) => ph.phase_id === p.phase_key)) {
        throw badRequest('UNKNOWN_PHASE', 'the distribution names a phase that is not one of this work order', { phase_key: p.phase_key })
      }
      if (byPhase.has(p.phase_key)) throw invalidField({ path: 'phases', kind: 'duplicate', message: 'a phase is listed twice' }, { phase_key: p.phase_key })
      byPhase.set(p.phase_key, p)
    }
    const distribution: DistributionPhase[] = phases.map((ph) => {
      const asked = byPhase.get(ph.phase_id)
      const phaseJobs = jobs.filter((j) => j.phase_id === ph.phase_id)
      const newQuantity = new Map<string, number>()
      for (const j of asked?.jobs ?? []) {
        if (!phaseJobs.some((pj) => pj.id === j.job_key)) {
          throw badRequest('UNKNOWN_JOB', `job ${j.job_key} is not a job of phase ${ph.position} (${ph.name})`, { job_key: j.job_key, phase_key: ph.phase_id })
        }
        if (newQuantity.has(j.job_key)) throw invalidField({ path: 'jobs', kind: 'duplicate', message: 'a job is listed twice' }, { job_key: j.job_key })
        newQuantity.set(j.job_key, j.quantity)
      }
      return {
        phase_key: ph.phase_id,
        name: ph.name,
        position: ph.position,
        jobs: phaseJobs.map((j) => ({
          job_key: j.id,
          quantity: j.quantity,
          completed_qt: j.completed_qt,
          active_qt: j.active_qt,
          new_quantity: newQuantity.get(j.id) ?? j.quantity,
        })),
        new_jobs: (asked?.new_jobs ?? []).map((n) => ({ operator_key: n.operator_key ?? null, quantity: n.quantity })),
      }
    })

    const newOperators = distribution.flatMap((p) => p.new_jobs.map((n) => n.operator_key)).filter((o): o is string => o !== null)
    await assertOperators(trx, newOperators)
    const { allow_unassigned_jobs } = await readSettings(trx)
    const problem = distributionProblems(input.quantity, distribution, allow_unassigned_jobs)[0]
    if (problem) {
      const phase = distribution.find((p) => p.phase_key === problem.phase_key)!
      const where = { phase_key: phase.phase_key, phase_name: phase.name, position: phase.position }
      if (problem.code === 'JOB_BELOW_DONE') {
        throw unprocessable(
          'JOB_BELOW_DONE',
          `phase ${phase.position} (${phase.name}): a job cannot go below its ${problem.minimum} done or active pieces`,
          { ...where, job_key: problem.job_key, minimum: problem.minimum },
        )
      }
      if (problem.code === 'WORKLOAD_NOT_DISTRIBUTED') {
        throw unprocessable(
          'WORKLOAD_NOT_DISTRIBUTED',
          `the whole workload must be distributed: phase ${phase.position} (${phase.name}) has ${problem.distributed} of ${problem.quantity} pieces`,
          { ...where, distributed: problem.distributed, quantity: problem.quantity },
        )
      }
      throw unprocessable('OPERATOR_REQUIRED', `assign an operator to the new jobs (phase ${phase.position}, ${phase.name})`, where)
    }
    const first = phases[0]
    if (first && input.quantity < first.taken_qt) {
      throw unprocessable('JOB_BELOW_DONE', `phase 1 (${first.name}) already took ${first.taken_qt} pieces into production`, {
        phase_key: first.phase_id,
        phase_name: first.name,
        position: 1,
        minimum: first.taken_qt,
      })
    }

    const before = { quantity: wo.planned_qt, jobs: jobs.map((j) => ({ job_key: j.id, phase_key: j.phase_id, quantity: j.quantity, operator_key: j.operator_id })) }
    const removed: string[] = []
    const closed: string[] = []
    const reopened: string[] = []
    const jobById = new Map(jobs.map((j) => [j.id, j]))
    // A job left with nothing that never started goes, unless something refers to it.
    const deletable = (dj: { job_key: string; new_quantity: number }) => {
      const job = jobById.get(dj.job_key)!
      return dj.new_quantity === 0 && job.completed_qt === 0 && job.active_qt === 0 && !job.active && !job.started_at && job.status === 'queued'
    }
    const referenced = await referencedJobs(
      trx,
      distribution.flatMap((p) => p.jobs.filter(deletable).map((dj) => dj.job_key)),
    )
    for (const phase of distribution) {
      for (const dj of phase.jobs) {
        const job = jobById.get(dj.job_key)!
        const remaining = dj.new_quantity - job.completed_qt - job.active_qt
        if (deletable(dj) && !referenced.has(job.id)) {
          await trx.deleteFrom('jobs').where('id', '=', job.id).execute()
          removed.push(job.id)
          continue
        }
        let status = job.status
        let closedAt: Date | null | undefined
        if (remaining === 0 && job.active_qt === 0 && !job.active && job.status !== 'closed') {
          status = 'closed'
          closedAt = now
          closed.push(job.id)
        } else if (remaining > 0 && job.status === 'closed') {
          status = job.started_at ? 'paused' : 'queued'
          closedAt = null
          reopened.push(job.id)
        }
        if (dj.new_quantity === job.quantity && status === job.status) continue
        await trx
          .updateTable('jobs')
          .set({ quantity: dj.new_quantity, status, ...(closedAt !== undefined ? { closed_at: closedAt } : {}), updated_at: now })
          .where('id', '=', job.id)
          .execute()
      }
    }
    // New jobs list after the existing ones (jobs of a phase are shown in creation order).
    const latest = Math.max(now.getTime(), ...jobs.map((j) => new Date(j.created_at).getTime() + 1))
    let ordinal = 0
    const newJobs = distribution.flatMap((p) => {
      const ph = phases.find((x) => x.phase_id === p.phase_key)!
      return p.new_jobs.map((n) => ({
        work_order_id: id,
        phase_id: ph.phase_id,
        position: ph.position,
        quantity: n.quantity,
        operator_id: n.operator_key,
        step_sequence: JSON.stringify(ph.steps.map((s) => ({ _key: s._key, type: s.type }))),
        created_at: new Date(latest + ordinal++),
        updated_at: now,
      }))
    })
    const inserted = newJobs.length ? await trx.insertInto('jobs').values(newJobs).returning(['id', 'phase_id', 'quantity', 'operator_id']).execute() : []
    if (first) await trx.updateTable('work_order_phases').set({ released_in_qt: input.quantity }).where('work_order_id', '=', id).where('phase_id', '=', first.phase_id).execute()
    await trx.updateTable('work_orders').set({ planned_qt: input.quantity, updated_at: now }).where('id', '=', id).execute()

    const afterJobs = [
      ...distribution.flatMap((p) =>
        p.jobs
          .filter((j) => !removed.includes(j.job_key))
          .map((j) => ({ job_key: j.job_key, phase_key: p.phase_key, quantity: j.new_quantity, operator_key: jobById.get(j.job_key)!.operator_id })),
      ),
      ...inserted.map((j) => ({ job_key: j.id, phase_key: j.phase_id, quantity: j.quantity, operator_key: j.operator_id, new: true })),
    ]
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'WORK_ORDER_QUANTITY_CHANGED',
        subject_type: SUBJECT,
        subject_key: id,
        data: {
          code: wo.code,
          before,
          after: { quantity: input.quantity, jobs: afterJobs },
          jobs_removed: removed,
          jobs_closed: closed,
          jobs_reopened: reopened,
          changes: { quantity: { from: before.quantity, to: input.quantity }, jobs: { from: before.jobs, to: afterJobs } },
        },
      },
      now,
    )
    await refreshWorkOrderProgress(trx, id, { actor, now })
    return id
  })
  return readDetail(svc.db, id, today)
}
