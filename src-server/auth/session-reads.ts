import type { Db } from '../db/connect'
import { poolOf, type PreparedStatement, runPrepared } from '../db/prepared'
import type { AuthSession, User } from '../db/schema'

/**
 * Grouped session reads. Every authenticated request reads its session (one row by primary key);
 * at plant scale (20,000 operators beating every 10 s) that one-row query, not its row, is most
 * of the cost: a round trip, a wake-up of a backend, a row description parsed per query on both
 * sides. So lookups are read together: a lookup starts a read at once when fewer than READERS
 * reads are in flight; otherwise it waits and goes out with the others that arrived meanwhile as
 * ONE query as soon as a reader is free. Nothing waits for a timer.
 *
 * Only on PostgreSQL: embedded PGlite is one in-process connection with no round trip to save,
 * so there each lookup is its own query, as before.
 *
 * Revocation stays immediate: a lookup is always answered by a read that STARTED after the lookup
 * was asked for (a lookup never joins a read already in flight), so it sees every sign-out,
 * revoke, lock or user change committed before the request arrived, exactly as one query per
 * request did. Nothing is cached between requests.
 */
export type SessionLookupRow = AuthSession & { user: User; idle_lock_minutes: number | null }

type Lookup = { id: string; done: (row: SessionLookupRow | undefined) => void; fail: (e: unknown) => void }

/** A read of more ids costs little more than a read of one; a bound keeps one query's size sane. */
const MAX_BATCH = 500
/**
 * Reads in flight at once (of the pool's 20 connections). Two keep a lookup's wait short (it waits
 * for at most the read in flight, then its own) while lookups still gather into groups.
 */
const READERS = 2

// A named statement: the id list is one parameter, so the text never changes and is planned once per connection.
const SESSION_LOOKUP: PreparedStatement = {
  name: 'mes_session_lookup_many',
  text: `select s.*, to_jsonb(u) as "user",
      (select (value #>> '{}')::int from settings where key = 'idle_lock_minutes') as idle_lock_minutes
    from auth_sessions s join users u on u.id = s.user_id
    where s.id = any($1::text[])`,
}

// The same row for one id (PGlite).
const SESSION_LOOKUP_ONE: PreparedStatement = {
  name: 'mes_session_lookup',
  text: SESSION_LOOKUP.text.replace('s.id = any($1::text[])', 's.id = $1'),
}

class SessionReader {
  private queue: Lookup[] = []
  private inFlight = 0

  constructor(private readonly db: Db) {}

  read(id: string): Promise<SessionLookupRow | undefined> {
    return new Promise((done, fail) => {
      this.queue.push({ id, done, fail })
      if (this.inFlight < READERS) void this.flush()
    })
  }

  /** One reader loop: takes what is queued, reads it, and goes on while lookups keep coming. */
  private async flush() {
    this.inFlight++
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH)
        try {
          const ids = batch.length === 1 ? [batch[0]!.id] : [...new Set(batch.map((l) => l.id))]
          const rows = await runPrepared<SessionLookupRow>(this.db, SESSION_LOOKUP, [ids])
          const byId = new Map(rows.map((r) => [r.id, r]))
          for (const l of batch) l.done(byId.get(l.id))
        } catch (e) {
          for (const l of batch) l.fail(e)
        }
      }
    } finally {
      this.inFlight--
    }
  }
}

const readers = new WeakMap<Db, SessionReader>()

/**
 * The row of session `id` with its user and the idle lock setting, read after this call. The row
 * may be shared by lookups of the same session in one group: copy it before changing it.
 */
export async function readSession(db: Db, id: string): Promise<SessionLookupRow | undefined> {
  if (!poolOf(db)) return (await runPrepared<SessionLookupRow>(db, SESSION_LOOKUP_ONE, [id]))[0]
  let r = readers.get(db)
  if (!r) {
    r = new SessionReader(db)
    readers.set(db, r)
  }
  return r.read(id)
}
