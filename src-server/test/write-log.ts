import { sql } from 'kysely'
import { poolOf, runPrepared } from '../db/prepared'
import type { Db } from '../db/schema'

/**
 * Proof that a call wrote no row, cheap enough to run after each of many thousand calls.
 *
 * The database side: a row-level trigger on each application table appends every committed
 * insert, update and delete to `test_write_log` (a rolled-back write leaves no entry), so the
 * log's last id is equal before and after a call that wrote nothing. Stronger than row counts,
 * which miss updates and an insert undone by a delete. Sign-in failures (`login_throttle`) are
 * left out: a refused sign-in is meant to record itself there; so are the event chain's tables,
 * which the event chainer writes in the background after the calls whose events it links (the
 * events themselves are watched).
 *
 * The process side: while a call runs, every statement the app runs (through Kysely, or the
 * pool's prepared statements) marks it when it is an insert, update, delete or merge. A call
 * that ran none cannot have written, and needs no database read. Calls run one at a time: a
 * statement is the running call's whoever queued it (the heartbeat writer batches the beats of
 * several calls); one after every call has answered is found by the log moving unseen.
 */
export type WriteWatch = {
  /** Runs one call; `touched` says whether it ran a statement that writes (committed or not). */
  call: <T>(fn: () => Promise<T>) => Promise<{ result: T; touched: boolean }>
  /** The position of the log's last entry. */
  last: () => Promise<number>
  /** What was written after `since` (table, operation, rows), for a failure's report. */
  since: (since: number) => Promise<string[]>
  /** Takes the statement watch off (the log stays with the test database). */
  close: () => void
}

const WRITE_SQL = /^\s*(insert|update|delete|merge)\b|\bwith\b[\s\S]*\b(insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i
const LAST_WRITE = { name: 'test_last_write', text: 'select max(id) as id from test_write_log' }

export async function watchWrites(db: Db): Promise<WriteWatch> {
  await sql`create table test_write_log (id bigserial primary key, table_name text not null, op text not null)`.execute(db)
  await sql`create function test_log_write() returns trigger language plpgsql as $$
    begin insert into test_write_log (table_name, op) values (TG_TABLE_NAME, TG_OP); return null; end $$`.execute(db)
  await sql`do $$ declare t text; begin
    for t in select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not like 'kysely_%' and table_name not in ('test_write_log', 'login_throttle', 'event_chain', 'event_chain_head')
    loop
      execute format('create trigger %I after insert or update or delete on %I for each row execute function test_log_write()', 'test_log_' || t, t);
    end loop; end $$`.execute(db)

  let running: { touched: boolean } | null = null
  const note = (text: string) => {
    if (running && WRITE_SQL.test(text)) running.touched = true
  }
  // Kysely: every query of every Kysely instance (transactions make new executors of the same class).
  let proto = Object.getPrototypeOf(db.getExecutor())
  while (proto && !Object.hasOwn(proto, 'executeQuery')) proto = Object.getPrototypeOf(proto)
  const executeQuery = proto.executeQuery
  proto.executeQuery = async function (this: unknown, compiled: { sql: string }, ...rest: unknown[]) {
    note(compiled.sql)
    return executeQuery.call(this, compiled, ...rest)
  }
  // PostgreSQL's prepared statements (db/prepared.ts) go to the pool directly.
  const pool = poolOf(db)
  const poolQuery = pool?.query
  if (pool && poolQuery) {
    pool.query = ((config: string | { text: string }, ...rest: unknown[]) => {
      note(typeof config === 'string' ? config : config.text)
      return (poolQuery as (...a: unknown[]) => unknown).call(pool, config, ...rest)
    }) as typeof pool.query
  }

  return {
    async call(fn) {
      if (running) throw new Error('watchWrites: one call at a time')
      const store = { touched: false }
      running = store
      try {
        return { result: await fn(), touched: store.touched }
      } finally {
        running = null
      }
    },
    async last() {
      const [row] = await runPrepared<{ id: string | null }>(db, LAST_WRITE, [])
      return Number(row?.id ?? 0)
    },
    async since(since) {
      const { rows } = await sql<{ table_name: string; op: string; n: string }>`
        select table_name, op, count(*) as n from test_write_log where id > ${since} group by table_name, op order by table_name, op`.execute(db)
      return rows.map((r) => `${r.op} ${r.table_name} x${r.n}`)
    },
    close() {
      proto.executeQuery = executeQuery
      if (pool && poolQuery) pool.query = poolQuery
    },
  }
}
