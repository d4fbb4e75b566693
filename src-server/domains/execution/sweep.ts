import { sql } from 'kysely'
import type { Services } from '../../context'
import { IDEMPOTENCY_TTL_MS } from './idempotency'
import { forcePauseOffline } from './offline'

/**
 * Periodic work of the execution engine (run by src-server/sweeps.ts), safe with several app
 * instances on one database:
 * - offline sweep: running jobs whose heartbeat has been silent longer than their phase's
 *   max_offline are force-paused (JOB_PAUSE_FORCED, paused offline). Each job is paused in its
 *   own short transaction that locks the job row with FOR UPDATE SKIP LOCKED and checks the
 *   condition again, so two sweeps never pause a job twice and never wait on each other.
 * - idempotency keys older than IDEMPOTENCY_TTL_MS are deleted.
 */

const SWEEP_BATCH = 500

/** Running jobs silent for longer than their max_offline (max_offline 0: never). */
export async function offlineCandidates(svc: Pick<Services, 'db'>, now: Date): Promise<string[]> {
  const rows = await svc.db
    .selectFrom('jobs as j')
    .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
    .select('j.id')
    .where('j.active', '=', true)
    .where(sql<boolean>`coalesce((ph.parameters->>'max_offline')::int, 300) > 0`)
    .where(
      sql<boolean>`coalesce(j.last_heartbeat_at, j.updated_at) < ${now}::timestamptz - make_interval(secs => coalesce((ph.parameters->>'max_offline')::int, 300))`,
    )
    .orderBy('j.last_heartbeat_at')
    .limit(SWEEP_BATCH)
    .execute()
  return rows.map((r) => r.id)
}

export async function sweepOffline(svc: Pick<Services, 'db' | 'clock'>): Promise<string[]> {
  const now = svc.clock.now()
  const paused: string[] = []
  for (const id of await offlineCandidates(svc, now)) {
    if (await forcePauseOffline(svc.db, id, now)) paused.push(id)
  }
  return paused
}

export async function expireIdempotencyKeys(svc: Pick<Services, 'db' | 'clock'>): Promise<number> {
  const cutoff = new Date(svc.clock.now().getTime() - IDEMPOTENCY_TTL_MS)
  const res = await svc.db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(res.numDeletedRows)
}
