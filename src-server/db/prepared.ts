import { CompiledQuery } from 'kysely'
import type pg from 'pg'
import type { Db } from './schema'

/**
 * Named prepared statements for the few queries every request runs (the session lookup).
 * PostgreSQL parses and plans a named statement once per connection instead of on every call,
 * which is most of the database's cost of a one-row lookup. Kysely does not name statements, so
 * on PostgreSQL the pool behind the Kysely instance runs them directly (same type parsers: they
 * are set on `pg.types` globally); on PGlite, where planning is in-process and cheap, Kysely runs
 * the same text.
 */
const pools = new WeakMap<Db, pg.Pool>()

/** The pg pool behind a PostgreSQL Kysely (undefined on PGlite); the flows queue connects with its settings. */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db)

export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool)
}

export type PreparedStatement = { name: string; text: string }

export async function runPrepared<R>(db: Db, statement: PreparedStatement, values: readonly unknown[]): Promise<R[]> {
  const pool = pools.get(db)
  if (pool) return (await pool.query<R & pg.QueryResultRow>({ name: statement.name, text: statement.text, values: [...values] })).rows
  return (await db.executeQuery<R>(CompiledQuery.raw(statement.text, [...values]))).rows
}
