import { sql } from 'kysely'
import type { Db } from '../../db/schema'

/**
 * The event chainer (docs/audit.md): links committed events into the event chain after their
 * transactions ended, one round (`event_chain_round()`, migrations/2026-11-29-10-event-chainer.ts)
 * at a time across every instance (a transaction advisory lock: a round that finds it taken tries
 * again shortly). Appending transactions never wait for the chain.
 *
 * Each instance runs one for its database. It is started by the server (`startEventChainer`) and
 * by the first event this process appends (`nudgeEventChainers`, what tests and scripts rely on);
 * it runs a round
 * - soon after each event appended in this process (the appending transaction has not committed
 *   yet: a round that sees write transactions still open looks again after 5, 10, 20 ... ms, at most
 *   IDLE_MS apart, until they have ended); events appended during a round: BUSY_GAP_MS after it;
 * - every IDLE_MS in any case, for events written by other processes (other instances chain their
 *   own; this catches scripts and an instance that died before its round).
 */

/** Links made by one round at most: a backlog is linked in several short transactions. */
const MAX_LINKS = 5_000
const FIRST_RETRY_MS = 5
/**
 * Under a steady stream of appends (a nudge during every round) rounds are this far apart: each
 * links a batch in one short transaction instead of the chainer spinning, a round per commit,
 * on the CPU the writers need. Also the most a live screen waits for the link.
 */
const BUSY_GAP_MS = 20
const IDLE_MS = 1_000
const ERROR_RETRY_MS = 1_000

type Round = { linked: number; waiting: boolean }

/** One round: links every committed event not linked yet (at most MAX_LINKS). linked -1: another round held the lock. */
async function round(db: Db): Promise<Round> {
  const { rows } = await sql<Round>`select linked, waiting from event_chain_round(${MAX_LINKS})`.execute(db)
  return rows[0]!
}

/**
 * Links every event committed so far, waiting for a round running elsewhere to end. For tests,
 * scripts and benches that must read the chain right after their own writes.
 */
export async function chainCommittedEvents(db: Db): Promise<number> {
  let total = 0
  for (let delay = FIRST_RETRY_MS; ; ) {
    const r = await round(db)
    if (r.linked === -1) {
      await Bun.sleep(delay)
      delay = Math.min(delay * 2, 100)
      continue
    }
    total += r.linked
    if (r.linked < MAX_LINKS) return total
  }
}

class EventChainer {
  private timer: ReturnType<typeof setTimeout> | null = null
  private running: Promise<void> | null = null
  private again = false
  private stopped = false
  private retryMs = FIRST_RETRY_MS
  private failing = false

  constructor(private db: Db) {}

  /** A round as soon as possible (now, or right after the one running). */
  nudge() {
    if (this.stopped) return
    this.retryMs = FIRST_RETRY_MS
    if (this.running) {
      this.again = true
      return
    }
    this.schedule(0)
  }

  private schedule(ms: number) {
    if (this.stopped) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      this.running = this.run().finally(() => {
        this.running = null
      })
    }, ms)
  }

  private async run() {
    let next = IDLE_MS
    try {
      this.again = false
      const r = await round(this.db)
      if (this.failing) console.log('[chain] linking events again')
      this.failing = false
      if (r.linked === MAX_LINKS) next = 0
      else if (r.linked === -1 || r.waiting || this.again) {
        // Another round was linking, or a transaction that may be appending was still open.
        next = this.again ? BUSY_GAP_MS : this.retryMs
        this.retryMs = Math.min(this.retryMs * 2, IDLE_MS)
      } else this.retryMs = FIRST_RETRY_MS
    } catch (e) {
      if (this.stopped) return
      if (!this.failing) console.error(`[chain] linking events failed (${(e as Error).message}); trying again every ${ERROR_RETRY_MS} ms`)
      this.failing = true
      next = ERROR_RETRY_MS
    }
    this.schedule(next)
  }

  async stop() {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running?.catch(() => {})
  }
}

const chainers = new Map<Db, EventChainer>()
/** The databases this process opened (db/connect.ts): a nudge starts their chainers. */
const known = new Set<Db>()

/** Called by db/connect.ts when a database is opened: its chainer starts with the first event appended here. */
export function registerChainerDatabase(db: Db): void {
  known.add(db)
}

/** Starts the chainer of this database (the server, after its migrations). */
export function startEventChainer(db: Db): void {
  known.add(db)
  let chainer = chainers.get(db)
  if (!chainer) {
    chainer = new EventChainer(db)
    chainers.set(db, chainer)
  }
  chainer.nudge()
}

/**
 * After an event was appended (its transaction still open): a round soon, in every chainer of
 * this process. The appending code holds a transaction, not the database it came from, so every
 * database this process opened is nudged; a round with nothing to link costs one short query.
 */
export function nudgeEventChainers(): void {
  for (const db of known) startEventChainer(db)
}

/** Stops the chainer (the database closes, or a bench measures appends without it). */
export async function stopEventChainer(db: Db): Promise<void> {
  known.delete(db)
  const chainer = chainers.get(db)
  chainers.delete(db)
  await chainer?.stop()
}
