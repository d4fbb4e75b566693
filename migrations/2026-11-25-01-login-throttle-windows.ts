import type { Kysely } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Sign-in throttling by (account, source), account and source (src-server/auth/throttle.ts):
// a source counts its failures in a fixed window from the first one, and blocks are computed
// from the counts instead of stored. The counters are short-lived, so old rows are dropped.
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('login_throttle').execute()
  await db.schema.alterTable('login_throttle').dropColumn('blocked_until').execute()
  await db.schema.alterTable('login_throttle').addColumn('window_started_at', 'timestamptz', (c) => c.notNull()).execute()
  // The sweep forgets old counters by this column.
  await db.schema.createIndex('login_throttle_last_failure_at').on('login_throttle').column('last_failure_at').execute()
}
