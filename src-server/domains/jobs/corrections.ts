/**
 * Production corrections of a job (SPEC 4 job actions, `POST job/update`): reset progress,
 * cancel active pieces, update progress or times, pause; each with its guard and event.
 */
import { type CorrectionRefusal, correctionRefusal, releaseDue } from '../../../src/domains/jobs/rules'
import type { JobDetail, JobUpdateInput } from '../../../src/domains/jobs/schemas'
import { CORRECTION_EVENTS, PRODUCTION_PAUSE_REASON } from '../../../src/domains/work-orders/history'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, conflict, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { type SubjectEvent, subjectEvents } from '../events/subject-events'
import { changesOf, editData } from '../events/changes'
import { phaseInfo } from '../execution/queries'
import { refreshWorkOrderProgress } from '../work-orders/progress'
import { actionSignature, signRecord } from '../signatures/actions'
import { correctionSubject } from '../signatures/records'
import { getJob } from './detail'
import { phaseHasTraceability } from './queries'
import { type Job, jobReason, lockedPhases, lockedWorkOrder, moveReleased, type PhaseRow, unknownJob } from './shared'

const REFUSALS: Record<CorrectionRefusal, { status: 409 | 422; message: string }> = {
  JOB_RUNNING: { status: 409, message: 'the job is running: pause it first' },
  JOB_HAS_ACTIVE_PIECES: { status: 409, message: 'the job has active pieces: cancel them first' },
  JOB_NO_PROGRESS: { status: 409, message: 'the job has no progress to reset' },
  JOB_NO_ACTIVE_PIECES: { status: 409, message: 'the job has no active pieces' },
  JOB_HAS_TRACEABILITY: { status: 409, message: 'the phase has serial-tracked components: progress cannot be edited by hand' },
  JOB_NOT_STARTED: { status: 409, message: 'the job has not started yet' },
  JOB_NOT_RUNNING: { status: 409, message: 'the job is not running' },
}

/**
 * Closes the job's open work session and marks it paused (SPEC 4 "pause job", also the
 * operator's pause): time_spent_ms grows by the session's length. The caller holds the job lock.
 */
async function pauseLockedJob(
  db: Db,
  actor: Actor | null,
  job: Pick<Job, 'id' | 'time_spent_ms' | 'work_order_id'>,
  now: Date,
  opts: { reason: string; event_type?: string; data?: Record<string, unknown> },
): Promise<void> {
  const session = await db
    .selectFrom('work_sessions')
    .select(['id', 'started_at'])
    .where('job_id', '=', job.id)
    .where('ended_at', 'is', null)
    .forUpdate()
    .executeTakeFirst()
  const elapsed = session ? Math.max(0, now.getTime() - new Date(session.started_at).getTime()) : 0
  if (session) await db.updateTable('work_sessions').set({ ended_at: now, end_reason: opts.reason }).where('id', '=', session.id).execute()
  await db
    .updateTable('jobs')
    .set({ active: false, status: 'paused', time_spent_ms: job.time_spent_ms + elapsed, updated_at: now })
    .where('id', '=', job.id)
    .execute()
  await appendEvent(
    db,
    actor,
    {
      event_type: opts.event_type ?? 'JOB_PAUSED',
      subject_type: 'job',
      subject_key: job.id,
      data: { work_order_key: job.work_order_id, work_session_key: session?.id ?? null, reason: opts.reason, elapsed_ms: elapsed, ...opts.data },
    },
    now,
  )
}

/**
 * `POST job/update` (production): one SPEC 4 correction with its guard (rules.ts
 * correctionRefusal), keeping the phase's material counters consistent, with its event:
 * JOB_PROGRESS_RESET, JOB_ACTIVE_PIECES_CANCELLED, JOB_PROGRESS_UPDATED, JOB_TIMES_UPDATED, JOB_PAUSED.
 * A pause may say why (`reason`, recorded as the event's `reason_text`): the operator's work
 * session reads who paused the job, when and why (execution/interruption.ts). The four corrections are signed when the settings require it: the event that records one is
 * what its signature signs (signatures/actions.ts).
 */
export async function updateJob(svc: Services, actor: Actor, input: JobUpdateInput, ip: string | null = null): Promise<JobDetail> {
  // Pausing is not a correction of recorded data: never signed.
  const signature = input.action === 'pause' ? null : await actionSignature(svc, actor, 'job_correction', input.signature, ip)
  const reason = input.action === 'pause' ? jobReason(input.reason) : null
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const ref = await trx.selectFrom('jobs').select(['work_order_id', 'phase_id']).where('id', '=', input.job_key).executeTakeFirst()
    if (!ref) throw unknownJob()
    await lockedWorkOrder(trx, ref.work_order_id)
    const { phase, next } = await lockedPhases(trx, ref.work_order_id, ref.phase_id)
    const job = await trx.selectFrom('jobs').selectAll().where('id', '=', input.job_key).forUpdate().executeTakeFirstOrThrow()
    const traceability = input.action === 'update_progress' ? await phaseHasTraceability(trx, job.phase_id) : false
    const refusal = correctionRefusal(input.action, job, traceability)
    if (refusal) throw new AppError(REFUSALS[refusal].status, refusal, REFUSALS[refusal].message)
    const event = async (event_type: string, data: Record<string, unknown>) => {
      const subject = { subject_type: 'job', subject_key: job.id }
      const id = await appendEvent(trx, actor, { event_type, ...subject, data: { work_order_key: job.work_order_id, phase_key: job.phase_id, ...data } }, now)
      if (signature) await signRecord(trx, actor, signature, { type: 'job_correction', key: correctionSubject(job.id, id), workOrderId: job.work_order_id, event: subject }, now)
    }
    const setPhase = (patch: Partial<Pick<PhaseRow, 'taken_qt' | 'completed_qt'>>) =>
      trx
        .updateTable('work_order_phases')
        .set(patch)
        .where('work_order_id', '=', phase.work_order_id)
        .where('phase_id', '=', phase.phase_id)
        .execute()

    switch (input.action) {
      case 'reset_progress': {
        const done = job.completed_qt
        const back = job.released_qt
        await moveReleased(trx, phase, next, -back)
        await setPhase({ taken_qt: phase.taken_qt - done, completed_qt: phase.completed_qt - done })
        const set = { completed_qt: 0, released_qt: 0, ...(job.status === 'closed' ? { status: 'paused' as const, closed_at: null } : {}) }
        await trx
          .updateTable('jobs')
          .set({ ...set, updated_at: now })
          .where('id', '=', job.id)
          .execute()
        await refreshWorkOrderProgress(trx, job.work_order_id, { actor, now })
        await event('JOB_PROGRESS_RESET', { completed_qt: { from: done, to: 0 }, released_back: back, ...editData(changesOf(job, set)) })
        return
      }
      case 'cancel_active_pieces': {
        const pieces = job.active_qt
        const batch = await trx
          .updateTable('batches')
          .set({ status: 'cancelled' })
          .where('job_id', '=', job.id)
          .where('status', '=', 'open')
          .returning('id')
          .executeTakeFirst()
        await setPhase({ taken_qt: phase.taken_qt - pieces })
        await trx.updateTable('jobs').set({ active_qt: 0, active_batch_id: null, updated_at: now }).where('id', '=', job.id).execute()
        await event('JOB_ACTIVE_PIECES_CANCELLED', { pieces, batch_key: batch?.id ?? job.active_batch_id, ...editData(changesOf(job, { active_qt: 0, active_batch_id: null })) })
        return
      }
      case 'update_progress': {
        const to = input.completed_qt
        if (to > job.quantity) {
          throw unprocessable('PROGRESS_ABOVE_QUANTITY', 'progress cannot exceed the job quantity', { quantity: job.quantity })
        }
        const delta = to - job.completed_qt
        if (delta === 0) return
        if (delta > 0 && delta > phase.released_in_qt - phase.taken_qt) {
          throw conflict('NOT_ENOUGH_MATERIAL', 'not enough material released to this phase', {
            available: Math.max(0, phase.released_in_qt - phase.taken_qt),
          })
        }
        const back = Math.max(0, job.released_qt - to)
        await moveReleased(trx, phase, next, -back)
        await setPhase({ taken_qt: phase.taken_qt + delta, completed_qt: phase.completed_qt + delta })
        const closes = to === job.quantity
        const released = job.released_qt - back
        const { parameters: params } = await phaseInfo(trx, job.phase_id)
        const due = releaseDue(params, { completed_qt: to, released_qt: released, closed: closes })
        await moveReleased(trx, phase, next, due)
        const status = closes ? 'closed' : job.status === 'closed' || (job.status === 'queued' && to > 0) ? 'paused' : job.status
        await trx
          .updateTable('jobs')
          .set({
            completed_qt: to,
            released_qt: released + due,
            status,
            closed_at: closes ? now : null,
            updated_at: now,
          })
          .where('id', '=', job.id)
          .execute()
        await refreshWorkOrderProgress(trx, job.work_order_id, { actor, now })
        const changes = changesOf(job, { completed_qt: to, released_qt: released + due, status, closed_at: closes ? now : null })
        await event('JOB_PROGRESS_UPDATED', { completed_qt: { from: job.completed_qt, to }, released: due, released_back: back, status: { from: job.status, to: status }, ...editData(changes) })
        return
      }
      case 'update_times': {
        if (input.time_spent_ms === job.time_spent_ms) return
        await trx.updateTable('jobs').set({ time_spent_ms: input.time_spent_ms, updated_at: now }).where('id', '=', job.id).execute()
        await event('JOB_TIMES_UPDATED', { time_spent_ms: { from: job.time_spent_ms, to: input.time_spent_ms }, ...editData(changesOf(job, { time_spent_ms: input.time_spent_ms })) })
        return
      }
      case 'pause': {
        const data = { phase_key: job.phase_id, ...(reason ? { reason_text: reason } : {}) }
        await pauseLockedJob(trx, actor, job, now, { reason: PRODUCTION_PAUSE_REASON, data })
        return
      }
    }
  })
  return getJob(svc, input.job_key)
}

/**
 * The corrections recorded on some jobs (reset progress, cancel active pieces, update progress or
 * times: the events `updateJob` writes, which its signatures sign), oldest first. A pause by
 * production corrects no recorded data and is left out.
 */
export function jobCorrectionEvents(db: Db, jobIds: readonly string[]): Promise<SubjectEvent[]> {
  return subjectEvents(db, 'job', jobIds, CORRECTION_EVENTS)
}
