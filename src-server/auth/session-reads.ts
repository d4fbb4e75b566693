import type { Db } from '../db/connect'
import { Grouped } from '../db/grouped'
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

/** The rows of a group of session ids, one per id asked (undefined: no such session). */
async function readSessions(db: Db, ids: string[]): Promise<(SessionLookupRow | undefined)[]> {
  const rows = await runPrepared<SessionLookupRow>(db, SESSION_LOOKUP, [[...new Set(ids)]])
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.map((id) => byId.get(id))
}

const readers = new WeakMap<Db, Grouped<string, SessionLookupRow | undefined>>()

/**
 * The row of session `id` with its user and the idle lock setting, read after this call. The row
 * may be shared by lookups of the same session in one group: copy it before changing it.
 */
export async function readSession(db: Db, id: string): Promise<SessionLookupRow | undefined> {
  if (!poolOf(db)) return (await runPrepared<SessionLookupRow>(db, SESSION_LOOKUP_ONE, [id]))[0]
  let r = readers.get(db)
  if (!r) {
    r = new Grouped((ids) => readSessions(db, ids), READERS, MAX_BATCH)
    readers.set(db, r)
  }
  return r.ask(id)
}
