import {
  LabourReport,
  LabourReportQuery,
  OeeReport,
  OeeReportQuery,
  ProductionDashboard,
  ProductionReport,
  ProductionReportQuery,
  QualityReport,
  QualityReportQuery,
  ReportJobs,
  ReportJobsQuery,
} from '../../../src/domains/reports/schemas'
import { route } from '../../rest/route'
import * as reports from './service'
import { DASHBOARD_USERS, REPORT_USERS } from './trpc'

const tag = 'reports'
const RANGE =
  '`from`, `to`: first and last day, both included (YYYY/MM/DD or YYYY-MM-DD, plant calendar: the server\'s time zone, named in `time_zone`); ' +
  '`period`: day (default), week (from Monday), month or year; filters `product_key`, `work_order_key`, `phase_key`, `department_key`, `line`, `operator_key`. ' +
  'Durations in milliseconds.'

/** The reports as JSON for BI tools: the same service functions as the Rapporti screens. */
export const reportRoutes = [
  route({
    method: 'get',
    path: '/report/production',
    tag,
    summary:
      'Production: pieces completed per period (batches completed, every phase; final_completed = last phase) and planned (work orders due in the period); ' +
      'rows grouped by `group_by` (product, work_order, phase, department, line, operator); open work orders late or at risk (remaining work at std_processing_time ' +
      `over the time left to the end of the due day). ${RANGE}`,
    access: { scope: REPORT_USERS },
    query: ProductionReportQuery,
    response: ProductionReport,
    handler: (ctx, { query }) => reports.productionReport(ctx, query),
  }),
  route({
    method: 'get',
    path: '/report/labour',
    tag,
    summary:
      'Labour and cost: per operator run time of work sessions started in the range, pauses, forced pauses and offline time apart, pieces and standard time; ' +
      "cost = hours x the user's hourly cost (settings' default operator cost when none); per work order actual against standard cost, per piece. " +
      RANGE,
    access: { scope: REPORT_USERS },
    query: LabourReportQuery,
    response: LabourReport,
    handler: (ctx, { query }) => reports.labourReport(ctx, ctx.actor!, query),
  }),
  route({
    method: 'get',
    path: '/report/quality',
    tag,
    summary:
      'Quality: issues opened, closed and escalated per period and by `group_by` (type, product, phase); open critical issues; time to close (median, p90) of the issues ' +
      `closed in the range; filter \`type_key\` too. ${RANGE}`,
    access: { scope: REPORT_USERS },
    query: QualityReportQuery,
    response: QualityReport,
    handler: (ctx, { query }) => reports.qualityReport(ctx, query),
  }),
  route({
    method: 'get',
    path: '/report/oee',
    tag,
    summary:
      'OEE = availability x performance x quality per period and by `group_by` (phase, department, line). availability = run / (run + pauses + forced pauses + offline); ' +
      `performance = std_processing_time x pieces / run; quality = (pieces - scrapped) / pieces. Ratios are 0..1 (performance may exceed 1), null without data. ${RANGE}`,
    access: { scope: REPORT_USERS },
    query: OeeReportQuery,
    response: OeeReport,
    handler: (ctx, { query }) => reports.oeeReport(ctx, query),
  }),
  route({
    method: 'get',
    path: '/report/jobs',
    tag,
    summary: `Drill-down: the jobs with pieces completed or work sessions in the range (or in the period starting on \`bucket\`), at most 500. ${RANGE}`,
    access: { scope: REPORT_USERS },
    query: ReportJobsQuery,
    response: ReportJobs,
    handler: (ctx, { query }) => reports.reportJobs(ctx, query),
  }),
  route({
    method: 'get',
    path: '/report/dashboard',
    tag,
    summary: "Today's output (last phase) against the planned pieces of work orders due today, running and paused jobs, open critical issues",
    access: { scope: DASHBOARD_USERS },
    response: ProductionDashboard,
    handler: (ctx) => reports.productionDashboard(ctx),
  }),
]
