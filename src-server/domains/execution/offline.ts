/**
 * A job whose operator's client went silent: the forced pause after max_offline (the offline
 * sweep, or the client's own back-online call first), and one BACK_ONLINE per offline period,
 * recorded by whoever notices the way back first (a heartbeat or the back-online call).
 */
import { BACK_ONLINE_AFTER_MS, OFFLINE_SINCE_SKEW_MS, offlineSessionEnd, offlineTooLong } from '../../../src/domains/execution/rules'
import type { BackOnlineInput, BackOnlineResult } from '../../../src/domains/execution/schemas'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import { isUuid } from '../../../src/uuid'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest } from '../../errors'
import { appendEvent } from '../events/service'
import { idempotent } from './idempotency'
import { jobState } from './job-state'
import { type JobRow, lockJob, materialOf, openWorkSession, phaseInfo } from './queries'
import { jobEvent, jobNotFound, notYours, stopWork, type Svc } from './shared'

/**
 * Whether the job is in an offline period nobody reported yet. The job's last sign of life is
 * jobs.last_heartbeat_at (start and resume set it too); the period is open while nothing was
 * heard since it went silent:
 * - paused offline: no heartbeat since the forced pause (its work session ended after that sign);
 * - running: silent for longer than BACK_ONLINE_AFTER_MS;
 * - the client's own report: nothing heard since the `offline_since` it names.
 */
async function offlinePeriodOpen(db: Db, job: JobRow, now: Date, offlineSince?: number): Promise<boolean> {
  const last = job.last_heartbeat_at?.getTime() ?? null
  if (offlineSince !== undefined && (last === null || last <= offlineSince)) return true
  if (job.active) return last !== null && now.getTime() - last > BACK_ONLINE_AFTER_MS
  if (!job.paused_offline) return false
  const pause = await db.selectFrom('work_sessions').select('ended_at').where('job_id', '=', job.id).orderBy('started_at', 'desc').limit(1).executeTakeFirst()
  return !!pause?.ended_at && (last === null || last <= pause.ended_at.getTime())
}

/**
 * One reconnection = one BACK_ONLINE (issue 11): whoever notices the way back first (a heartbeat
 * or the client's back-online call) records it and moves last_heartbeat_at to now, which closes
 * the period, so a second report of the same period (a retry, another call of the client, the
 * next heartbeat) records nothing. Returns whether this call recorded it. Job row locked.
 */
export async function endOfflinePeriod(
  db: Db,
  actor: Actor,
  job: JobRow,
  now: Date,
  report: { detected_by: 'heartbeat' | 'client'; offline_since?: number },
): Promise<boolean> {
  if (!(await offlinePeriodOpen(db, job, now, report.offline_since))) return false
  const since = report.offline_since ?? job.last_heartbeat_at?.getTime() ?? null
  await db.updateTable('jobs').set({ last_heartbeat_at: now }).where('id', '=', job.id).execute()
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'BACK_ONLINE', {
      detected_by: report.detected_by,
      offline_since: since,
      offline_ms: since === null ? null : Math.max(0, now.getTime() - since),
      paused_offline: job.paused_offline,
    }),
    now,
  )
  return true
}

/**
 * The client is back online after closing the job's work session for silence (`offline_since`:
 * the server time of its last answered heartbeat). A job the sweep has not force-paused yet but
 * silent longer than max_offline is force-paused now by the same rule; then BACK_ONLINE is
 * recorded once per offline period (`recorded` false: already reported). An offline_since ahead
 * of the server's clock by more than OFFLINE_SINCE_SKEW_MS is refused (400).
 */
export async function backOnline(svc: Svc, actor: Actor, input: BackOnlineInput): Promise<BackOnlineResult> {
  if (input.offline_since !== undefined && input.offline_since > svc.clock.now().getTime() + OFFLINE_SINCE_SKEW_MS) {
    throw badRequest('OFFLINE_SINCE_IN_FUTURE', 'offline_since is in the future: send the server time of the last answered heartbeat', {
      server_time: svc.clock.now().getTime(),
    })
  }
  return idempotent(svc, actor, `back-online:${input.job_key}`, input.idempotency_key, async (trx, now) => {
    let job = isUuid(input.job_key) ? await lockJob(trx, input.job_key) : undefined
    if (!job) throw jobNotFound()
    if (job.operator_id !== actor.userId) throw notYours()
    if (job.active) {
      const { parameters } = await phaseInfo(trx, job.phase_id)
      job = (await pauseForSilence(trx, job, parameters.max_offline, now)) ?? job
    }
    const recorded = await endOfflinePeriod(trx, actor, job, now, { detected_by: 'client', offline_since: input.offline_since })
    const material = (await materialOf(trx, job.work_order_id, job.phase_id))!
    return { job: await jobState(trx, job, material), recorded }
  })
}

/**
 * Force-pauses one running job (offline sweep): see pauseForSilence. Returns false when another
 * sweep got there first or the job beat again meanwhile.
 */
export async function forcePauseOffline(db: Db, jobId: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const job = await trx
      .selectFrom('jobs as j')
      .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
      .selectAll('j')
      .select('ph.parameters')
      .where('j.id', '=', jobId)
      .where('j.active', '=', true)
      .forUpdate('j')
      .skipLocked()
      .executeTakeFirst()
    if (!job) return false
    const { parameters, ...row } = job
    return (await pauseForSilence(trx, row as JobRow, withPhaseDefaults(parameters).max_offline, now)) !== null
  })
}

/**
 * A running job silent for longer than its max_offline (0 = never) pauses: JOB_PAUSE_FORCED
 * with paused_offline; its work session ends max_offline after the last sign of life
 * (offlineSessionEnd: the time the operator's client kept the session open offline, so the work
 * timer never runs backwards, and a job silent since its start counts that time, not 0 s), with
 * reason 'offline'. The event carries the operator and the sign-in session of the work session;
 * `by: 'server'`. Job row locked by the caller. Returns the paused job, or null (not silent long enough).
 */
export async function pauseForSilence(db: Db, job: JobRow, maxOfflineS: number, now: Date): Promise<JobRow | null> {
  const last = job.last_heartbeat_at ?? job.updated_at
  if (!offlineTooLong(maxOfflineS, last.getTime(), now.getTime())) return null
  const ws = await openWorkSession(db, job.id)
  const actor: Actor = { userId: ws?.user_id ?? job.operator_id ?? '', sessionId: ws?.auth_session_id ?? null, scope: '', tokenId: null }
  return stopWork(db, actor.userId ? actor : null, job, now, {
    status: 'paused',
    endReason: 'offline',
    event: 'JOB_PAUSE_FORCED',
    endedAt: new Date(offlineSessionEnd(last.getTime(), maxOfflineS, now.getTime())),
    pausedOffline: true,
    data: { by: 'server', max_offline_s: maxOfflineS, last_heartbeat_at: last.getTime() },
  })
}
