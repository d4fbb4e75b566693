import type { Db } from '../db/connect'
import { AppError } from '../errors'

const SECOND = 1000
const MINUTE = 60 * SECOND

/**
 * Sign-in throttling that stops guessing without locking the real user out. Password checks
 * (sign-in, unlock, password change) are counted in the database, shared by every instance,
 * under three keys:
 *
 * - the pair (account, source): from its 5th failure the pair waits 1 s, then 2 s, 4 s ... up to
 *   5 minutes before its next attempt. Only this pair waits: the owner signing in to the same
 *   account from another address is not refused because of it. Forgotten 15 minutes after its
 *   last failure, and at once when the pair passes a check.
 * - the account, across all sources: 20 failures (a guesser spread over many addresses) refuse
 *   nobody by themselves; they make every pair of that account that has failed at all wait from
 *   its first failure (1 s, 2 s ...). A source with no failure for the account, like the owner's
 *   own tablet, still signs in at once. Forgotten 15 minutes after its last failure.
 * - the source, across accounts: 100 failures in 10 minutes (counted from the first one) is far
 *   beyond what a floor of tablets behind one NAT mistypes, so only a script spraying passwords
 *   over many accounts gets there; then every attempt from that source waits 1 s, 2 s ... up to
 *   5 minutes, until the window ends. A script retrying one account is held by its pair long
 *   before that.
 *
 * An attempt inside a wait is refused (429 LOGIN_THROTTLED with `retry_after` seconds) without
 * checking the password and without counting. Waits are computed from the counters when
 * checked, so nothing else is stored.
 */
export const THROTTLE = {
  pair: { waitFrom: 5, firstWaitMs: SECOND, maxWaitMs: 5 * MINUTE, forgetAfterMs: 15 * MINUTE },
  account: { underAttackAt: 20, forgetAfterMs: 15 * MINUTE },
  source: { waitFrom: 100, windowMs: 10 * MINUTE, firstWaitMs: SECOND, maxWaitMs: 5 * MINUTE },
} as const

type Kind = keyof typeof THROTTLE
type Counter = { failures: number; window_started_at: Date; last_failure_at: Date }

/** Whether a rule still remembers a counter: pairs and accounts since their last failure, sources within their window. */
const REMEMBERS: Record<Kind, (row: Counter, now: number) => boolean> = {
  pair: (row, now) => now - row.last_failure_at.getTime() < THROTTLE.pair.forgetAfterMs,
  account: (row, now) => now - row.last_failure_at.getTime() < THROTTLE.account.forgetAfterMs,
  source: (row, now) => now - row.window_started_at.getTime() < THROTTLE.source.windowMs,
}

/** How old a counter may get before every rule has forgotten it (the sweep deletes older ones). */
const FORGET_ALL_MS = Math.max(THROTTLE.pair.forgetAfterMs, THROTTLE.account.forgetAfterMs, THROTTLE.source.windowMs)

/** Sources are addresses; IPv6 ones by their /64, which one client usually holds whole. */
export function sourceKey(ip: string | null): string {
  if (ip === null) return 'unknown' // no socket (tests calling the app directly)
  if (!ip.includes(':')) return ip
  const [head = '', tail] = ip.split('%')[0]!.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  // An embedded IPv4 tail (::ffff:1.2.3.4 style) fills two groups.
  const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0)
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - rightGroups)).fill('0'), ...right]
  const prefix = groups.slice(0, 4).map((g) => Number.parseInt(g || '0', 16).toString(16))
  return `${prefix.join(':')}::/64`
}

function keysOf(username: string, ip: string | null): Record<Kind, string> {
  const account = username.trim().toLowerCase()
  const source = sourceKey(ip)
  return { pair: `pair:${source} ${account}`, account: `account:${account}`, source: `source:${source}` }
}

/** Doubling waits: the `waitFrom`-th failure waits `firstWaitMs`, each further one twice as long, capped. */
function waitAfter(failures: number, rule: { waitFrom: number; firstWaitMs: number; maxWaitMs: number }): number {
  const over = failures - rule.waitFrom
  return over < 0 ? 0 : Math.min(rule.firstWaitMs * 2 ** over, rule.maxWaitMs)
}

/** Until when (epoch ms) this pair and source must wait; in the past when free. */
function waitUntil(rows: Partial<Record<Kind, Counter>>, now: number): number {
  const remembered = (kind: Kind) => {
    const row = rows[kind]
    return row && REMEMBERS[kind](row, now) ? row : undefined
  }
  const pair = remembered('pair')
  const source = remembered('source')
  const underAttack = (remembered('account')?.failures ?? 0) >= THROTTLE.account.underAttackAt
  const pairRule = underAttack ? { ...THROTTLE.pair, waitFrom: 1 } : THROTTLE.pair
  // No wait owed, no refusal: even when the last failure reads as "later" (another instance's clock ahead).
  const endOfWait = (row: Counter | undefined, rule: Parameters<typeof waitAfter>[1]) => {
    const wait = row ? waitAfter(row.failures, rule) : 0
    return row && wait > 0 ? row.last_failure_at.getTime() + wait : 0
  }
  return Math.max(endOfWait(pair, pairRule), endOfWait(source, THROTTLE.source))
}

/** The counter after one more failure: +1, or a fresh 1 when its rule has forgotten the old count. */
function plusOne(kind: Kind, row: Counter | undefined, now: Date): Counter {
  if (!row || row.failures === 0 || !REMEMBERS[kind](row, now.getTime())) return { failures: 1, window_started_at: now, last_failure_at: now }
  return { failures: row.failures + 1, window_started_at: row.window_started_at, last_failure_at: now }
}

/**
 * Runs a password check under the throttle. Refuses (429 LOGIN_THROTTLED, `retry_after` in
 * seconds) while this pair or source must wait, without running `check`. Otherwise the attempt
 * is counted as a failure before `check` runs, under row locks, so parallel guesses cannot all
 * slip through one open moment; a passed check takes that count back and forgets the pair.
 */
export async function throttledCheck(
  db: Db,
  username: string,
  ip: string | null,
  now: Date,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const keys = keysOf(username, ip)
  await countAttempt(db, keys, now)
  const passed = await check()
  if (passed) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('login_throttle').where('key', '=', keys.pair).execute()
      await trx
        .updateTable('login_throttle')
        .set((eb) => ({ failures: eb.fn('greatest', [eb('failures', '-', 1), eb.lit(0)]) }))
        .where('key', 'in', [keys.account, keys.source])
        .execute()
    })
  }
  return passed
}

async function countAttempt(db: Db, keys: Record<Kind, string>, now: Date): Promise<void> {
  const kinds = (Object.keys(keys) as Kind[]).sort((a, b) => keys[a].localeCompare(keys[b]))
  await db.transaction().execute(async (trx) => {
    // Rows must exist to be locked (a new one holds 0 failures). Always in key order, so two
    // attempts never deadlock.
    await trx
      .insertInto('login_throttle')
      .values(kinds.map((kind) => ({ key: keys[kind], failures: 0, window_started_at: now, last_failure_at: now })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute()
    const locked = await trx
      .selectFrom('login_throttle')
      .select(['key', 'failures', 'window_started_at', 'last_failure_at'])
      .where('key', 'in', Object.values(keys))
      .orderBy('key')
      .forUpdate()
      .execute()
    const rows = Object.fromEntries(kinds.map((kind) => [kind, locked.find((r) => r.key === keys[kind])])) as Partial<Record<Kind, Counter>>
    const until = waitUntil(rows, now.getTime())
    if (until > now.getTime()) {
      const seconds = Math.ceil((until - now.getTime()) / SECOND)
      throw new AppError(429, 'LOGIN_THROTTLED', `too many failed attempts: try again in ${seconds} s`, { retry_after: seconds })
    }
    await trx
      .insertInto('login_throttle')
      .values(kinds.map((kind) => ({ key: keys[kind], ...plusOne(kind, rows[kind], now) })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb.ref('excluded.failures'),
          window_started_at: eb.ref('excluded.window_started_at'),
          last_failure_at: eb.ref('excluded.last_failure_at'),
        })),
      )
      .execute()
  })
}

/** Sweep: deletes the counters every rule has forgotten. */
export async function forgetOldFailures(svc: { db: Db; clock: { now: () => Date } }): Promise<number> {
  const before = new Date(svc.clock.now().getTime() - FORGET_ALL_MS)
  const result = await svc.db.deleteFrom('login_throttle').where('last_failure_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
