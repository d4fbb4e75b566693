import * as v from 'valibot'
import { DayInput } from '../../dates'
import { StorableText, UuidKey } from '../../valibot-helpers'

/**
 * Reports (area reporting, 'Rapporti'; issue 16): read models over batches, work sessions and
 * issues. Periods (SPEC 9: year, month, week, day) are read on the plant's calendar (the server
 * process's time zone, as jobs' `late` and counters); a week starts on Monday (ISO 8601).
 * Durations leave the API as milliseconds, costs in the currency of users' hourly cost.
 */
export const REPORT_PERIODS = ['day', 'week', 'month', 'year'] as const
export type ReportPeriod = (typeof REPORT_PERIODS)[number]
export const PRODUCTION_GROUPS = ['product', 'work_order', 'phase', 'department', 'line', 'operator'] as const
export type ProductionGroup = (typeof PRODUCTION_GROUPS)[number]
export const OEE_GROUPS = ['phase', 'department', 'line'] as const
export type OeeGroup = (typeof OEE_GROUPS)[number]
export const QUALITY_GROUPS = ['type', 'product', 'phase'] as const
export type QualityGroup = (typeof QUALITY_GROUPS)[number]
/** The longest range a report reads (about ten years of days). */
export const REPORT_RANGE_DAYS_MAX = 3660
export const REPORT_JOBS_MAX = 500

const key = (name: string) => v.optional(UuidKey(`${name} must be a valid key`))

/** Range and filters shared by every report (tRPC input; REST takes the same as query strings). */
const rangeEntries = {
  /** First and last day of the range, both included (YYYY/MM/DD or YYYY-MM-DD, plant calendar). */
  from: DayInput,
  to: DayInput,
  period: v.optional(v.picklist(REPORT_PERIODS, 'period is one of day, week, month, year')),
  product_key: key('product_key'),
  work_order_key: key('work_order_key'),
  phase_key: key('phase_key'),
  department_key: key('department_key'),
  operator_key: key('operator_key'),
  line: v.optional(v.pipe(v.string(), StorableText, v.trim(), v.maxLength(100))),
}

export const ProductionReportInput = v.object({ ...rangeEntries, group_by: v.optional(v.picklist(PRODUCTION_GROUPS, 'unknown grouping')) })
export type ProductionReportInput = v.InferOutput<typeof ProductionReportInput>
export const LabourReportInput = v.object(rangeEntries)
export type LabourReportInput = v.InferOutput<typeof LabourReportInput>
export const QualityReportInput = v.object({ ...rangeEntries, group_by: v.optional(v.picklist(QUALITY_GROUPS, 'unknown grouping')), type_key: key('type_key') })
export type QualityReportInput = v.InferOutput<typeof QualityReportInput>
export const OeeReportInput = v.object({ ...rangeEntries, group_by: v.optional(v.picklist(OEE_GROUPS, 'unknown grouping')) })
export type OeeReportInput = v.InferOutput<typeof OeeReportInput>
/** Drill-down: the jobs behind a bar (same filters; `bucket` narrows to one period, its first day). */
export const ReportJobsInput = v.object({ ...rangeEntries, bucket: v.optional(DayInput) })
export type ReportJobsInput = v.InferOutput<typeof ReportJobsInput>

export type ReportRangeInput = LabourReportInput

const num = v.number()
const nnum = v.nullable(v.number())
const str = v.string()
const nstr = v.nullable(v.string())

const RangeOut = { from: str, to: str, period: v.picklist(REPORT_PERIODS), time_zone: str }

export const ProductionReport = v.object({
  ...RangeOut,
  group_by: v.picklist(PRODUCTION_GROUPS),
  totals: v.object({ completed: num, scrapped: num, good: num, planned: num, work_orders_late: num, work_orders_at_risk: num }),
  /** One per period of the range (first day YYYY/MM/DD): pieces completed (every phase), scrap, and the planned pieces of work orders due in it. */
  buckets: v.array(v.object({ bucket: str, completed: num, scrapped: num, planned: num, final_completed: num })),
  rows: v.array(v.object({ key: nstr, label: str, completed: num, scrapped: num, good: num, jobs: num, work_orders: num })),
  /** Open work orders late (due before today) or at risk (remaining work at standard time exceeds the time left to the end of the due day). */
  late: v.array(
    v.object({
      work_order_key: str,
      code: str,
      product_code: str,
      line: str,
      due_by: nstr,
      planned_qt: num,
      completed_qt: num,
      remaining_work_ms: num,
      time_to_due_ms: nnum,
      state: v.picklist(['late', 'at_risk']),
    }),
  ),
})
export type ProductionReport = v.InferOutput<typeof ProductionReport>

const Times = { worked_ms: num, pause_ms: num, forced_pause_ms: num, offline_ms: num }
export const LabourReport = v.object({
  ...RangeOut,
  default_hourly_cost: num,
  totals: v.object({ ...Times, cost: num, std_ms: num, pieces: num }),
  buckets: v.array(v.object({ bucket: str, ...Times })),
  operators: v.array(
    v.object({
      operator_key: str,
      username: str,
      name: str,
      ...Times,
      sessions: num,
      pieces: num,
      std_ms: num,
      hourly_cost: num,
      /** True when the user has no hourly cost of their own (settings' default operator cost). */
      default_cost: v.boolean(),
      cost: num,
    }),
  ),
  work_orders: v.array(
    v.object({
      work_order_key: str,
      code: str,
      product_code: str,
      worked_ms: num,
      std_ms: num,
      cost: num,
      std_cost: num,
      pieces: num,
      cost_per_piece: nnum,
      std_cost_per_piece: nnum,
    }),
  ),
})
export type LabourReport = v.InferOutput<typeof LabourReport>

export const QualityReport = v.object({
  ...RangeOut,
  group_by: v.picklist(QUALITY_GROUPS),
  totals: v.object({ opened: num, closed: num, escalated: num, open_critical: num, close_median_ms: nnum, close_p90_ms: nnum }),
  buckets: v.array(v.object({ bucket: str, opened: num, closed: num, escalated: num })),
  rows: v.array(v.object({ key: nstr, label: str, opened: num, closed: num, escalated: num, open_critical: num, close_median_ms: nnum, close_p90_ms: nnum })),
  open_critical: v.array(v.object({ issue_key: str, code: str, title: str, type_name: str, opened_at: num, work_order_code: nstr, product_code: nstr })),
})
export type QualityReport = v.InferOutput<typeof QualityReport>

const OeeParts = {
  run_ms: num,
  pause_ms: num,
  forced_pause_ms: num,
  offline_ms: num,
  planned_ms: num,
  std_ms: num,
  pieces: num,
  scrapped: num,
  availability: nnum,
  performance: nnum,
  quality: nnum,
  oee: nnum,
}
export const OeeReport = v.object({
  ...RangeOut,
  group_by: v.picklist(OEE_GROUPS),
  totals: v.object(OeeParts),
  buckets: v.array(v.object({ bucket: str, ...OeeParts })),
  rows: v.array(v.object({ key: nstr, label: str, ...OeeParts })),
})
export type OeeReport = v.InferOutput<typeof OeeReport>

export const ReportJobs = v.object({
  jobs: v.array(
    v.object({
      job_key: str,
      work_order_key: str,
      work_order_code: str,
      product_code: str,
      phase_name: str,
      department_name: nstr,
      line: str,
      operator_name: nstr,
      status: str,
      quantity: num,
      completed_in_range: num,
      scrapped_in_range: num,
      worked_ms: num,
    }),
  ),
  truncated: v.boolean(),
})
export type ReportJobs = v.InferOutput<typeof ReportJobs>

export const ProductionDashboard = v.object({
  today: str,
  time_zone: str,
  /** Pieces of the last phase completed today against the planned pieces of work orders due today. */
  completed_today: num,
  planned_today: num,
  running_jobs: num,
  paused_jobs: num,
  open_critical_issues: num,
})
export type ProductionDashboard = v.InferOutput<typeof ProductionDashboard>
