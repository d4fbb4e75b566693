import { componentQuantity, type QuantityPer } from '../products/bom'
import { availableQt, remainingQt } from '../jobs/rules'

/**
 * Execution rules both sides agree on (DOMAIN.md "Running a job", "Material flow between
 * phases"). Pure functions: the execution service enforces them, the operator screens use them
 * to show what comes next.
 */

type JobQts = { quantity: number; completed_qt: number; active_qt: number }
type PhaseMaterial = { released_in_qt: number; taken_qt: number }

/**
 * Pieces of the next batch: `production_batch_qt` (0 = the whole remaining job quantity), never
 * more than the material available to this job; the last batch may be smaller. 0 = no batch
 * can open (nothing left to do, or no material).
 */
export function nextBatchQt(productionBatchQt: number, job: JobQts, phase: PhaseMaterial): number {
  const wanted = productionBatchQt > 0 ? productionBatchQt : remainingQt(job)
  return Math.max(0, Math.min(wanted, availableQt(job, phase)))
}

// Releases downstream follow `releaseDue` of src/domains/jobs/rules.ts (one rule for every writer).

export type BomLineForBatch = { quantity: number; quantity_per: QuantityPer }

/**
 * Component quantity consumed by one batch of `pieces`: per item x pieces, per batch once per
 * batch, per job once (with the job's first batch), 0 afterwards.
 */
export function batchConsumption(line: BomLineForBatch, pieces: number, firstBatchOfJob: boolean): number {
  if (line.quantity_per === 'job' && !firstBatchOfJob) return 0
  return Math.round(componentQuantity(line, pieces, 1) * 10_000) / 10_000
}

/** Several jobs may run at once for one operator only where every one of their phases allows it. */
export const parallelAllowed = (phases: readonly { parallel_job_allowed: boolean }[]) =>
  phases.length <= 1 || phases.every((p) => p.parallel_job_allowed)

/** Why a job cannot be started or resumed now (SPEC 4 start/resume; DOMAIN.md "Running a job"). */
export const START_BLOCKERS = ['closed', 'running', 'not_yours', 'no_material', 'parallel_not_allowed'] as const
export type StartBlocker = (typeof START_BLOCKERS)[number]

/**
 * The one start rule, for the work session's buttons, every write's answer and the operator's
 * job list: null when the job can start (or resume) now, else why not. A job starts when it is
 * not closed, not running, the operator may take it, it has an open batch or material for a new
 * one, and every job they already run allows parallel work together with it.
 */
export function startBlocker(
  job: { status: string; active: boolean; has_open_batch: boolean; new_batch_qt: number; parallel_job_allowed: boolean },
  who: { may_take: boolean; running_elsewhere: readonly { parallel_job_allowed: boolean }[] },
): StartBlocker | null {
  if (job.status === 'closed') return 'closed'
  if (job.active) return 'running'
  if (!who.may_take) return 'not_yours'
  if (!job.has_open_batch && job.new_batch_qt <= 0) return 'no_material'
  if (who.running_elsewhere.length > 0 && !parallelAllowed([...who.running_elsewhere, job])) return 'parallel_not_allowed'
  return null
}

/** Worked time of a job: the closed work sessions plus the open one so far. */
export const workedMs = (timeSpentMs: number, openSessionStartedAt: number | null, now: number) =>
  timeSpentMs + (openSessionStartedAt === null ? 0 : Math.max(0, now - openSessionStartedAt))

/** Expected time for `pieces` pieces: std_processing_time (seconds per piece) x pieces. */
export const expectedMs = (stdProcessingTimeS: number, pieces: number) => stdProcessingTimeS * 1000 * pieces

/**
 * A job's phase with max_offline > 0 force-pauses a running job silent for longer than that;
 * max_offline 0 means the job is never paused for silence.
 */
export const offlineTooLong = (maxOfflineS: number, lastHeartbeatAt: number, now: number) =>
  maxOfflineS > 0 && now - lastHeartbeatAt > maxOfflineS * 1000

/**
 * Where a work session closed for silence ends (server force-pause and the client's own close
 * alike): max_offline after the last sign of life, never later than now. The operator's client
 * keeps the session open (and its timer running) for max_offline without a connection, so that
 * time is work time; a job paused before its first heartbeat counts its max_offline too (start
 * is its first sign of life), not 0 s.
 */
export const offlineSessionEnd = (lastSignAt: number, maxOfflineS: number, now: number) => Math.min(now, lastSignAt + maxOfflineS * 1000)

/** The steps an operator may not skip yet: with forced order, every earlier step not done. */
export function earlierStepsPending(steps: readonly { _key: string; position: number; done: boolean }[], stepKey: string): string[] {
  const target = steps.find((s) => s._key === stepKey)
  if (!target) return []
  return steps.filter((s) => s.position < target.position && !s.done).map((s) => s._key)
}

/** Heartbeat interval of the client (SPEC 9) and the silence after which a heartbeat counts as "back online". */
export const HEARTBEAT_INTERVAL_MS = 10_000
export const BACK_ONLINE_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS

/**
 * How far ahead of the server's clock a client's offline_since (back online) may be: the client
 * sends the server time of its last answered heartbeat, so only a little slack is needed.
 * Further ahead is refused (400 OFFLINE_SINCE_IN_FUTURE): an offline period cannot start later
 * than it ends.
 */
export const OFFLINE_SINCE_SKEW_MS = 60_000

/**
 * A write made offline and sent later (the tablet's queue, issue 24) says when it was made:
 * `client_time`, the server's clock as the client reckons it (UTC ms). A little ahead is clock
 * drift; further is refused (400 CLIENT_TIME_IN_FUTURE). Reaching a job that still runs, made
 * longer ago than the phase's max_offline (0 = no limit) it is refused (409
 * CLIENT_TIME_PAST_MAX_OFFLINE): the client closes its work session after max_offline without a
 * connection, so nothing it made that long ago belongs to the session still open. A job the
 * server force-paused for silence meanwhile is judged by its pause point instead
 * (pausedWriteProblem).
 */
export const CLIENT_TIME_SKEW_MS = 60_000
export function clientTimeProblem(clientTime: number, now: number, maxOfflineS: number): 'future' | 'past_max_offline' | null {
  if (clientTime > now + CLIENT_TIME_SKEW_MS) return 'future'
  if (maxOfflineS > 0 && now - clientTime > maxOfflineS * 1000) return 'past_max_offline'
  return null
}

/**
 * A write kept offline that reaches a job the server force-paused for silence meanwhile (the
 * offline sweep, or the back-online call first). That pause closed the job's work session at its
 * pause point: max_offline after the last sign of life, or earlier when the sweep came first
 * (offlineSessionEnd, the session's `ended_at`). The write is judged against that point, not
 * against the time it arrives:
 * - made by then, within that session (its start less the clock's slack): accepted into the
 *   paused job (null), which stays paused;
 * - made after it: 'after_pause_point', refused as past max_offline;
 * - made before that session began: 'before_session', not that session's (refused as not running).
 */
export function pausedWriteProblem(clientTime: number, session: { started_at: number; ended_at: number }): 'after_pause_point' | 'before_session' | null {
  if (clientTime > session.ended_at) return 'after_pause_point'
  if (clientTime < session.started_at - CLIENT_TIME_SKEW_MS) return 'before_session'
  return null
}
