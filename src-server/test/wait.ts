import { sql } from 'kysely'
import type { Db } from '../db/schema'

/**
 * Waits until `check` holds, polling every `everyMs`, for at most `timeoutMs`; then fails naming
 * `what`. Tests wait for the state they need (a delivery recorded, a job paused), never a fixed time.
 */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, { timeoutMs = 30_000, everyMs = 50 } = {}): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await Bun.sleep(everyMs)
  }
}

/**
 * Waits until at least `count` connections to the test's own database are blocked on a lock
 * (PostgreSQL): a call is seen waiting behind a held lock instead of assumed to after a sleep.
 */
export async function untilBlockedOnLock(db: Db, count: number, what: string): Promise<void> {
  await waitUntil(what, async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
    return rows[0]!.n >= count
  })
}
