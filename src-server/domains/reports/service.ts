import { sql } from 'kysely'
import { type ProductionDashboard, type ProductionReport, type ProductionReportInput, type QualityReport, type QualityReportInput, REPORT_JOBS_MAX, REPORT_RANGE_DAYS_MAX, type ReportJobs, type ReportJobsInput, type ReportRangeInput } from '../../../src/domains/reports/schemas'
import type { Services } from '../../context'
import { invalidField } from '../../input-issues'
import { batchesCte, boundsCte, bucketIndex, bucketList, dayBucketIndex, type Frame, fromTs, isoDay, jobFilters, phaseLabel, localDay, msBetween, rollupCte, sessionsCte, stdSeconds, toTs, workOrderFilters } from './queries'

/**
 * Reports (issue 16): read models over batches (pieces completed and scrapped), work sessions
 * (run time, and the pauses between them), work orders (plan, due dates) and issues. Nothing is
 * written. Periods are cut on the plant's calendar: the server process's time zone (the same
 * calendar as jobs' `late`, issue day filters and counters); `timeZone` overrides it (tests).
 * Cross-domain data is read, never changed: the one setting used (default operator hourly cost)
 * comes through the settings service.
 */
export type ReportSvc = Pick<Services, 'db' | 'clock'> & { timeZone?: string }

export const plantTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

const DAY_MS = 86_400_000

/** The frame of a report: range checked (from <= to, at most REPORT_RANGE_DAYS_MAX days). */
function frameOf(svc: ReportSvc, input: Pick<ReportRangeInput, 'from' | 'to' | 'period'>): Frame {
  const from = isoDay(input.from)
  const to = isoDay(input.to)
  if (to < from) throw invalidField({ path: 'to', kind: 'invalid', message: 'the last day of the range is before the first' })
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1
  if (days > REPORT_RANGE_DAYS_MAX) {
    throw invalidField({ path: 'to', kind: 'max_value', limit: REPORT_RANGE_DAYS_MAX, message: `a report covers at most ${REPORT_RANGE_DAYS_MAX} days` })
  }
  return { tz: svc.timeZone ?? plantTimeZone(), period: input.period ?? 'day', from, to, now: svc.clock.now() }
}

/**
 * The daily rollup (report_daily) cuts plant days in the zone stored in report_zone. When the
 * plant's zone differs (first report after the server's zone changed; tests that switch zones),
 * store it and rebuild the rollup from scratch (set-based, the rollup locked meanwhile), once.
 */
export async function ensureRollupZone(db: ReportSvc['db'], tz: string): Promise<void> {
  const stored = await sql<{ time_zone: string }>`select time_zone from report_zone`.execute(db)
  if (stored.rows[0]?.time_zone === tz) return
  await db.transaction().execute(async (trx) => {
    await sql`lock table report_daily in exclusive mode`.execute(trx)
    const again = await sql<{ time_zone: string }>`select time_zone from report_zone`.execute(trx)
    if (again.rows[0]?.time_zone === tz) return
    await sql`update report_zone set time_zone = ${tz}`.execute(trx)
    await sql`select report_daily_rebuild()`.execute(trx)
  })
}

export async function rollupFrame(svc: ReportSvc, input: Pick<ReportRangeInput, 'from' | 'to' | 'period'>): Promise<Frame> {
  const f = frameOf(svc, input)
  await ensureRollupZone(svc.db, f.tz)
  return f
}

export const rangeOut = (f: Frame) => ({ from: f.from.replaceAll('-', '/'), to: f.to.replaceAll('-', '/'), period: f.period, time_zone: f.tz })
export const n = (x: unknown) => (x === null || x === undefined ? 0 : Number(x))
export const ratio = (a: number, b: number) => (b > 0 ? a / b : null)
export const round2 = (x: number) => Math.round(x * 100) / 100

// ---------------------------------------------------------------------------------------------
// Production

const PRODUCTION_KEYS = {
  product: { key: sql`bt.product_id::text`, label: sql`(select p.code from products p where p.id = bt.product_id)` },
  work_order: { key: sql`bt.work_order_id::text`, label: sql`(select w.code from work_orders w where w.id = bt.work_order_id)` },
  phase: {
    key: sql`bt.phase_id::text`,
    label: phaseLabel(sql`bt.phase_id`),
  },
  department: { key: sql`bt.department_id::text`, label: sql`coalesce((select d.name from departments d where d.id = bt.department_id), '')` },
  line: { key: sql`bt.line`, label: sql`bt.line` },
  operator: {
    key: sql`bt.completed_by::text`,
    label: sql`coalesce((select nullif(trim(u.name || ' ' || u.surname), '') from users u where u.id = bt.completed_by), (select u.username from users u where u.id = bt.completed_by), '')`,
  },
} as const

/**
 * Pieces completed per period (batches completed, every phase; `final_completed`: the last
 * phase's, i.e. the work orders' output) and grouped by product, work order, phase, department,
 * line or operator (who completed the batch); planned pieces = work orders due in the period;
 * open work orders late (due before today) or at risk (remaining pieces of their open jobs at
 * std_processing_time take longer than the time left to the end of the due day).
 */
export async function productionReport(svc: ReportSvc, input: ProductionReportInput): Promise<ProductionReport> {
  const f = await rollupFrame(svc, input)
  const groupBy = input.group_by ?? 'product'
  const g = PRODUCTION_KEYS[groupBy]
  // Batches completed in the range, from the daily rollup (a row per plant day, job and who completed them).
  const bt = sql`${rollupCte(f, input, false, groupBy === 'line')},
    bt as (select rd.*, rd.user_id as completed_by, rd.pieces as qt_total, rd.scrapped as scrapped_qt from rd where rd.batches > 0)`
  const bucketRows = await sql<{ bucket: string; completed: number; scrapped: number; final_completed: number; planned: number }>`
    with ${bt},
    per as (
      select ${dayBucketIndex(sql`pd.day`)} as bi, sum(completed) as completed, sum(scrapped) as scrapped, sum(final_completed) as final_completed
      from (
        select day, sum(qt_total) as completed, sum(scrapped_qt) as scrapped, sum(qt_total) filter (where final) as final_completed from bt group by day
      ) pd group by 1
    ),
    plan as (
      select to_char(date_trunc(${f.period}, wo.due_by::timestamp), 'YYYY/MM/DD') as bucket, sum(wo.planned_qt) as planned
      from work_orders wo
      where wo.archived_at is null and wo.due_by >= ${f.from}::date and wo.due_by <= ${f.to}::date ${workOrderFilters(input)}
      group by 1
    )
    select s.bucket, coalesce(per.completed, 0) as completed, coalesce(per.scrapped, 0) as scrapped,
      coalesce(per.final_completed, 0) as final_completed, coalesce(plan.planned, 0) as planned
    from (${bucketList(f)}) s left join per on per.bi = s.i left join plan on plan.bucket = s.bucket
    order by s.bucket`.execute(svc.db)
  const groupRows = await sql<{ key: string | null; label: string | null; completed: number; scrapped: number; jobs: number; work_orders: number }>`
    with ${bt},
    grouped as (
      select ${g.key} as key, min(bt.product_id::text)::uuid as product_id, min(bt.work_order_id::text)::uuid as work_order_id,
        min(bt.phase_id::text)::uuid as phase_id, min(bt.department_id::text)::uuid as department_id, min(bt.line) as line,
        min(bt.completed_by::text)::uuid as completed_by,
        sum(qt_total) as completed, sum(scrapped_qt) as scrapped, count(distinct job_id) as jobs, count(distinct work_order_id) as work_orders
      from bt group by 1
    )
    select bt.key, ${g.label} as label, bt.completed, bt.scrapped, bt.jobs, bt.work_orders
    from grouped bt order by bt.completed desc, label`.execute(svc.db)
  const late = await lateWorkOrders(svc, f, input)
  const buckets = bucketRows.rows.map((r) => ({ bucket: r.bucket, completed: n(r.completed), scrapped: n(r.scrapped), planned: n(r.planned), final_completed: n(r.final_completed) }))
  const rows = groupRows.rows.map((r) => ({
    key: r.key,
    label: r.label ?? '',
    completed: n(r.completed),
    scrapped: n(r.scrapped),
    good: n(r.completed) - n(r.scrapped),
    jobs: n(r.jobs),
    work_orders: n(r.work_orders),
  }))
  const sum = (k: 'completed' | 'scrapped' | 'planned') => buckets.reduce((a, b) => a + b[k], 0)
  return {
    ...rangeOut(f),
    group_by: groupBy,
    totals: {
      completed: sum('completed'),
      scrapped: sum('scrapped'),
      good: sum('completed') - sum('scrapped'),
      planned: sum('planned'),
      work_orders_late: late.filter((l) => l.state === 'late').length,
      work_orders_at_risk: late.filter((l) => l.state === 'at_risk').length,
    },
    buckets,
    rows,
    late,
  }
}

async function lateWorkOrders(svc: ReportSvc, f: Frame, input: ReportRangeInput): Promise<ProductionReport['late']> {
  const today = sql`${localDay(f, sql`${f.now}::timestamptz`)}`
  const { rows } = await sql<{
    work_order_key: string
    code: string
    product_code: string
    line: string
    due_by: string
    planned_qt: number
    completed_qt: number
    remaining_work_ms: number
    time_to_due_ms: number
    late: boolean
  }>`
    with open_wo as (
      select wo.id, wo.code, wo.line, wo.due_by, wo.planned_qt, wo.completed_qt, wo.product_id
      from work_orders wo
      where wo.archived_at is null and wo.status = 'active' and wo.due_by is not null ${workOrderFilters(input)}
    ),
    work as (
      select o.id, coalesce(sum(greatest(j.quantity - j.completed_qt, 0) * ${stdSeconds} * 1000), 0) as remaining_work_ms
      from open_wo o
      left join jobs j on j.work_order_id = o.id and j.status <> 'closed'
      left join product_phases ph on ph.id = j.phase_id
      group by o.id
    )
    select o.id as work_order_key, o.code, p.code as product_code, o.line, to_char(o.due_by, 'YYYY/MM/DD') as due_by, o.planned_qt, o.completed_qt,
      w.remaining_work_ms,
      ${msBetween(sql`${f.now}::timestamptz`, sql`((o.due_by + 1)::timestamp at time zone ${f.tz})`)} as time_to_due_ms,
      o.due_by < ${today} as late
    from open_wo o join work w on w.id = o.id join products p on p.id = o.product_id
    where o.due_by < ${today}
      or w.remaining_work_ms > ${msBetween(sql`${f.now}::timestamptz`, sql`((o.due_by + 1)::timestamp at time zone ${f.tz})`)}
    order by o.due_by, o.code
    limit 200`.execute(svc.db)
  return rows.map((r) => ({
    work_order_key: r.work_order_key,
    code: r.code,
    product_code: r.product_code,
    line: r.line,
    due_by: r.due_by,
    planned_qt: n(r.planned_qt),
    completed_qt: n(r.completed_qt),
    remaining_work_ms: Math.round(n(r.remaining_work_ms)),
    time_to_due_ms: Math.round(n(r.time_to_due_ms)),
    state: r.late ? 'late' : 'at_risk',
  }))
}

// ---------------------------------------------------------------------------------------------
// Quality

const QUALITY_KEYS = {
  type: { key: sql`x.type_id::text`, label: sql`(select t.name from issue_types t where t.id = x.type_id::uuid)` },
  product: { key: sql`x.product_id::text`, label: sql`coalesce((select p.code from products p where p.id = x.product_id::uuid), '')` },
  phase: {
    key: sql`x.phase_id::text`,
    label: sql`coalesce(${phaseLabel(sql`x.phase_id::uuid`)}, '')`,
  },
} as const

/**
 * Issues opened (created), closed and escalated (made critical by close-within) per period and
 * by type, product or phase; open critical issues now; time to close (from the last opening to
 * the close, issues closed in the range): median and 90th percentile.
 */
export async function qualityReport(svc: ReportSvc, input: QualityReportInput): Promise<QualityReport> {
  const f = frameOf(svc, input)
  const groupBy = input.group_by ?? 'type'
  const conds = []
  if (input.product_key) conds.push(sql`coalesce(i.product_id, wo.product_id) = ${input.product_key}`)
  if (input.work_order_key) conds.push(sql`wo.id = ${input.work_order_key}`)
  if (input.phase_key) conds.push(sql`j.phase_id = ${input.phase_key}`)
  if (input.department_key) conds.push(sql`ph.department_id = ${input.department_key}`)
  if (input.line) conds.push(sql`wo.line = ${input.line}`)
  if (input.operator_key) conds.push(sql`i.opened_by = ${input.operator_key}`)
  if (input.type_key) conds.push(sql`i.type_id = ${input.type_key}`)
  const where = conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``
  const issuesCte = (extra: ReturnType<typeof sql>) => sql`iss as (
      select i.id, i.code, i.title, i.type_id, i.state, i.critical, i.created_at, i.opened_at, i.closed_at, i.escalated_at,
        coalesce(i.product_id, wo.product_id) as product_id, j.phase_id, wo.code as work_order_code
      from issues i
      left join jobs j on j.id = i.job_id
      left join product_phases ph on ph.id = j.phase_id
      left join work_orders wo on wo.id = coalesce(i.work_order_id, j.work_order_id)
      ${where} ${conds.length ? sql`and` : sql`where`} ${extra}
    )`
  const inRange = (col: string) => sql`(${sql.ref(col)} >= ${fromTs(f)} and ${sql.ref(col)} < ${toTs(f)})`
  const happenings = sql`${boundsCte(f)}, ${issuesCte(sql`(${inRange('i.created_at')} or ${inRange('i.closed_at')} or ${inRange('i.escalated_at')} or (i.critical and i.state <> 'closed'))`)},
    ev as (
      select 'opened' as kind, created_at as at, type_id, product_id, phase_id, null::numeric as dur from iss where created_at >= ${fromTs(f)} and created_at < ${toTs(f)}
      union all
      select 'closed', closed_at, type_id, product_id, phase_id, ${msBetween(sql`opened_at`, sql`closed_at`)} from iss where closed_at >= ${fromTs(f)} and closed_at < ${toTs(f)}
      union all
      select 'escalated', escalated_at, type_id, product_id, phase_id, null from iss where escalated_at >= ${fromTs(f)} and escalated_at < ${toTs(f)}
      union all
      select 'open_critical', null, type_id, product_id, phase_id, null from iss where critical and state <> 'closed'
    )`
  const g = QUALITY_KEYS[groupBy]
  const [buckets, groups, totals, critical] = await Promise.all([
    sql<{ bucket: string; opened: number; closed: number; escalated: number }>`
      with ${happenings},
      per as (
        select ${bucketIndex(sql`at`)} as bi, count(*) filter (where kind = 'opened') as opened, count(*) filter (where kind = 'closed') as closed,
          count(*) filter (where kind = 'escalated') as escalated
        from ev where kind <> 'open_critical' group by 1
      )
      select s.bucket, coalesce(per.opened, 0) as opened, coalesce(per.closed, 0) as closed, coalesce(per.escalated, 0) as escalated
      from (${bucketList(f)}) s left join per on per.bi = s.i order by s.bucket`.execute(svc.db),
    sql<{ key: string | null; label: string | null; opened: number; closed: number; escalated: number; open_critical: number; p50: number | null; p90: number | null }>`
      with ${happenings},
      grouped as (
        select ${g.key} as key, min(x.type_id::text) as type_id, min(x.product_id::text) as product_id, min(x.phase_id::text) as phase_id,
          count(*) filter (where kind = 'opened') as opened, count(*) filter (where kind = 'closed') as closed,
          count(*) filter (where kind = 'escalated') as escalated, count(*) filter (where kind = 'open_critical') as open_critical,
          percentile_cont(0.5) within group (order by dur) filter (where kind = 'closed') as p50,
          percentile_cont(0.9) within group (order by dur) filter (where kind = 'closed') as p90
        from ev x group by 1
      )
      select x.key, ${g.label} as label, x.opened, x.closed, x.escalated, x.open_critical, x.p50, x.p90 from grouped x order by x.opened desc, label`.execute(svc.db),
    sql<{ p50: number | null; p90: number | null }>`
      with ${happenings}
      select percentile_cont(0.5) within group (order by dur) as p50, percentile_cont(0.9) within group (order by dur) as p90 from ev where kind = 'closed'`.execute(svc.db),
    sql<{ issue_key: string; code: string; title: string; type_name: string; opened_at: number; work_order_code: string | null; product_code: string | null }>`
      with ${issuesCte(sql`i.critical and i.state <> 'closed'`)}
      select iss.id as issue_key, iss.code, iss.title, t.name as type_name, (extract(epoch from iss.opened_at) * 1000)::float8 as opened_at,
        iss.work_order_code, p.code as product_code
      from iss join issue_types t on t.id = iss.type_id left join products p on p.id = iss.product_id
      order by iss.opened_at limit 100`.execute(svc.db),
  ])
  const bk = buckets.rows.map((r) => ({ bucket: r.bucket, opened: n(r.opened), closed: n(r.closed), escalated: n(r.escalated) }))
  const rows = groups.rows.map((r) => ({
    key: r.key,
    label: r.label ?? '',
    opened: n(r.opened),
    closed: n(r.closed),
    escalated: n(r.escalated),
    open_critical: n(r.open_critical),
    close_median_ms: r.p50 === null ? null : Math.round(n(r.p50)),
    close_p90_ms: r.p90 === null ? null : Math.round(n(r.p90)),
  }))
  const t = totals.rows[0]
  return {
    ...rangeOut(f),
    group_by: groupBy,
    totals: {
      opened: bk.reduce((a, b) => a + b.opened, 0),
      closed: bk.reduce((a, b) => a + b.closed, 0),
      escalated: bk.reduce((a, b) => a + b.escalated, 0),
      open_critical: rows.reduce((a, r) => a + r.open_critical, 0),
      close_median_ms: t?.p50 == null ? null : Math.round(n(t.p50)),
      close_p90_ms: t?.p90 == null ? null : Math.round(n(t.p90)),
    },
    buckets: bk,
    rows,
    open_critical: critical.rows.map((r) => ({ ...r, opened_at: n(r.opened_at) })),
  }
}

// ---------------------------------------------------------------------------------------------
// Drill-down and dashboard

/**
 * The jobs behind a bar: jobs with batches completed or work sessions started in the range
 * (or in one period of it, `bucket`), with the same filters; at most REPORT_JOBS_MAX, most
 * pieces first.
 */
export async function reportJobs(svc: ReportSvc, input: ReportJobsInput): Promise<ReportJobs> {
  let f = frameOf(svc, input)
  if (input.bucket) {
    const start = isoDay(input.bucket)
    const { rows } = await sql<{ last: string }>`select to_char((date_trunc(${f.period}, ${start}::date::timestamp) + ('1 ' || ${f.period})::interval - interval '1 day'), 'YYYY-MM-DD') as last`.execute(svc.db)
    const last = rows[0]!.last
    f = { ...f, from: start > f.from ? start : f.from, to: last < f.to ? last : f.to }
  }
  const { rows } = await sql<{
    job_key: string
    work_order_key: string
    work_order_code: string
    product_code: string
    phase_name: string
    department_name: string | null
    line: string
    operator_name: string | null
    status: string
    quantity: number
    completed_in_range: number
    scrapped_in_range: number
    worked_ms: number
  }>`
    with ${boundsCte(f)}, ${sessionsCte(f, jobFilters(input, sql`ws.user_id`))}, ${batchesCte(f, jobFilters(input, sql`b.completed_by`))},
    k as (
      select job_id, sum(qt) as completed, sum(sc) as scrapped, sum(run) as worked from (
        select job_id, qt_total as qt, scrapped_qt as sc, 0 as run from bt
        union all select job_id, 0, 0, run_ms from ws
      ) x group by job_id
    )
    select j.id as job_key, wo.id as work_order_key, wo.code as work_order_code, p.code as product_code, ph.name as phase_name, d.name as department_name,
      wo.line, nullif(trim(coalesce(u.name, '') || ' ' || coalesce(u.surname, '')), '') as operator_name, j.status, j.quantity,
      k.completed as completed_in_range, k.scrapped as scrapped_in_range, k.worked as worked_ms
    from k join jobs j on j.id = k.job_id join work_orders wo on wo.id = j.work_order_id join products p on p.id = wo.product_id
    join product_phases ph on ph.id = j.phase_id left join departments d on d.id = ph.department_id left join users u on u.id = j.operator_id
    order by k.completed desc, wo.code, j.position
    limit ${REPORT_JOBS_MAX + 1}`.execute(svc.db)
  return {
    jobs: rows.slice(0, REPORT_JOBS_MAX).map((r) => ({
      ...r,
      quantity: n(r.quantity),
      completed_in_range: n(r.completed_in_range),
      scrapped_in_range: n(r.scrapped_in_range),
      worked_ms: Math.round(n(r.worked_ms)),
    })),
    truncated: rows.length > REPORT_JOBS_MAX,
  }
}

/** The production home's dashboard: today's output against plan, running and paused jobs, open critical issues. */
export async function productionDashboard(svc: ReportSvc): Promise<ProductionDashboard> {
  const tz = svc.timeZone ?? plantTimeZone()
  const now = svc.clock.now()
  const { rows } = await sql<{ today: string; completed_today: number; planned_today: number; running_jobs: number; paused_jobs: number; open_critical_issues: number }>`
    with d as (select (${now}::timestamptz at time zone ${tz})::date as today)
    select to_char(d.today, 'YYYY/MM/DD') as today,
      (select coalesce(sum(b.qt_total), 0) from batches b join jobs j on j.id = b.job_id
        where b.status = 'completed' and b.completed_at >= (d.today::timestamp at time zone ${tz}) and b.completed_at < ((d.today + 1)::timestamp at time zone ${tz})
          and not exists (select 1 from work_order_phases nx where nx.work_order_id = j.work_order_id and nx.position > j.position)) as completed_today,
      (select coalesce(sum(wo.planned_qt), 0) from work_orders wo where wo.archived_at is null and wo.due_by = d.today) as planned_today,
      (select count(*) from jobs where active) as running_jobs,
      (select count(*) from jobs where status = 'paused') as paused_jobs,
      (select count(*) from issues where critical and state <> 'closed') as open_critical_issues
    from d`.execute(svc.db)
  const r = rows[0]!
  return {
    today: r.today,
    time_zone: tz,
    completed_today: n(r.completed_today),
    planned_today: n(r.planned_today),
    running_jobs: n(r.running_jobs),
    paused_jobs: n(r.paused_jobs),
    open_critical_issues: n(r.open_critical_issues),
  }
}
