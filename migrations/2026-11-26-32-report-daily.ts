import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Reports (issue 16): a daily rollup per plant day, job and user (who worked the session or
// completed the batch), kept by triggers on work_sessions and batches in the same transaction as
// the change, whoever writes it. The plant's time zone lives in report_zone so the triggers can cut
// plant days; the server writes it (and rebuilds the rollup, set-based) when it differs.
// Only closed facts are rolled up: an open session's run time and the open pause after a job's
// last session (both measured until "now") are added live by the report queries.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table report_zone (one boolean primary key default true check (one), time_zone text not null)`.execute(db)
  await sql`insert into report_zone (time_zone) values ('UTC')`.execute(db)
  await sql`create table report_daily (
    day date not null,
    job_id uuid not null references jobs (id) on delete cascade,
    user_id uuid,
    work_order_id uuid not null,
    phase_id uuid not null,
    product_id uuid not null,
    sessions integer not null default 0,
    run_ms numeric not null default 0,
    pause_ms numeric not null default 0,
    forced_pause_ms numeric not null default 0,
    offline_ms numeric not null default 0,
    batches integer not null default 0,
    pieces bigint not null default 0,
    scrapped bigint not null default 0,
    constraint report_daily_key unique nulls not distinct (day, job_id, user_id)
  )`.execute(db)
  // A job deleted (with its sessions and batches) takes its rollup rows along.
  await sql`create index report_daily_job on report_daily (job_id)`.execute(db)
  // One session's contribution (sgn = 1 adds it, -1 takes it away): counted on the plant day it
  // started; run time once ended; the pause after it once the job's next session started on the
  // same plant day (kind from why it ended). The zone is read in the same statement as the upsert.
  await sql`create function report_daily_session(s work_sessions, sgn integer) returns void language plpgsql as $$
    begin
      insert into report_daily as r (day, job_id, user_id, work_order_id, phase_id, product_id, sessions, run_ms, pause_ms, forced_pause_ms, offline_ms)
      select (s.started_at at time zone z.time_zone)::date, j.id, s.user_id, j.work_order_id, j.phase_id, wo.product_id, sgn,
        sgn * case when s.ended_at is null then 0 else greatest(0, extract(epoch from (s.ended_at - s.started_at)) * 1000) end,
        sgn * case when coalesce(s.end_reason, '') not in ('offline', 'session_locked') then g.gap else 0 end,
        sgn * case when s.end_reason = 'session_locked' then g.gap else 0 end,
        sgn * case when s.end_reason = 'offline' then g.gap else 0 end
      from report_zone z cross join jobs j join work_orders wo on wo.id = j.work_order_id
      cross join lateral (select case when s.ended_at is not null and s.next_started_at is not null
          and (s.next_started_at at time zone z.time_zone)::date = (s.ended_at at time zone z.time_zone)::date
        then greatest(0, extract(epoch from (s.next_started_at - s.ended_at)) * 1000) else 0 end as gap) g
      where j.id = s.job_id
      on conflict on constraint report_daily_key do update set sessions = r.sessions + excluded.sessions, run_ms = r.run_ms + excluded.run_ms,
        pause_ms = r.pause_ms + excluded.pause_ms, forced_pause_ms = r.forced_pause_ms + excluded.forced_pause_ms, offline_ms = r.offline_ms + excluded.offline_ms;
      if sgn < 0 then
        delete from report_daily r using report_zone z
        where r.day = (s.started_at at time zone z.time_zone)::date and r.job_id = s.job_id and r.user_id is not distinct from s.user_id
          and r.sessions = 0 and r.batches = 0;
      end if;
    end $$`.execute(db)
  // One batch's contribution: a completed batch counts on the plant day it was completed, for who completed it.
  await sql`create function report_daily_batch(b batches, sgn integer) returns void language plpgsql as $$
    begin
      if b.status <> 'completed' or b.completed_at is null then return; end if;
      insert into report_daily as r (day, job_id, user_id, work_order_id, phase_id, product_id, batches, pieces, scrapped)
      select (b.completed_at at time zone z.time_zone)::date, j.id, b.completed_by, j.work_order_id, j.phase_id, wo.product_id, sgn, sgn * b.qt_total, sgn * b.scrapped_qt
      from report_zone z cross join jobs j join work_orders wo on wo.id = j.work_order_id
      where j.id = b.job_id
      on conflict on constraint report_daily_key do update set batches = r.batches + excluded.batches, pieces = r.pieces + excluded.pieces,
        scrapped = r.scrapped + excluded.scrapped;
      if sgn < 0 then
        delete from report_daily r using report_zone z
        where r.day = (b.completed_at at time zone z.time_zone)::date and r.job_id = b.job_id and r.user_id is not distinct from b.completed_by
          and r.sessions = 0 and r.batches = 0;
      end if;
    end $$`.execute(db)
  await sql`create function report_daily_sessions_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and (old.job_id, old.user_id, old.started_at, old.ended_at, old.end_reason, old.next_started_at)
          is not distinct from (new.job_id, new.user_id, new.started_at, new.ended_at, new.end_reason, new.next_started_at) then
        return null;
      end if;
      if tg_op <> 'INSERT' then perform report_daily_session(old, -1); end if;
      if tg_op <> 'DELETE' then perform report_daily_session(new, 1); end if;
      return null;
    end $$`.execute(db)
  await sql`create function report_daily_batches_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and (old.job_id, old.status, old.completed_at, old.completed_by, old.qt_total, old.scrapped_qt)
          is not distinct from (new.job_id, new.status, new.completed_at, new.completed_by, new.qt_total, new.scrapped_qt) then
        return null;
      end if;
      if tg_op <> 'INSERT' then perform report_daily_batch(old, -1); end if;
      if tg_op <> 'DELETE' then perform report_daily_batch(new, 1); end if;
      return null;
    end $$`.execute(db)
  await sql`create trigger report_daily_sessions after insert or update or delete on work_sessions for each row execute function report_daily_sessions_changed()`.execute(db)
  await sql`create trigger report_daily_batches after insert or update or delete on batches for each row execute function report_daily_batches_changed()`.execute(db)
  // The whole rollup from scratch, set-based (after a zone change, a bulk load, or to check it).
  await sql`create function report_daily_rebuild() returns void language plpgsql as $$
    begin
      lock table report_daily in exclusive mode;
      delete from report_daily;
      insert into report_daily (day, job_id, user_id, work_order_id, phase_id, product_id, sessions, run_ms, pause_ms, forced_pause_ms, offline_ms, batches, pieces, scrapped)
      select x.day, x.job_id, x.user_id, j.work_order_id, j.phase_id, wo.product_id, sum(x.sessions), sum(x.run_ms), sum(x.pause_ms), sum(x.forced_pause_ms),
        sum(x.offline_ms), sum(x.batches), sum(x.pieces), sum(x.scrapped)
      from (
        select s.day, s.job_id, s.user_id, 1 as sessions, s.run_ms,
          case when coalesce(s.end_reason, '') not in ('offline', 'session_locked') then s.gap else 0 end as pause_ms,
          case when s.end_reason = 'session_locked' then s.gap else 0 end as forced_pause_ms,
          case when s.end_reason = 'offline' then s.gap else 0 end as offline_ms,
          0 as batches, 0 as pieces, 0 as scrapped
        from (
          select (ws.started_at at time zone z.time_zone)::date as day, ws.job_id, ws.user_id, ws.end_reason,
            case when ws.ended_at is null then 0 else greatest(0, extract(epoch from (ws.ended_at - ws.started_at)) * 1000) end as run_ms,
            case when ws.ended_at is not null and ws.next_started_at is not null
                and (ws.next_started_at at time zone z.time_zone)::date = (ws.ended_at at time zone z.time_zone)::date
              then greatest(0, extract(epoch from (ws.next_started_at - ws.ended_at)) * 1000) else 0 end as gap
          from work_sessions ws cross join report_zone z
        ) s
        union all
        select (b.completed_at at time zone z.time_zone)::date, b.job_id, b.completed_by, 0, 0, 0, 0, 0, 1, b.qt_total, b.scrapped_qt
        from batches b cross join report_zone z
        where b.status = 'completed' and b.completed_at is not null
      ) x
      join jobs j on j.id = x.job_id join work_orders wo on wo.id = j.work_order_id
      group by x.day, x.job_id, x.user_id, j.work_order_id, j.phase_id, wo.product_id;
    end $$`.execute(db)
  await sql`select report_daily_rebuild()`.execute(db)
  // The live part of the reports: open sessions, and the last session of a job (its pause may be open).
  await sql`create index work_sessions_open on work_sessions (started_at) where ended_at is null`.execute(db)
  await sql`create index work_sessions_last on work_sessions (ended_at) where next_started_at is null`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
