/**
 * The idempotency key of operator writes: claimed in the write's own transaction, so a retry
 * answers the first outcome and a refused action leaves no key behind. The TTL is read by the
 * sweep that forgets old keys.
 */
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { conflict } from '../../errors'
import type { Svc } from './shared'

/** How long a retry can still get its first answer back. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000

/**
 * Runs `fn` in a transaction that first claims the idempotency key. A key already used by this
 * user for this action answers the stored outcome (no second effect); used for another action
 * or by another user: 409 IDEMPOTENCY_KEY_REUSED. A concurrent retry waits on the key's row
 * until the first attempt commits (then answers its outcome) or rolls back (then runs itself).
 */
export async function idempotent<T>(svc: Svc, actor: Actor, action: string, key: string, fn: (trx: Db, now: Date) => Promise<T>): Promise<T> {
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({ key, user_id: actor.userId, action, response: 'null', created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst()
    if (!claimed) {
      const prior = await trx.selectFrom('idempotency_keys').select(['user_id', 'action', 'response']).where('key', '=', key).executeTakeFirstOrThrow()
      if (prior.user_id !== actor.userId || prior.action !== action) {
        throw conflict('IDEMPOTENCY_KEY_REUSED', 'this idempotency_key was already used for another action: make a new one per action')
      }
      return prior.response as T
    }
    const result = await fn(trx, now)
    await trx.updateTable('idempotency_keys').set({ response: JSON.stringify(result) }).where('key', '=', key).execute()
    return result
  })
}
