import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import pg from 'pg'
import { registerChainerDatabase, stopEventChainer } from '../domains/events/chainer'
import { closeLiveHub, registerLiveSource } from '../live/hub'
import { registerPool } from './prepared'
import type { Database, Db } from './schema'

export type DatabaseKind = 'postgres' | 'pglite'
export type { Db }

// One representation per kind of value, the same on both engines:
// BIGINT and NUMERIC become JS numbers (quantities, costs and event ids stay far below 2^53),
// DATE stays the 'YYYY-MM-DD' text PostgreSQL sends (no local-midnight Date), timestamptz is a Date.
const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082 } as const
const toNumber = (v: string) => Number(v)
const asText = (v: string) => v

pg.types.setTypeParser(OID.INT8, toNumber)
pg.types.setTypeParser(OID.NUMERIC, toNumber)
pg.types.setTypeParser(OID.DATE, asText)

const pgliteParsers = { [OID.INT8]: toNumber, [OID.NUMERIC]: toNumber, [OID.DATE]: asText }

export type OpenDatabase = {
  db: Db
  kind: DatabaseKind
  close: () => Promise<void>
  /** PGlite only: a copy of the database files, to open more databases from. */
  dump?: () => Promise<Blob>
}

const pglites = new WeakMap<Db, PGlite>()
/** The PGlite instance behind an embedded Kysely (the flows queue runs on it too). */
export const pgliteOf = (db: Db): PGlite | undefined => pglites.get(db)

export function openPostgres(url: string, poolSize = 20): OpenDatabase {
  // No JIT: list queries with per-row subqueries are estimated expensive enough to trigger it, and
  // compiling takes seconds where running takes milliseconds (an OLTP app never gains from it).
  //
  // A database outage (db/unavailable.ts) answers 503 and heals by itself: a connection that broke
  // is never handed out again (pg-pool drops an idle one on its 'error' event, and one released
  // after a failed query, which is not queryable any more), new ones are made as the server is
  // back. connectionTimeoutMillis bounds the wait for a server that does not answer (a network
  // cut, a hung host) instead of the OS's minutes; keepAlive finds a dead peer under an idle one.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: '-c jit=off', connectionTimeoutMillis: 10_000, keepAlive: true })
  // A connection that breaks must never end the process. pg-pool listens only while it is idle;
  // one checked out between two statements (a transaction, the sweep's or a flow's advisory lock
  // held during a webhook post) has its 'error' here: it is then unusable, its next query fails
  // (503) and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', (err) => console.error('[db] connection lost:', err.message)))
  // The idle case, already logged above: the pool drops that connection itself.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  registerPool(db, pool)
  registerLiveSource(db, { kind: 'postgres', url })
  registerChainerDatabase(db)
  return { db, kind: 'postgres', close: () => closeDatabase(db) }
}

/**
 * `dataDir` undefined = in memory (tests). `loadDataDir` starts from a copy of another
 * database's files (`dumpPglite`), which skips initdb and migrations.
 */
export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): Promise<OpenDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // pg_trgm: the trigram indexes of work order search (migration 2026-11-28-30).
  const pglite = await PGlite.create(dataDir, { parsers: pgliteParsers, extensions: { pg_trgm }, ...options })
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  pglites.set(db, pglite)
  registerLiveSource(db, { kind: 'pglite', pglite })
  registerChainerDatabase(db)
  return { db, kind: 'pglite', close: () => closeDatabase(db), dump: () => pglite.dumpDataDir('none') }
}

/** The event chainer and the live hub end before their connections do. */
async function closeDatabase(db: Db): Promise<void> {
  await stopEventChainer(db)
  await closeLiveHub(db)
  await db.destroy()
}
