/**
 * Whether an operator write may act on its job, and the time an offline write was made (issue
 * 24): a write acts on a running job of its operator; a write kept offline (`client_time`) may
 * also reach a job the server force-paused for silence after the write was made. Everything here
 * runs inside the write's idempotent transaction, so a retry of a write already accepted answers
 * its first outcome whatever its age.
 */
import { CLIENT_TIME_SKEW_MS, clientTimeProblem, pausedWriteProblem } from '../../../src/domains/execution/rules'
import { isUuid } from '../../../src/uuid'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict } from '../../errors'
import { pauseForSilence } from './offline'
import { batchPlace, type JobRow, lockBatch, lockBatchSteps, lockJob, lockMaterial, type MaterialRow, materialOf, phaseInfo } from './queries'
import { batchNotFound, jobClosed, notRunning, notYours } from './shared'

/** The event data that records the client time (nothing when the client sent none); refuses one out of bounds. */
export function clientTimeData(clientTime: number | undefined, now: Date, maxOfflineS: number): { client_time?: number } {
  if (clientTime === undefined) return {}
  const problem = clientTimeProblem(clientTime, now.getTime(), maxOfflineS)
  if (problem === 'future') throw inFuture(now)
  if (problem === 'past_max_offline') {
    throw conflict('CLIENT_TIME_PAST_MAX_OFFLINE', `made more than the phase's max_offline (${maxOfflineS} s) ago: its work session was closed for silence`, {
      client_time: clientTime,
      server_time: now.getTime(),
      max_offline_s: maxOfflineS,
    })
  }
  return { client_time: clientTime }
}

const inFuture = (now: Date) =>
  badRequest('CLIENT_TIME_IN_FUTURE', `client_time is more than ${CLIENT_TIME_SKEW_MS / 1000} s ahead of the server clock`, { server_time: now.getTime() })

/** The work session a forced pause for silence closed: the job's last one. */
export type ClosedSession = { id: string; started_at: Date; ended_at: Date }

/**
 * What a write may do on its job. `late`: the job was force-paused for silence after the write was
 * made (its `session` is the one that pause closed): the write is recorded into the paused job,
 * which stays paused. The job is the row as it is now (paused here if it was due).
 */
export type Admitted = { job: JobRow; clientTime: { client_time?: number }; late: ClosedSession | null }

/**
 * Admits an operator write on a locked job: the job's operator (403 JOB_NOT_YOURS), not closed
 * (409 JOB_CLOSED), and
 * - running: as before, its client time within the phase's max_offline of now (clientTimeData).
 *   A running job silent for longer than its max_offline is first force-paused here, by the rule
 *   of the offline sweep and of the back-online call (pauseForSilence): a kept write reaching it
 *   before the sweep did is judged as it would be after, by the pause point;
 * - force-paused for silence (paused_offline) and the write kept offline: accepted when it was made
 *   by the pause point within the closed session (rules.ts pausedWriteProblem), refused 409
 *   CLIENT_TIME_PAST_MAX_OFFLINE when made after it, JOB_NOT_RUNNING when made before that session;
 * - paused any other way (by production, by the operator, by a sign-out), or force-paused and the
 *   write made online: 409 JOB_NOT_RUNNING, as before.
 */
export async function admitWrite(db: Db, actor: Actor, locked: JobRow, maxOfflineS: number, clientTime: number | undefined, now: Date): Promise<Admitted> {
  let job = locked
  if (job.operator_id !== actor.userId) throw notYours()
  if (job.status === 'closed') throw jobClosed()
  if (clientTime !== undefined && clientTimeProblem(clientTime, now.getTime(), 0) === 'future') throw inFuture(now)
  if (job.active && clientTime !== undefined) job = (await pauseForSilence(db, job, maxOfflineS, now)) ?? job
  if (job.active) return { job, clientTime: clientTimeData(clientTime, now, maxOfflineS), late: null }
  if (clientTime === undefined || !job.paused_offline) throw notRunning()
  const session = await db
    .selectFrom('work_sessions')
    .select(['id', 'started_at', 'ended_at'])
    .where('job_id', '=', job.id)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!session?.ended_at) throw notRunning()
  const closed = { id: session.id, started_at: session.started_at, ended_at: session.ended_at }
  const problem = pausedWriteProblem(clientTime, { started_at: closed.started_at.getTime(), ended_at: closed.ended_at.getTime() })
  if (problem === 'before_session') throw notRunning()
  if (problem === 'after_pause_point') {
    throw conflict(
      'CLIENT_TIME_PAST_MAX_OFFLINE',
      `made after the job was paused for silence (its work session closed at ${closed.ended_at.toISOString()}, max_offline after its last sign of life)`,
      { client_time: clientTime, server_time: now.getTime(), max_offline_s: maxOfflineS, paused_at: closed.ended_at.getTime() },
    )
  }
  return { job, clientTime: { client_time: clientTime }, late: closed }
}

/** When the write's facts happened (a step done, a batch completed): when it was made, never later than now. */
export const factTime = (clientTime: { client_time?: number }, now: Date) =>
  clientTime.client_time === undefined ? now : new Date(Math.min(clientTime.client_time, now.getTime()))

/**
 * Locks what a step or batch write needs: the work order and material rows when the batch may
 * complete (completions; saving answers needs none), then the job, which must admit the write
 * (admitWrite), the batch (still open, else 409 BATCH_NOT_OPEN) and its steps.
 */
export async function lockForStep(db: Db, actor: Actor, batchKey: string, opts: { material: boolean; clientTime: number | undefined; now: Date }) {
  const place = isUuid(batchKey) ? await batchPlace(db, batchKey) : undefined
  if (!place) throw batchNotFound()
  const material = opts.material
    ? await lockMaterial(db, place.work_order_id, place.phase_id)
    : ([(await materialOf(db, place.work_order_id, place.phase_id))!, undefined] as [MaterialRow, undefined])
  const locked = (await lockJob(db, place.job_id))!
  const phase = await phaseInfo(db, locked.phase_id)
  const { job, clientTime, late } = await admitWrite(db, actor, locked, phase.parameters.max_offline, opts.clientTime, opts.now)
  const batch = (await lockBatch(db, batchKey))!
  if (batch.status !== 'open') throw conflict('BATCH_NOT_OPEN', 'the batch is already completed', { batch_key: batch.id })
  const steps = await lockBatchSteps(db, batchKey)
  return { material, job, batch, steps, phase, clientTime, late }
}
