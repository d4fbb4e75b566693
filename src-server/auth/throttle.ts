import type { Db } from '../db/connect'
import { AppError } from '../errors'

/**
 * Failed sign-ins are counted per user and per address in the database (shared by every
 * instance). A user is blocked briefly after a few failures, doubling up to a short cap, so an
 * attacker cannot lock the real user out for long; an address gets a higher threshold and a
 * longer block.
 */
const RULES = {
  // `blockAt`: the failure that starts the first block (5 failures, then the 6th attempt waits).
  user: { blockAt: 5, firstBlockMs: 30_000, maxBlockMs: 5 * 60_000 },
  ip: { blockAt: 30, firstBlockMs: 60_000, maxBlockMs: 15 * 60_000 },
} as const
/** Failures older than this are forgotten. */
const FORGET_AFTER_MS = 15 * 60_000

type Kind = keyof typeof RULES
const keysFor = (username: string, ip: string | null) =>
  [['user', `user:${username.toLowerCase()}`], ...(ip ? [['ip', `ip:${ip}`]] : [])] as [Kind, string][]

export async function assertNotThrottled(db: Db, username: string, ip: string | null, now: Date): Promise<void> {
  const keys = keysFor(username, ip).map(([, k]) => k)
  const rows = await db.selectFrom('login_throttle').selectAll().where('key', 'in', keys).execute()
  const until = Math.max(0, ...rows.map((r) => r.blocked_until?.getTime() ?? 0))
  if (until > now.getTime()) {
    const seconds = Math.ceil((until - now.getTime()) / 1000)
    throw new AppError(429, 'LOGIN_THROTTLED', `too many failed attempts: try again in ${seconds} s`, {
      retry_after: seconds,
    })
  }
}

export async function recordFailure(db: Db, username: string, ip: string | null, now: Date): Promise<void> {
  for (const [kind, key] of keysFor(username, ip)) {
    const rule = RULES[kind]
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('login_throttle').selectAll().where('key', '=', key).forUpdate().executeTakeFirst()
      const stale = !row || now.getTime() - row.last_failure_at.getTime() > FORGET_AFTER_MS
      const failures = stale ? 1 : row.failures + 1
      const over = failures - rule.blockAt + 1
      const blockMs = over > 0 ? Math.min(rule.firstBlockMs * 2 ** (over - 1), rule.maxBlockMs) : 0
      const values = {
        failures,
        last_failure_at: now,
        blocked_until: blockMs ? new Date(now.getTime() + blockMs) : null,
      }
      await trx
        .insertInto('login_throttle')
        .values({ key, ...values })
        .onConflict((oc) => oc.column('key').doUpdateSet(values))
        .execute()
    })
  }
}

export async function clearFailures(db: Db, username: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', `user:${username.toLowerCase()}`).execute()
}
