import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Reports (issue 16): each work session knows when its job's next session started, so the pause
// between them is read from one row (no window over every session of the range). Kept by a
// trigger in the same transaction as the insert of the next session, whoever inserts it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table work_sessions add column next_started_at timestamptz`.execute(db)
  await sql`create index work_sessions_job_started on work_sessions (job_id, started_at)`.execute(db)
  await sql`create function work_sessions_link_next() returns trigger language plpgsql as $$
    begin
      update work_sessions p set next_started_at = new.started_at
      where p.id = (
        select w.id from work_sessions w
        where w.job_id = new.job_id and w.id <> new.id and w.started_at <= new.started_at
        order by w.started_at desc limit 1
      ) and (p.next_started_at is null or p.next_started_at > new.started_at);
      return null;
    end $$`.execute(db)
  await sql`create trigger work_sessions_next after insert on work_sessions for each row execute function work_sessions_link_next()`.execute(db)
  await sql`update work_sessions w set next_started_at = n.next
    from (select id, lead(started_at) over (partition by job_id order by started_at) as next from work_sessions) n
    where n.id = w.id and n.next is not null`.execute(db)
  await sql`drop index work_sessions_started_at`.execute(db)
  await sql`create index work_sessions_started_at on work_sessions (started_at) include (job_id, user_id, ended_at, end_reason, next_started_at)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
