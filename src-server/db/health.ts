import { sql } from 'kysely'
import type pg from 'pg'
import { poolOf } from './prepared'
import type { Db } from './schema'

/**
 * Whether the database answers `select 1` within `timeoutMs` (GET /api/health, which load
 * balancers and the tablets' offline probe read). Bounded both ways: waiting for a connection
 * (the race) and waiting for the answer on one (pg's query_timeout, which also drops that
 * connection from the pool), so a hung server never holds a health check or a pooled connection.
 */
export async function databaseAnswers(db: Db, timeoutMs: number): Promise<boolean> {
  const pool = poolOf(db)
  // query_timeout is read by pg's client (not in @types/pg's QueryConfig).
  const ping = pool ? pool.query({ text: 'select 1', query_timeout: timeoutMs } as pg.QueryConfig) : sql`select 1`.execute(db)
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    return await Promise.race([ping.then(() => true, () => false), late])
  } finally {
    clearTimeout(timer)
  }
}
