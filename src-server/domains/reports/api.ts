import { labourReport } from './labour'
import { oeeReport } from './oee'
import type { Scope } from '../../../src/auth/scopes'
import {
  LabourReport,
  LabourReportInput,
  OeeReport,
  OeeReportInput,
  ProductionDashboard,
  ProductionReport,
  ProductionReportInput,
  QualityReport,
  QualityReportInput,
  ReportJobs,
  ReportJobsInput,
} from '../../../src/domains/reports/schemas'
import { query, useCases } from '../../api/use-case'
import * as reports from './service'

/** The reports of the Rapporti area: reporting staff (SPEC 6: the area's scope). */
const REPORT_USERS = ['reporting'] as const satisfies readonly Scope[]
/** The production home's short dashboard: production staff, and reporting staff. */
const DASHBOARD_USERS = ['production', 'reporting'] as const satisfies readonly Scope[]
const reporting = { scope: REPORT_USERS }
const RANGE =
  '`from`, `to`: first and last day, both included (YYYY/MM/DD or YYYY-MM-DD, plant calendar: the server\'s time zone, named in `time_zone`); ' +
  '`period`: day (default), week (from Monday), month or year; filters `product_key`, `work_order_key`, `phase_key`, `department_key`, `line`, `operator_key`. ' +
  'Durations in milliseconds.'

/** The Rapporti screens' reports, also as JSON for BI tools. */
export const reportsApi = useCases('reports', {
  production: query({
    summary:
      'Production: pieces completed per period (batches completed, every phase; final_completed = last phase) and planned (work orders due in the period); ' +
      'rows grouped by `group_by` (product, work_order, phase, department, line, operator); open work orders late or at risk (remaining work at std_processing_time ' +
      `over the time left to the end of the due day). ${RANGE}`,
    access: reporting,
    input: ProductionReportInput,
    response: ProductionReport,
    rest: { method: 'get', path: '/report/production' },
    run: (ctx, input) => reports.productionReport(ctx, input),
  }),
  labour: query({
    summary:
      'Labour and cost: per operator run time of work sessions started in the range, pauses, forced pauses and offline time apart, pieces and standard time; ' +
      "cost = hours x the user's hourly cost (settings' default operator cost when none); per work order actual against standard cost, per piece. " +
      RANGE,
    access: reporting,
    input: LabourReportInput,
    response: LabourReport,
    rest: { method: 'get', path: '/report/labour' },
    run: (ctx, input) => labourReport(ctx, ctx.actor, input),
  }),
  quality: query({
    summary:
      'Quality: issues opened, closed and escalated per period and by `group_by` (type, product, phase); open critical issues; time to close (median, p90) of the issues ' +
      `closed in the range; filter \`type_key\` too. ${RANGE}`,
    access: reporting,
    input: QualityReportInput,
    response: QualityReport,
    rest: { method: 'get', path: '/report/quality' },
    run: (ctx, input) => reports.qualityReport(ctx, input),
  }),
  oee: query({
    summary:
      'OEE = availability x performance x quality per period and by `group_by` (phase, department, line). availability = run / (run + pauses + forced pauses + offline); ' +
      `performance = std_processing_time x pieces / run; quality = (pieces - scrapped) / pieces. Ratios are 0..1, null without data; performance is raw and may exceed 1 (a standard time to review), OEE takes it capped at 1. planned_ms is the availability denominator (run + pauses + forced pauses + offline). ${RANGE}`,
    access: reporting,
    input: OeeReportInput,
    response: OeeReport,
    rest: { method: 'get', path: '/report/oee' },
    run: (ctx, input) => oeeReport(ctx, input),
  }),
  jobs: query({
    summary: `Drill-down: the jobs with pieces completed or work sessions in the range (or in the period starting on \`bucket\`), at most 500. ${RANGE}`,
    access: reporting,
    input: ReportJobsInput,
    response: ReportJobs,
    rest: { method: 'get', path: '/report/jobs' },
    run: (ctx, input) => reports.reportJobs(ctx, input),
  }),
  dashboard: query({
    summary: "Today's output (last phase) against the planned pieces of work orders due today, running and paused jobs, open critical issues",
    access: { scope: DASHBOARD_USERS },
    response: ProductionDashboard,
    rest: { method: 'get', path: '/report/dashboard' },
    run: (ctx) => reports.productionDashboard(ctx),
  }),
})
