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

const RECONNECT_MS = 1_000
/** Events read back at once after the LISTEN connection came back. */
const CATCH_UP_MAX = 10_000

/**
 * One LISTEN per instance, fanned out in-process to every subscriber (tRPC subscriptions and
 * the REST stream alike). The LISTEN starts with the first subscriber and stays for the life of
 * the database. If the PostgreSQL connection drops, the hub reconnects and reads back from the
 * events table what was appended meanwhile, so its subscribers miss nothing.
 */
export class LiveHub {
  private listeners = new Set<Listener>()
  private enders = new Map<Listener, () => void>()
  private ready: Promise<void> | null = null
  private client: pg.Client | null = null
  private unlisten: (() => Promise<void>) | null = null
  private closed = false
  /** Highest event id delivered: where a catch-up after a reconnect starts. */
  private lastId = 0

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
    this.ready ??= this.listen().catch((e) => {
      this.ready = null
      throw e
    })
    return this.ready
  }

  private async listen(): Promise<void> {
    if (this.source.kind === 'pglite') {
      this.unlisten = await this.source.pglite.listen(LIVE_CHANNEL, (payload) => this.deliver(payload))
      return
    }
    const client = new pg.Client({ connectionString: this.source.url })
    client.on('notification', (msg) => {
      if (msg.channel === LIVE_CHANNEL && msg.payload) this.deliver(msg.payload)
    })
    client.on('error', (err) => {
      console.error('[live] LISTEN connection lost:', err.message)
      this.reconnect(client)
    })
    client.on('end', () => this.reconnect(client))
    await client.connect()
    await client.query(`LISTEN ${LIVE_CHANNEL}`)
    this.client = client
  }

  private reconnect(lost: pg.Client) {
    if (this.closed || this.client !== lost) return
    this.client = null
    const retry = async () => {
      if (this.closed) return
      try {
        await this.listen()
        await this.catchUp()
      } catch (e) {
        console.error('[live] LISTEN reconnect failed:', (e as Error).message)
        setTimeout(retry, RECONNECT_MS)
      }
    }
    setTimeout(retry, RECONNECT_MS)
  }

  /** What was appended while the LISTEN connection was down, in id order. */
  private async catchUp() {
    if (this.lastId === 0) return
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'event_type', 'subject_type', 'subject_key', 'data'])
      .where('id', '>', this.lastId)
      .orderBy('id')
      .limit(CATCH_UP_MAX)
      .execute()
    for (const row of rows) this.fanOut(liveEventOf(row))
  }

  private deliver(payload: string) {
    let event: LiveEvent
    try {
      event = JSON.parse(payload) as LiveEvent
    } catch {
      return
    }
    this.fanOut(event)
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
