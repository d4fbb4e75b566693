import { sql } from 'kysely'
import type { Db } from '../../db/connect'

/** Counter rows as stored (the service adds what depends on "now": next value, reset dates, next code). */
export function selectCounters(db: Db) {
  return db
    .selectFrom('counters as c')
    .select([
      'c.id as _key',
      'c.name',
      'c.template',
      'c.frequency',
      'c.next_value',
      'c.period_start',
      sql<number>`(extract(epoch from c.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(extract(epoch from c.updated_at) * 1000)::float8`.as('updated_at'),
    ])
}
