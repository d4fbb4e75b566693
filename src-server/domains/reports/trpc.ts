import type { Scope } from '../../../src/auth/scopes'
import { LabourReportInput, OeeReportInput, ProductionReportInput, QualityReportInput, ReportJobsInput } from '../../../src/domains/reports/schemas'
import { procedure, router } from '../../trpc/init'
import * as reports from './service'

/** The reports of the Rapporti area: reporting staff (SPEC 6: the area's scope). */
export const REPORT_USERS = ['reporting'] as const satisfies readonly Scope[]
/** The production home's short dashboard: production staff, and reporting staff. */
export const DASHBOARD_USERS = ['production', 'reporting'] as const satisfies readonly Scope[]

export const reportsRouter = router({
  production: procedure({ scope: REPORT_USERS })
    .input(ProductionReportInput)
    .query(({ ctx, input }) => reports.productionReport(ctx, input)),
  labour: procedure({ scope: REPORT_USERS })
    .input(LabourReportInput)
    .query(({ ctx, input }) => reports.labourReport(ctx, ctx.actor, input)),
  quality: procedure({ scope: REPORT_USERS })
    .input(QualityReportInput)
    .query(({ ctx, input }) => reports.qualityReport(ctx, input)),
  oee: procedure({ scope: REPORT_USERS })
    .input(OeeReportInput)
    .query(({ ctx, input }) => reports.oeeReport(ctx, input)),
  jobs: procedure({ scope: REPORT_USERS })
    .input(ReportJobsInput)
    .query(({ ctx, input }) => reports.reportJobs(ctx, input)),
  dashboard: procedure({ scope: DASHBOARD_USERS }).query(({ ctx }) => reports.productionDashboard(ctx)),
})
