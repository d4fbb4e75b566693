import type { Actor, Services } from '../../context'
import { AppError } from '../../errors'
import { pauseJob, startJobs } from '../../domains/execution/start-pause'

/**
 * Work in progress on the demo floor, started through the execution service like an operator
 * screen would: operatore1 has a job paused with its batch open, capoturno one running. Nobody's
 * screen sends heartbeats for the running one, so after its phase's max_offline the offline sweep
 * pauses it (paused offline) — the demo then shows that state too. The demo runs it right after
 * the work orders' history, on a fresh plant; it does nothing while someone is working (a running
 * job). Returns "username: job state" lines.
 */
const PLAN = [
  { username: 'operatore1', leave: 'paused' },
  { username: 'capoturno', leave: 'running' },
] as const

export async function seedDemoExecution(svc: Services): Promise<string[]> {
  if (await svc.db.selectFrom('jobs').select('id').where('active', '=', true).limit(1).executeTakeFirst()) return []
  const done: string[] = []
  for (const plan of PLAN) {
    const user = await svc.db.selectFrom('users').select(['id', 'scope']).where('username', '=', plan.username).where('archived_at', 'is', null).executeTakeFirst()
    if (!user) continue
    const actor: Actor = { userId: user.id, sessionId: null, scope: user.scope, tokenId: null }
    const queue = await svc.db
      .selectFrom('jobs')
      .select('id')
      .where('operator_id', '=', user.id)
      .where('status', '<>', 'closed')
      .orderBy('wo_sequence')
      .orderBy('position')
      .execute()
    for (const job of queue) {
      try {
        await startJobs(svc, actor, { job_keys: [job.id], idempotency_key: crypto.randomUUID() })
      } catch (e) {
        // Not startable (no material yet): the next job of the queue.
        if (e instanceof AppError) continue
        throw e
      }
      if (plan.leave === 'paused') await pauseJob(svc, actor, { job_key: job.id, idempotency_key: crypto.randomUUID() })
      done.push(`${plan.username}: ${plan.leave}`)
      break
    }
  }
  return done
}
