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
/** Events read back at once after the LISTEN connection came back. */
const CATCH_UP_MAX = 10_000

/**
 * One LISTEN per instance, fanned out in-process to every subscriber (tRPC subscriptions and
 * the REST stream alike). The LISTEN starts with the first subscriber and stays for the life of
 * the database. If the PostgreSQL connection drops (a restart, a crash, a network cut), the hub
 * reconnects with backoff until it can, LISTENs again and reads back from the events table what
 * was appended meanwhile, so its subscribers miss nothing and see nothing twice.
 */
export class LiveHub {
  private listeners = new Set<Listener>()
  private enders = new Map<Listener, () => void>()
  private ready: Promise<void> | null = null
  private client: pg.Client | null = null
  private unlisten: (() => Promise<void>) | null = null
  private closed = false
  private reconnecting = false
  /** Highest event id seen (delivered, or the newest when the LISTEN started): where a catch-up starts. */
  private lastId = 0
  /** Notifications that arrive while a catch-up reads the events table: delivered after it, in order. */
  private held: LiveEvent[] | null = null

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
      await this.markNewest()
    } catch (e) {
      await this.drop()
      throw e
    }
  }

  /** Ends the LISTEN connection (if any) without reconnecting. */
  private async drop() {
    const client = this.client
    this.client = null
    this.held = null
    await client?.end().catch(() => {})
  }

  /** The newest event when the LISTEN starts: a later reconnect catches up from there (no event delivered yet or not). */
  private async markNewest() {
    if (this.source.kind === 'pglite') return
    const row = await this.db.selectFrom('events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst()
    const newest = Number(row?.id ?? 0)
    if (newest > this.lastId) this.lastId = newest
  }

  private async listen(): Promise<void> {
    if (this.source.kind === 'pglite') {
      this.unlisten = await this.source.pglite.listen(LIVE_CHANNEL, (payload) => this.deliver(payload))
      return
    }
    // keepAlive: a peer gone without a word (a network cut) is noticed, not listened to forever.
    const client = new pg.Client({ connectionString: this.source.url, keepAlive: true, keepAliveInitialDelayMillis: 10_000 })
    client.on('notification', (msg) => {
      if (msg.channel === LIVE_CHANNEL && msg.payload) this.deliver(msg.payload)
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
        // Held from the LISTEN on: a notification arriving before the read must not move lastId past what the read needs.
        const from = this.lastId
        this.held = []
        await this.listen()
        await this.catchUp(from)
        if (!this.client) throw new Error('connection lost again during the catch-up')
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

  /**
   * What was appended after `from` while the LISTEN connection was down, in id order, then what
   * was notified meanwhile (minus what the read already brought).
   */
  private async catchUp(from: number) {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'event_type', 'subject_type', 'subject_key', 'data'])
      .where('id', '>', from)
      .orderBy('id')
      .limit(CATCH_UP_MAX)
      .execute()
    const held = this.held ?? []
    this.held = null
    const read = new Set<number>()
    for (const row of rows) {
      read.add(row.id)
      this.fanOut(liveEventOf(row))
    }
    for (const event of held) if (!read.has(event.id)) this.fanOut(event)
  }

  private deliver(payload: string) {
    let event: LiveEvent
    try {
      event = JSON.parse(payload) as LiveEvent
    } catch {
      return
    }
    if (this.held) this.held.push(event)
    else this.fanOut(event)
  }

  /** Every subscriber in this process; one failing never stops the others. */
  fanOut(event: LiveEvent) {
    if (event.id > this.lastId) this.lastId = event.id
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
