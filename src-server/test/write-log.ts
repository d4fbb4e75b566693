import { sql } from 'kysely'
import { runPrepared } from '../db/prepared'
import type { Db } from '../db/schema'

/**
 * Every committed row write in a test database, for tests that must prove a call wrote nothing
 * (stronger than row counts, which miss updates and an insert undone by a delete, and one
 * indexed read instead of a count of every table). A row-level trigger on each application
 * table appends to `test_write_log`; a rolled-back write leaves no entry. Sign-in failures
 * (`login_throttle`) are left out: a refused sign-in is meant to record itself there.
 */
export async function installWriteLog(db: Db): Promise<void> {
  await sql`create table test_write_log (id bigserial primary key, table_name text not null, op text not null)`.execute(db)
  await sql`create function test_log_write() returns trigger language plpgsql as $$
    begin insert into test_write_log (table_name, op) values (TG_TABLE_NAME, TG_OP); return null; end $$`.execute(db)
  await sql`do $$ declare t text; begin
    for t in select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not like 'kysely_%' and table_name not in ('test_write_log', 'login_throttle')
    loop
      execute format('create trigger %I after insert or update or delete on %I for each row execute function test_log_write()', 'test_log_' || t, t);
    end loop; end $$`.execute(db)
}

const LAST_WRITE = { name: 'test_last_write', text: 'select max(id) as id from test_write_log' }

/** The position of the log's last entry: equal before and after a call that wrote nothing. */
export async function lastWrite(db: Db): Promise<number> {
  const [row] = await runPrepared<{ id: string | null }>(db, LAST_WRITE, [])
  return Number(row?.id ?? 0)
}

/** What was written after `since` (table and operation, with how many rows), for a failure's report. */
export async function writesSince(db: Db, since: number): Promise<string[]> {
  const { rows } = await sql<{ table_name: string; op: string; n: string }>`
    select table_name, op, count(*) as n from test_write_log where id > ${since} group by table_name, op order by table_name, op`.execute(db)
  return rows.map((r) => `${r.op} ${r.table_name} x${r.n}`)
}
