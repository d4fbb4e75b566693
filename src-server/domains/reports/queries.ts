import { type RawBuilder, sql } from 'kysely'
import type { ReportPeriod, ReportRangeInput } from '../../../src/domains/reports/schemas'

/**
 * SQL fragments of the report read models. Every instant is bucketed on the plant's calendar:
 * `at time zone <zone>` turns a timestamptz into the plant's wall-clock time, date_trunc cuts it
 * to the period (a week starts on Monday), and a day's bounds are its local midnights.
 */
export type Frame = {
  tz: string
  period: ReportPeriod
  /** 'YYYY-MM-DD' */
  from: string
  /** 'YYYY-MM-DD' (included) */
  to: string
  now: Date
}

export const isoDay = (day: string) => day.replaceAll('/', '-')

/** The first instant of the range (the from day's local midnight). */
export const fromTs = (f: Frame) => sql`((${f.from}::date)::timestamp at time zone ${f.tz})`
/** The first instant after the range (the local midnight after the to day). */
export const toTs = (f: Frame) => sql`(((${f.to}::date) + 1)::timestamp at time zone ${f.tz})`
/** The period (its first day, YYYY/MM/DD) an instant falls in. */
export const bucketOf = (f: Frame, col: RawBuilder<unknown>) => sql<string>`to_char(date_trunc(${f.period}, ${col} at time zone ${f.tz}), 'YYYY/MM/DD')`
/** The plant day (date) of an instant. */
export const localDay = (f: Frame, col: RawBuilder<unknown>) => sql`(${col} at time zone ${f.tz})::date`

/** Every period of the range, first day YYYY/MM/DD, in order (empty periods included). */
export const bucketSeries = (f: Frame) =>
  sql<{ bucket: string }>`select to_char(g, 'YYYY/MM/DD') as bucket
    from generate_series(date_trunc(${f.period}, ${f.from}::date::timestamp), ${f.to}::date::timestamp, ('1 ' || ${f.period})::interval) as g`

/** Milliseconds between two timestamptz. */
export const msBetween = (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => sql<number>`(extract(epoch from (${b} - ${a})) * 1000)`

/** Standard processing time of a phase row `ph`, seconds per piece (0 when unset). */
export const stdSeconds = sql<number>`coalesce(nullif(ph.parameters->>'std_processing_time', '')::numeric, 0)`

/**
 * The filters on a job row `j` (with `wo` its work order and `ph` its phase); `operatorCol`
 * is the column the operator filter applies to (the session's user, the batch's completer).
 */
/**
 * A phase as report rows name it: product, the revision the phase belongs to, phase name
 * ("PMP rev 2 · Taglio"): the same phase of two revisions is two rows, told apart.
 */
export function phaseLabel(phaseId: RawBuilder<unknown>) {
  return sql`(select lp.code || coalesce(' rev ' || lr.number, '') || ' · ' || lph.name from product_phases lph join products lp on lp.id = lph.product_id
    left join product_revisions lr on lr.id = lph.revision_id where lph.id = ${phaseId})`
}

export function jobFilters(input: Omit<ReportRangeInput, 'from' | 'to' | 'period'>, operatorCol: RawBuilder<unknown> | null) {
  const conds: RawBuilder<unknown>[] = []
  if (input.product_key) conds.push(sql`wo.product_id = ${input.product_key}`)
  if (input.work_order_key) conds.push(sql`wo.id = ${input.work_order_key}`)
  if (input.phase_key) conds.push(sql`j.phase_id = ${input.phase_key}`)
  if (input.department_key) conds.push(sql`ph.department_id = ${input.department_key}`)
  if (input.line !== undefined && input.line !== '') conds.push(sql`wo.line = ${input.line}`)
  if (input.operator_key && operatorCol) conds.push(sql`${operatorCol} = ${input.operator_key}`)
  return conds.length ? sql`and ${sql.join(conds, sql` and `)}` : sql``
}

/** Work-order-level filters only (planned quantities, late work orders). */
export function workOrderFilters(input: Omit<ReportRangeInput, 'from' | 'to' | 'period'>) {
  const conds: RawBuilder<unknown>[] = []
  if (input.product_key) conds.push(sql`wo.product_id = ${input.product_key}`)
  if (input.work_order_key) conds.push(sql`wo.id = ${input.work_order_key}`)
  if (input.line !== undefined && input.line !== '') conds.push(sql`wo.line = ${input.line}`)
  return conds.length ? sql`and ${sql.join(conds, sql` and `)}` : sql``
}

/**
 * The bounds of the range's periods as instants, in one array (`bk.b`): period i of the range is
 * [b[i], b[i+1]) and `width_bucket(instant, b)` finds it by binary search, so no row is turned
 * into wall-clock time (`at time zone` per row costs more than the rest of a report). `bk.d`: the
 * plant's day starts over the range and three days after (the pause rule's "same day").
 */
export const boundsCte = (f: Frame) => sql`bk as (
    select
      (select array_agg((g at time zone ${f.tz}) order by g)
        from generate_series(date_trunc(${f.period}, ${f.from}::date::timestamp), ${f.to}::date::timestamp + ('1 ' || ${f.period})::interval, ('1 ' || ${f.period})::interval) g) as b,
      (select array_agg((g at time zone ${f.tz}) order by g)
        from generate_series(${f.from}::date::timestamp, ${f.to}::date::timestamp + interval '3 days', interval '1 day') g) as d
  )`

/** The period (1-based index into the range's periods) an instant falls in; needs `bk` in scope. */
export const bucketIndex = (col: RawBuilder<unknown>) => sql<number>`width_bucket(${col}, (select b from bk))`
/** Every period of the range: index (1-based) and first day YYYY/MM/DD, in order. */
export const bucketList = (f: Frame) =>
  sql<{ i: number; bucket: string }>`select row_number() over (order by g) as i, to_char(g, 'YYYY/MM/DD') as bucket
    from generate_series(date_trunc(${f.period}, ${f.from}::date::timestamp), ${f.to}::date::timestamp, ('1 ' || ${f.period})::interval) as g`
const sameDay = (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => sql`width_bucket(${a}, (select d from bk)) = width_bucket(${b}, (select d from bk))`

/**
 * Work sessions that start in the range (filtered), each with its run time and the pause that
 * follows it: the gap to the job's next work session (next_started_at, kept by a trigger) when
 * that session starts on the same plant day as the pause (a pause that runs into another day is
 * the end of a shift, not a loss); a pause still open today counts until now. The gap's kind
 * comes from why the session ended: 'offline' (forced pause for silence), 'session_locked'
 * (forced pause), anything else a pause. Needs `bk` (boundsCte) before it.
 * Columns: job_id, user_id, work_order_id, phase_id, department_id, line, product_id, started_at,
 * run_ms, gap_ms, gap_kind ('pause' | 'forced' | 'offline').
 */
export function sessionsCte(f: Frame, filters: RawBuilder<unknown>) {
  const now = sql`${f.now}::timestamptz`
  return sql`ws as (
      select ws.job_id, ws.user_id, j.work_order_id, j.phase_id, ph.department_id, wo.line, wo.product_id, ws.started_at,
        greatest(0, ${msBetween(sql`ws.started_at`, sql`coalesce(ws.ended_at, ${now})`)}) as run_ms,
        case
          when ws.ended_at is null then 0
          when ws.next_started_at is not null then
            case when ${sameDay(sql`ws.next_started_at`, sql`ws.ended_at`)} then greatest(0, ${msBetween(sql`ws.ended_at`, sql`ws.next_started_at`)}) else 0 end
          when j.status <> 'closed' and ${sameDay(now, sql`ws.ended_at`)} then greatest(0, ${msBetween(sql`ws.ended_at`, now)})
          else 0
        end as gap_ms,
        case ws.end_reason when 'offline' then 'offline' when 'session_locked' then 'forced' else 'pause' end as gap_kind
      from work_sessions ws
      join jobs j on j.id = ws.job_id
      join work_orders wo on wo.id = j.work_order_id
      join product_phases ph on ph.id = j.phase_id
      where ws.started_at >= ${fromTs(f)} and ws.started_at < ${toTs(f)} ${filters}
    )`
}

/**
 * Batches completed in the range (filtered): qt_total, scrapped_qt, completed_by, the job's
 * work order, phase, department, line and product, the standard time of its pieces (ms) and
 * whether the job is in the last phase of the product's process (its pieces are the work
 * order's output).
 */
export function batchesCte(f: Frame, filters: RawBuilder<unknown>) {
  return sql`lastph as (select distinct on (product_id, revision_id) id from product_phases order by product_id, revision_id, position desc),
    bt as (
      select b.qt_total, b.scrapped_qt, b.completed_by, b.completed_at, j.id as job_id, j.work_order_id, j.phase_id, ph.department_id, wo.line, wo.product_id,
        b.qt_total * ${stdSeconds} * 1000 as std_ms,
        j.phase_id in (select id from lastph) as final
      from batches b
      join jobs j on j.id = b.job_id
      join work_orders wo on wo.id = j.work_order_id
      join product_phases ph on ph.id = j.phase_id
      where b.status = 'completed' and b.completed_at >= ${fromTs(f)} and b.completed_at < ${toTs(f)} ${filters}
    )`
}

/**
 * The filters on a rollup row `r` (report_daily, with `wo` its work order and `ph` its phase):
 * the operator filter applies to the row's user (who worked the sessions, completed the batches).
 */
export function rollupFilters(input: Omit<ReportRangeInput, 'from' | 'to' | 'period'>) {
  const conds: RawBuilder<unknown>[] = []
  if (input.product_key) conds.push(sql`r.product_id = ${input.product_key}`)
  if (input.work_order_key) conds.push(sql`r.work_order_id = ${input.work_order_key}`)
  if (input.phase_key) conds.push(sql`r.phase_id = ${input.phase_key}`)
  if (input.department_key) conds.push(sql`ph.department_id = ${input.department_key}`)
  if (input.line !== undefined && input.line !== '') conds.push(sql`wo.line = ${input.line}`)
  if (input.operator_key) conds.push(sql`r.user_id = ${input.operator_key}`)
  return conds.length ? sql`and ${sql.join(conds, sql` and `)}` : sql``
}

/** The period (1-based index into the range's periods) a plant day falls in; needs `bd` (rollupCte) in scope. */
export const dayBucketIndex = (col: RawBuilder<unknown>) => sql<number>`width_bucket(${col}, (select b from bd))`

/**
 * The rollup rows of the range (report_daily: per plant day, job and user; kept by triggers, see
 * migration 2026-11-26-32), filtered, with what only "now" knows added live when `live`: the run
 * time of sessions still open and the open pause after a job's last session when it ended today
 * (the same rules as sessionsCte). Columns of `rd`: day, job_id, user_id, work_order_id, phase_id,
 * product_id, department_id, line, sessions, run_ms, pause_ms, forced_pause_ms, offline_ms,
 * batches, pieces, scrapped, std_ms, final (last phase of the product's process); line is null unless
 * `groupsByLine` or a line filter. `bd.b`: the
 * periods' first days (dayBucketIndex).
 */
export function rollupCte(f: Frame, input: Omit<ReportRangeInput, 'from' | 'to' | 'period'>, live: boolean, groupsByLine = false) {
  // The work order is joined only for its line (a filter or a grouping): a rollup row has the rest.
  const needLine = groupsByLine || (input.line !== undefined && input.line !== '')
  const now = sql`${f.now}::timestamptz`
  const todayStart = sql`((${now} at time zone ${f.tz})::date::timestamp at time zone ${f.tz})`
  const liveFilters = jobFilters(input, sql`ws.user_id`)
  const liveRows = sql`
      union all
      select (ws.started_at at time zone ${f.tz})::date, ws.job_id, ws.user_id, j.work_order_id, j.phase_id, wo.product_id, ph.department_id, wo.line,
        0, greatest(0, ${msBetween(sql`ws.started_at`, now)})::float8, 0, 0, 0, 0, 0, 0, 0, false
      from work_sessions ws join jobs j on j.id = ws.job_id join work_orders wo on wo.id = j.work_order_id join product_phases ph on ph.id = j.phase_id
      where ws.ended_at is null and ws.started_at >= ${fromTs(f)} and ws.started_at < ${toTs(f)} ${liveFilters}
      union all
      select (ws.started_at at time zone ${f.tz})::date, ws.job_id, ws.user_id, j.work_order_id, j.phase_id, wo.product_id, ph.department_id, wo.line, 0, 0,
        case when coalesce(ws.end_reason, '') not in ('offline', 'session_locked') then greatest(0, ${msBetween(sql`ws.ended_at`, now)}) else 0 end::float8,
        case when ws.end_reason = 'session_locked' then greatest(0, ${msBetween(sql`ws.ended_at`, now)}) else 0 end::float8,
        case when ws.end_reason = 'offline' then greatest(0, ${msBetween(sql`ws.ended_at`, now)}) else 0 end::float8,
        0, 0, 0, 0, false
      from work_sessions ws join jobs j on j.id = ws.job_id join work_orders wo on wo.id = j.work_order_id join product_phases ph on ph.id = j.phase_id
      where ws.next_started_at is null and ws.ended_at >= ${todayStart} and j.status <> 'closed'
        and ws.started_at >= ${fromTs(f)} and ws.started_at < ${toTs(f)} ${liveFilters}`
  return sql`bd as (
      select array_agg(g::date order by g) as b
      from generate_series(date_trunc(${f.period}, ${f.from}::date::timestamp), ${f.to}::date::timestamp + ('1 ' || ${f.period})::interval, ('1 ' || ${f.period})::interval) g
    ),
    -- Each revision (and the draft) has its own last phase: a job's is its work order's revision's.
    lastph as (select distinct on (product_id, revision_id) id from product_phases order by product_id, revision_id, position desc),
    phs as materialized (
      select ph.id, ph.department_id, (${stdSeconds} * 1000)::float8 as std_ms, ph.id in (select id from lastph) as final from product_phases ph
    ),
    rd as (
      select r.day, r.job_id, r.user_id, r.work_order_id, r.phase_id, r.product_id, ph.department_id, ${needLine ? sql`wo.line` : sql`null::text`} as line,
        r.sessions, r.run_ms::float8 as run_ms, r.pause_ms::float8 as pause_ms, r.forced_pause_ms::float8 as forced_pause_ms,
        r.offline_ms::float8 as offline_ms, r.batches, r.pieces::integer as pieces, r.scrapped::integer as scrapped, r.pieces * ph.std_ms as std_ms, ph.final
      from report_daily r join phs ph on ph.id = r.phase_id ${needLine ? sql`join work_orders wo on wo.id = r.work_order_id` : sql``}
      where r.day >= ${f.from}::date and r.day <= ${f.to}::date ${rollupFilters(input)}
      ${live ? liveRows : sql``}
    )`
}
