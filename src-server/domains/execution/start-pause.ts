/**
 * Starting, resuming and pausing jobs, and opening their batches: the operator's start (one job
 * or several in parallel), resume, pause and new batch, the pause of a sign-out, and the two
 * building blocks other use cases reuse: openBatch (also after a completed batch) and stopWork
 * (also closing, forced and offline pauses).
 */
import { sql } from 'kysely'
import { nextBatchQt, parallelAllowed } from '../../../src/domains/execution/rules'
import type { ExecutionOutcome, JobActionInput, PauseJobInput, StartJobsInput, StartJobsResult } from '../../../src/domains/execution/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, forbidden, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { readSettings } from '../settings/queries'
import { admitWrite, type ClosedSession } from './client-time'
import { idempotent } from './idempotency'
import { outcome } from './job-state'
import {
  type JobRow,
  jobPlace,
  jobPlaces,
  lockAllMaterial,
  lockJob,
  lockJobs,
  lockMaterial,
  type MaterialRow,
  materialOf,
  type PhaseInfo,
  phaseInfo,
  phaseInfos,
} from './queries'
import { addMaterial, assertRunningOperator, jobClosed, jobEvent, jobNotFound, notYours, stopWork, type Svc, updateJob } from './shared'

/** Opens the job's next batch (nextBatchQt pieces, > 0) with a step row per step of its step_sequence. */
export async function openBatch(
  db: Db,
  actor: Actor,
  job: JobRow,
  phase: PhaseInfo,
  material: MaterialRow,
  now: Date,
  previousBatchKey: string | null,
): Promise<{ job: JobRow; material: MaterialRow }> {
  const qt = nextBatchQt(phase.parameters.production_batch_qt, job, material)
  if (qt <= 0) throw new Error('openBatch without material')
  const { n } = await db
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', job.id)
    .executeTakeFirstOrThrow()
  const batch = await db
    .insertInto('batches')
    .values({ job_id: job.id, number: Number(n) + 1, qt_total: qt, opened_by: actor.userId, opened_at: now })
    .returning(['id', 'number'])
    .executeTakeFirstOrThrow()
  if (job.step_sequence.length) {
    await db
      .insertInto('batch_steps')
      .values(job.step_sequence.map((s, i) => ({ batch_id: batch.id, step_key: s._key, position: i, type: s.type, form_data: '[]', updated_at: now })))
      .execute()
  }
  const updated = await updateJob(db, job.id, { active_qt: job.active_qt + qt, active_batch_id: batch.id }, now)
  const mat = await addMaterial(db, material, { taken_qt: qt })
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'ACTIVE_BATCH_CHANGED', { batch_key: batch.id, batch_number: batch.number, previous_batch_key: previousBatchKey, qt_total: qt }),
    now,
  )
  return { job: updated, material: mat }
}

/**
 * Starts (or resumes) one or several jobs for the acting operator: each must be assigned to
 * them (or unassigned where settings allow: it becomes theirs), not closed, not running, with
 * an open batch or material for a new one; several jobs only where parallel_job_allowed holds
 * for every running and started job. Each gets a work session and, if none is open, a batch.
 */
export async function startJobs(svc: Svc, actor: Actor, input: StartJobsInput): Promise<StartJobsResult> {
  const keys = [...new Set(input.job_keys)].sort()
  return idempotent(svc, actor, `start:${keys.join(',')}`, input.idempotency_key, async (trx, now) => {
    // One start at a time per operator, so two devices cannot both pass the parallel rule.
    await sql`select pg_advisory_xact_lock(hashtext(${`mes.operator-start:${actor.userId}`}))`.execute(trx)
    const places = keys.every(isUuid) ? await jobPlaces(trx, keys) : []
    if (places.length !== keys.length) throw jobNotFound()
    // Work order rows with their material rows (by position) first, then the jobs.
    const materials = new Map<string, MaterialRow>()
    for (const woId of [...new Set(places.map((p) => p.work_order_id))].sort()) {
      const { workOrder, rows } = await lockAllMaterial(trx, woId)
      // Work on a finished work order would go unseen: production reopens or restores it first.
      if (workOrder.archived_at) throw conflict('WORK_ORDER_ARCHIVED', 'the work order is archived: production must restore it first')
      if (workOrder.status === 'closed') throw conflict('WORK_ORDER_CLOSED', 'the work order is closed: production must reopen it first')
      for (const row of rows) materials.set(`${woId}:${row.phase_id}`, row)
    }
    const materialOfJob = (j: { work_order_id: string; phase_id: string }) => materials.get(`${j.work_order_id}:${j.phase_id}`)!
    const jobs = await lockJobs(trx, keys)
    const phases = await phaseInfos(trx, jobs.map((j) => j.phase_id))
    const settings = await readSettings(trx)
    for (const job of jobs) {
      if (job.status === 'closed') throw jobClosed()
      if (job.operator_id === null && !settings.allow_unassigned_jobs) {
        throw forbidden('UNASSIGNED_JOBS_NOT_ALLOWED', 'this job is not assigned to you, and the settings do not allow taking unassigned jobs')
      }
      if (job.operator_id !== null && job.operator_id !== actor.userId) throw notYours()
      if (job.active) throw conflict('JOB_ALREADY_RUNNING', 'the job is already running', { job_key: job.id })
      const own = materialOfJob(job)
      if (!job.active_batch_id && nextBatchQt(phases.get(job.phase_id)!.parameters.production_batch_qt, job, own) <= 0) {
        throw unprocessable('NO_MATERIAL', 'no material available for this job yet', { job_key: job.id })
      }
    }
    const running = await trx
      .selectFrom('jobs')
      .select(['id', 'phase_id'])
      .where('operator_id', '=', actor.userId)
      .where('active', '=', true)
      .where('id', 'not in', keys)
      .execute()
    const runningPhases = await phaseInfos(trx, running.map((r) => r.phase_id))
    const all = [...running.map((r) => runningPhases.get(r.phase_id)!), ...jobs.map((j) => phases.get(j.phase_id)!)]
    if (!parallelAllowed(all.map((p) => p.parameters))) {
      throw conflict('PARALLEL_JOB_NOT_ALLOWED', 'these jobs cannot run at the same time: every running and started job must allow parallel work', {
        running_jobs: running.map((r) => r.id),
      })
    }

    const results: ExecutionOutcome[] = []
    for (const locked of jobs) {
      let job = locked
      const phase = phases.get(job.phase_id)!
      let own = materialOfJob(job)
      const wasStarted = job.status !== 'queued'
      const assigned = job.operator_id === null
      const ws = await trx
        .insertInto('work_sessions')
        .values({ job_id: job.id, user_id: actor.userId, auth_session_id: actor.sessionId, started_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      job = await updateJob(
        trx,
        job.id,
        { operator_id: actor.userId, active: true, status: 'started', started_at: job.started_at ?? now, last_heartbeat_at: now, paused_offline: false },
        now,
      )
      await appendEvent(
        trx,
        actor,
        jobEvent(job, wasStarted ? 'JOB_RESUMED' : 'JOB_STARTED', { work_session_key: ws.id, assigned_to_self: assigned, batch_key: job.active_batch_id }),
        now,
      )
      if (!job.active_batch_id) {
        // Checked again: an earlier job of this start may have taken the phase's material.
        if (nextBatchQt(phase.parameters.production_batch_qt, job, own) <= 0) {
          throw unprocessable('NO_MATERIAL', 'no material available for this job yet', { job_key: job.id })
        }
        ;({ job, material: own } = await openBatch(trx, actor, job, phase, own, now, null))
        materials.set(`${own.work_order_id}:${own.phase_id}`, own)
      }
      results.push(await outcome(trx, job, own, 'continue'))
    }
    return { jobs: results }
  })
}

/** Resume = start of one job that was started before (same rules; JOB_RESUMED). */
export async function resumeJob(svc: Svc, actor: Actor, input: JobActionInput): Promise<ExecutionOutcome> {
  const result = await startJobs(svc, actor, { job_keys: [input.job_key], idempotency_key: input.idempotency_key })
  return result.jobs[0]!
}

/**
 * Pauses a running job of the operator: the work session ends, the open batch stays open
 * (JOB_PAUSED). A pause kept offline that reaches the job after the server force-paused it for
 * silence, made before that pause point (client-time.ts admitWrite), is the operator's own pause
 * that came first: pausedBeforeForcedPause.
 */
export async function pauseJob(svc: Svc, actor: Actor, input: PauseJobInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `pause:${input.job_key}`, input.idempotency_key, async (trx, now) => {
    const locked = await lockJob(trx, input.job_key)
    if (!locked) throw jobNotFound()
    const maxOfflineS = (await phaseInfo(trx, locked.phase_id)).parameters.max_offline
    const { job: admitted, clientTime, late } = await admitWrite(trx, actor, locked, maxOfflineS, input.client_time, now)
    const reason = input.reason ?? 'user'
    const job = late
      ? await pausedBeforeForcedPause(trx, actor, admitted, late, clientTime.client_time!, reason, now)
      : await stopWork(trx, actor, admitted, now, { status: 'paused', endReason: reason, event: 'JOB_PAUSED', data: clientTime })
    const material = (await materialOf(trx, job.work_order_id, job.phase_id))!
    return outcome(trx, job, material, 'paused')
  })
}

/**
 * The operator paused offline before the server's forced pause for silence (issue 24): the work
 * session that pause closed ends when the operator paused instead (its time, time_spent_ms and
 * the daily rollup follow: the session's trigger moves its run time), with the operator's reason,
 * and the job stays paused, now as the operator's pause (paused_offline false). JOB_PAUSED records
 * it with the client time and how much the forced pause had counted beyond it.
 */
async function pausedBeforeForcedPause(db: Db, actor: Actor, job: JobRow, session: ClosedSession, clientTime: number, reason: string, now: Date): Promise<JobRow> {
  const end = new Date(Math.max(session.started_at.getTime(), Math.min(clientTime, session.ended_at.getTime())))
  const cutMs = session.ended_at.getTime() - end.getTime()
  await db.updateTable('work_sessions').set({ ended_at: end, end_reason: reason }).where('id', '=', session.id).execute()
  const updated = await updateJob(db, job.id, { time_spent_ms: Math.max(0, job.time_spent_ms - cutMs), paused_offline: false }, now)
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'JOB_PAUSED', {
      work_session_key: session.id,
      duration_ms: end.getTime() - session.started_at.getTime(),
      reason,
      client_time: clientTime,
      after_forced_pause: { ended_at_before: session.ended_at.getTime(), cut_ms: cutMs },
    }),
    now,
  )
  return updated
}

/** Opens the next batch of a running job with no open batch (auto_new_batch off, or material arrived). */
export async function newBatch(svc: Svc, actor: Actor, input: JobActionInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `new-batch:${input.job_key}`, input.idempotency_key, async (trx, now) => {
    const place = await jobPlace(trx, input.job_key)
    if (!place) throw jobNotFound()
    const [own] = await lockMaterial(trx, place.work_order_id, place.phase_id)
    const job = (await lockJob(trx, input.job_key))!
    assertRunningOperator(actor, job)
    if (job.active_batch_id) throw conflict('BATCH_ALREADY_OPEN', 'the job already has an open batch', { batch_key: job.active_batch_id })
    const phase = await phaseInfo(trx, job.phase_id)
    if (nextBatchQt(phase.parameters.production_batch_qt, job, own) <= 0) throw unprocessable('NO_MATERIAL', 'no material available for the next piece')
    const opened = await openBatch(trx, actor, job, phase, own, now, null)
    return outcome(trx, opened.job, opened.material, 'continue')
  })
}

/**
 * Sign-out hook (session service: logout and DELETE session/{key}): pauses the running jobs
 * whose open work session belongs to that sign-in session (JOB_PAUSED, reason sign_out).
 * Runs inside the caller's transaction. A sign-out caused by a 401 never reaches the server.
 */
export async function pauseJobsOfSession(db: Db, actor: Actor, authSessionId: string, now: Date): Promise<string[]> {
  const open = await db
    .selectFrom('work_sessions')
    .select('job_id')
    .where('auth_session_id', '=', authSessionId)
    .where('ended_at', 'is', null)
    .orderBy('job_id')
    .execute()
  if (open.length === 0) return []
  const paused: string[] = []
  for (const job of await lockJobs(db, open.map((r) => r.job_id))) {
    if (!job.active) continue
    await stopWork(db, actor, job, now, { status: 'paused', endReason: 'sign_out', event: 'JOB_PAUSED', data: { signed_out_session: authSessionId } })
    paused.push(job.id)
  }
  return paused
}
