import { type Kysely, sql } from 'kysely'
import type { LiveEvent } from '../../src/domains/live/schemas'
import type { Database } from '../db/schema'
import { LIVE_CHANNEL } from './topics'

/**
 * NOTIFY every instance (`pg_notify`, PostgreSQL and PGlite alike), one statement for any number
 * of events. Inside a transaction PostgreSQL holds the notifications until COMMIT and drops them
 * on ROLLBACK, so a screen never hears of a change that did not happen. Payloads stay far below
 * NOTIFY's 8000-byte limit (keys only).
 */
export async function notifyLive(db: Kysely<Database>, events: readonly LiveEvent[]): Promise<void> {
  if (events.length === 0) return
  if (events.length === 1) {
    await sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(events[0])})`.execute(db)
    return
  }
  const payloads = events.map((e) => JSON.stringify(e))
  await sql`select pg_notify(${LIVE_CHANNEL}, p) from unnest(${payloads}::text[]) with ordinality as x(p, n) order by n`.execute(db)
}
