import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { LiveEvent } from '../../src/domains/live/schemas'
import type { Db } from '../db/schema'
import { LIVE_CHANNEL, liveEventOf } from './topics'

/** Where an instance LISTENs: its own PostgreSQL connection, or PGlite's listen(). */
export type LiveSource = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: PGlite }

type Listener = (event: LiveEvent) => void

const sources = new WeakMap<Db, LiveSource>()
const hubs = new WeakMap<Db, LiveHub>()

/** Called by db/connect.ts when a database is opened. */
export function registerLiveSource(db: Db, source: LiveSource): void {
  sources.set(db, source)
}

/** The instance's one hub for this database (made on first use). */
export function liveHub(db: Db): LiveHub {
  let hub = hubs.get(db)
  if (!hub) {
    const source = sources.get(db)
    if (!source) throw new Error('live: this database was not opened through db/connect.ts')
    hub = new LiveHub(db, source)
    hubs.set(db, hub)
  }
  return hub
}

/** Called by db/connect.ts before the database closes: ends the streams and the LISTEN connection. */
export async function closeLiveHub(db: Db): Promise<void> {
  const hub = hubs.get(db)
  hubs.delete(db)
  await hub?.close()
}

/**
 * Ends every open live stream of this instance (a graceful shutdown: `server.stop()` waits for
 * open requests, and a stream never ends by itself). Clients reconnect, to another instance
 * behind the load balancer, with their last event id: nothing is missed.
 */
export function endLiveStreams(db: Db): void {
  hubs.get(db)?.endAll()
}

/** Reconnecting the LISTEN connection: the first try after this, then doubling up to RECONNECT_MAX_MS, for as long as it takes. */
const RECONNECT_MIN_MS = 250
const RECONNECT_MAX_MS = 4_000
/** Links read at once; a longer run is read in several rounds. */
const READ_MAX = 1_000
/** A read of the chain that failed (the database went away) is tried again after this. */
const READ_RETRY_MS = 1_000

/** The events after link `after`, in commit order, as live announcements numbered by their link. */
export async function chainedSince(db: Db, after: number, limit: number): Promise<{ event: LiveEvent; created_at: Date }[]> {
  const rows = await db
    .selectFrom('event_chain as c')
    .innerJoin('events as e', 'e.id', 'c.event_id')
    .select(['c.seq', 'e.event_type', 'e.subject_type', 'e.subject_key', 'e.data', 'e.created_at'])
    .where('c.seq', '>', after)
    .orderBy('c.seq')
    .limit(limit)
    .execute()
  return rows.map((row) => ({ event: liveEventOf({ ...row, id: Number(row.seq) }), created_at: row.created_at }))
}

/** The number of the newest link (0 before the first event). */
export async function newestSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('event_chain_head').select('seq').executeTakeFirst()
  return Number(row?.seq ?? 0)
}

/**
 * One LISTEN per instance, fanned out in-process to every subscriber (tRPC subscriptions and
 * the REST stream alike). A NOTIFY only wakes the hub: it then reads the event chain from the
 * last link it delivered, in commit order, so an event that committed after a newer one was
 * delivered is never skipped, and none is delivered twice. The LISTEN starts with the first
 * subscriber and stays for the life of the database. If the PostgreSQL connection drops (a
 * restart, a crash, a network cut), the hub reconnects with backoff until it can, LISTENs again
 * and reads the chain from where it was.
 */
export class LiveHub {
  private listeners = new Set<Listener>()
  private enders = new Map<Listener, () => void>()
  private ready: Promise<void> | null = null
  private client: pg.Client | null = null
  private unlisten: (() => Promise<void>) | null = null
  private closed = false
  private reconnecting = false
  /** The last link delivered (or the newest when the LISTEN started): the next read starts after it. */
  private lastSeq = 0
  private reading = false
  private readAgain = false

  constructor(
    private db: Db,
    private source: LiveSource,
  ) {}

  get size(): number {
    return this.listeners.size
  }

  /**
   * Resolves once this instance is LISTENing, so whatever commits afterwards reaches `fn`.
   * `onEnd` is called if the instance ends its streams (endLiveStreams).
   */
  async subscribe(fn: Listener, onEnd?: () => void): Promise<() => void> {
    this.listeners.add(fn)
    if (onEnd) this.enders.set(fn, onEnd)
    try {
      await this.start()
    } catch (e) {
      this.listeners.delete(fn)
      this.enders.delete(fn)
      throw e
    }
    return () => {
      this.listeners.delete(fn)
      this.enders.delete(fn)
    }
  }

  endAll() {
    const enders = [...this.enders.values()]
    this.enders.clear()
    this.listeners.clear()
    for (const end of enders) end()
  }

  private start(): Promise<void> {
    this.ready ??= this.open().catch((e) => {
      this.ready = null
      throw e
    })
    return this.ready
  }

  private async open() {
    try {
      await this.listen()
      // Read after the LISTEN: a link made between the two is read by the first wake.
      this.lastSeq = Math.max(this.lastSeq, await newestSeq(this.db))
    } catch (e) {
      await this.drop()
      throw e
    }
  }

  /** Ends the LISTEN connection (if any) without reconnecting. */
  private async drop() {
    const client = this.client
    this.client = null
    await client?.end().catch(() => {})
  }

  private async listen(): Promise<void> {
    if (this.source.kind === 'pglite') {
      this.unlisten = await this.source.pglite.listen(LIVE_CHANNEL, () => this.wake())
      return
    }
    // keepAlive: a peer gone without a word (a network cut) is noticed, not listened to forever.
    const client = new pg.Client({ connectionString: this.source.url, keepAlive: true, keepAliveInitialDelayMillis: 10_000 })
    client.on('notification', (msg) => {
      if (msg.channel === LIVE_CHANNEL) this.wake()
    })
    client.on('error', (err) => {
      if (this.client === client) console.error('[live] LISTEN connection lost:', err.message)
      this.reconnect(client)
    })
    client.on('end', () => this.reconnect(client))
    try {
      await client.connect()
      await client.query(`LISTEN ${LIVE_CHANNEL}`)
    } catch (e) {
      await client.end().catch(() => {})
      throw e
    }
    if (this.closed) {
      await client.end().catch(() => {})
      return
    }
    this.client = client
  }

  /** One reconnect loop at a time: a connection lost again during the catch-up makes that loop try again. */
  private reconnect(lost: pg.Client) {
    if (this.closed || this.client !== lost) return
    this.client = null
    if (this.reconnecting) return
    this.reconnecting = true
    let delay = RECONNECT_MIN_MS
    const retry = async () => {
      if (this.closed) {
        this.reconnecting = false
        return
      }
      try {
        await this.listen()
        if (!this.client) throw new Error('connection lost again')
        // What committed while the connection was down: no NOTIFY of it will come.
        this.wake()
        this.reconnecting = false
        console.log('[live] LISTEN connection back')
      } catch (e) {
        // The LISTEN may be back while the catch-up failed: drop it and start over, so nothing is skipped.
        await this.drop()
        delay = Math.min(RECONNECT_MAX_MS, delay * 2)
        console.error(`[live] LISTEN reconnect failed (${(e as Error).message}); next try in ${delay} ms`)
        setTimeout(retry, delay)
      }
    }
    setTimeout(retry, delay)
  }

  /** Reads the chain from the last delivered link; wakes during a read make it read once more. */
  private wake() {
    if (this.reading) {
      this.readAgain = true
      return
    }
    this.reading = true
    void this.readChain()
  }

  private async readChain() {
    try {
      do {
        this.readAgain = false
        let read: number
        do {
          const rows = await chainedSince(this.db, this.lastSeq, READ_MAX)
          if (this.closed) return
          for (const { event } of rows) this.fanOut(event)
          read = rows.length
        } while (read === READ_MAX)
      } while (this.readAgain)
      this.reading = false
    } catch (e) {
      this.reading = false
      if (this.closed) return
      console.error(`[live] reading the event chain failed (${(e as Error).message}); next try in ${READ_RETRY_MS} ms`)
      setTimeout(() => this.wake(), READ_RETRY_MS)
    }
  }

  /** Every subscriber in this process; one failing never stops the others. */
  fanOut(event: LiveEvent) {
    if (event.id > this.lastSeq) this.lastSeq = event.id
    for (const fn of this.listeners) {
      try {
        fn(event)
      } catch (e) {
        console.error('[live] subscriber failed:', (e as Error).message)
      }
    }
  }

  async close() {
    this.closed = true
    this.endAll()
    const client = this.client
    this.client = null
    await this.unlisten?.().catch(() => {})
    await client?.end().catch(() => {})
  }
}
