/**
 * The heartbeat of a running job (`POST job/{id}/heartbeat`): the steady state goes through the
 * batched writer (heartbeat-writer.ts); a locked session, a job no longer running or the end of
 * a silence (offline.ts) take a transaction here.
 */
import type { HeartbeatInput, HeartbeatResult } from '../../../src/domains/execution/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor } from '../../context'
import { heartbeatWriter } from './heartbeat-writer'
import { endOfflinePeriod } from './offline'
import { type JobRow, lockJob, phaseInfo } from './queries'
import { jobNotFound, notYours, stopWork, type Svc } from './shared'

function stopReason(job: JobRow): HeartbeatResult['reason'] {
  if (job.status === 'closed') return 'closed'
  if (job.paused_offline) return 'paused_offline'
  return job.status === 'queued' ? 'queued' : 'paused'
}

/**
 * `POST job/{id}/heartbeat`: the running operator's client says it is alive (every 10 s). Sets
 * last_heartbeat_at only; never user activity. With the operator's session locked and
 * unsupervised work not allowed in the phase, the job pauses (JOB_PAUSE_FORCED) and the answer
 * says so. A heartbeat after a silence longer than BACK_ONLINE_AFTER_MS records BACK_ONLINE.
 * The steady state (running, own job, no gap, session not locked) is one batched UPDATE
 * (heartbeat-writer.ts); everything else takes a transaction with the job row locked.
 */
export async function heartbeat(svc: Svc, actor: Actor, input: HeartbeatInput, opts: { sessionLocked: boolean }): Promise<HeartbeatResult> {
  if (!isUuid(input.job_key)) throw jobNotFound()
  const now = svc.clock.now()
  const answer = (running: boolean, reason: HeartbeatResult['reason'], backOnline = false): HeartbeatResult => ({
    job_key: input.job_key,
    running,
    reason,
    back_online: backOnline,
    server_time: now.getTime(),
  })
  if (!opts.sessionLocked && (await heartbeatWriter(svc.db).write(input.job_key, actor.userId, now))) return answer(true, null)
  return svc.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, input.job_key)
    if (!job) throw jobNotFound()
    if (job.operator_id !== actor.userId) throw notYours()
    if (!job.active) {
      // The first heartbeat since a forced pause for silence ends that offline period.
      const back = job.paused_offline && (await endOfflinePeriod(trx, actor, job, now, { detected_by: 'heartbeat' }))
      return answer(false, stopReason(job), back)
    }
    const phase = await phaseInfo(trx, job.phase_id)
    if (opts.sessionLocked && !phase.parameters.unsupervised_work_allowed) {
      await stopWork(trx, actor, job, now, { status: 'paused', endReason: 'session_locked', event: 'JOB_PAUSE_FORCED' })
      return answer(false, 'session_locked')
    }
    if (await endOfflinePeriod(trx, actor, job, now, { detected_by: 'heartbeat' })) return answer(true, null, true)
    await trx.updateTable('jobs').set({ last_heartbeat_at: now }).where('id', '=', job.id).execute()
    return answer(true, null)
  })
}
