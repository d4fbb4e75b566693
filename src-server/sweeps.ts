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
export function startSweeps(svc: Pick<Services, 'db' | 'clock'>, opts: { everyMs?: number; log?: (line: string) => void } = {}): () => Promise<void> {
  const everyMs = opts.everyMs ?? 5_000
  let running: Promise<void> | null = null
  const tick = () => {
    if (running) return
    running = runSweeps(svc)
      .then((r) => {
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
