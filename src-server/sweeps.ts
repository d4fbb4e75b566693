import { sql } from 'kysely'
import { forgetOldFailures } from './auth/throttle'
import type { Services } from './context'
import { expireIdempotencyKeys, sweepOffline } from './domains/execution/sweep'
import { escalateOverdue } from './domains/issues/escalation'

/**
 * The periodic work of every domain, each part safe with several app instances on one database:
 * offline jobs are force-paused, overdue issues escalate, old idempotency keys expire, failed
 * sign-in counters every throttling rule has forgotten are deleted.
 */
export type SweepReport = { paused: string[]; escalated: string[]; expiredKeys: number; forgottenSignInCounters: number }

/** The PostgreSQL advisory lock only one instance at a time holds while it sweeps. */
export const SWEEP_LOCK_KEY = 727_100

/**
 * One sweep round unless another instance on the same database is running one right now
 * (`pg_try_advisory_lock` on a pinned connection; a killed instance's lock goes with its
 * connection). Returns null when skipped. PGlite is one process: no lock needed.
 */
export async function runSweepsLocked(svc: Pick<Services, 'db' | 'clock' | 'dbKind'>): Promise<SweepReport | null> {
  if (svc.dbKind !== 'postgres') return runSweeps(svc)
  return svc.db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${SWEEP_LOCK_KEY}) as ok`.execute(conn)
    if (!got.rows[0]?.ok) return null
    try {
      return await runSweeps(svc)
    } finally {
      await sql`select pg_advisory_unlock(${SWEEP_LOCK_KEY})`.execute(conn)
    }
  })
}

export async function runSweeps(svc: Pick<Services, 'db' | 'clock'>): Promise<SweepReport> {
  return {
    paused: await sweepOffline(svc),
    escalated: await escalateOverdue(svc),
    expiredKeys: await expireIdempotencyKeys(svc),
    forgottenSignInCounters: await forgetOldFailures(svc),
  }
}

/**
 * Runs the sweeps every `everyMs` (never two at once in this process); main.ts starts it, tests
 * call the sweep functions with a fake clock instead. Returns a stop function.
 */
export function startSweeps(svc: Pick<Services, 'db' | 'clock' | 'dbKind'>, opts: { everyMs?: number; log?: (line: string) => void } = {}): () => Promise<void> {
  const everyMs = opts.everyMs ?? 5_000
  let running: Promise<void> | null = null
  const tick = () => {
    if (running) return
    running = runSweepsLocked(svc)
      .then((r) => {
        if (!r) return
        if (r.paused.length) opts.log?.(`offline sweep: force-paused ${r.paused.length} job(s)`)
        if (r.escalated.length) opts.log?.(`escalation sweep: ${r.escalated.length} issue(s) turned critical`)
      })
      .catch((e) => console.error('[sweep] failed:', e instanceof Error ? e.message : e))
      .finally(() => {
        running = null
      })
  }
  const timer = setInterval(tick, everyMs)
  return async () => {
    clearInterval(timer)
    await running
  }
}
