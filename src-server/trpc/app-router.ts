import { apiTokensApi } from '../domains/api-tokens/api'
import { bomApi } from '../domains/bom/api'
import { codesApi } from '../domains/codes/api'
import { countersApi } from '../domains/counters/api'
import { departmentsApi } from '../domains/departments/api'
import { auditApi } from '../domains/audit/api'
import { eventsApi } from '../domains/events/api'
import { executionApi } from '../domains/execution/api'
import { flowsApi } from '../domains/flows/api'
import { historyRecordApi } from '../domains/history-record/api'
import { formFieldsApi } from '../domains/form-fields/api'
import { importsApi } from '../domains/imports/api'
import { issueTypesApi } from '../domains/issue-types/api'
import { issuesApi } from '../domains/issues/api'
import { jobsApi } from '../domains/jobs/api'
import { mediaApi } from '../domains/media/api'
import { messagesApi } from '../domains/messages/api'
import { missionsApi } from '../domains/missions/api'
import { movementsApi } from '../domains/movements/api'
import { operationsApi } from '../domains/operations/api'
import { positionsApi } from '../domains/positions/api'
import { printTemplatesApi } from '../domains/print-templates/api'
import { printersApi } from '../domains/printers/api'
import { printsApi } from '../domains/prints/api'
import { processApi } from '../domains/process/api'
import { revisionsApi } from '../domains/revisions/api'
import { signaturesApi } from '../domains/signatures/api'
import { productsApi } from '../domains/products/api'
import { reportsApi } from '../domains/reports/api'
import { serialFieldsApi } from '../domains/serial-fields/api'
import { serialsApi } from '../domains/serials/api'
import { sessionApi } from '../domains/session/api'
import { settingsApi } from '../domains/settings/api'
import { tagsApi } from '../domains/tags/api'
import { usersApi } from '../domains/users/api'
import { workOrdersApi } from '../domains/work-orders/api'
import { liveRouter } from '../live/api'
import { routerOf } from './from-use-cases'
import { router } from './init'

/** One router per domain, derived from its use cases; the client imports only this type. */
export const appRouter = router({
  session: routerOf(sessionApi),
  users: routerOf(usersApi),
  events: routerOf(eventsApi),
  audit: routerOf(auditApi),
  media: routerOf(mediaApi),
  formFields: routerOf(formFieldsApi),
  serialFields: routerOf(serialFieldsApi),
  operations: routerOf(operationsApi),
  counters: routerOf(countersApi),
  issueTypes: routerOf(issueTypesApi),
  issues: routerOf(issuesApi),
  settings: routerOf(settingsApi),
  departments: routerOf(departmentsApi),
  apiTokens: routerOf(apiTokensApi),
  products: routerOf(productsApi),
  tags: routerOf(tagsApi),
  process: routerOf(processApi),
  bom: routerOf(bomApi),
  revisions: routerOf(revisionsApi),
  signatures: routerOf(signaturesApi),
  workOrders: routerOf(workOrdersApi),
  historyRecord: routerOf(historyRecordApi),
  jobs: routerOf(jobsApi),
  execution: routerOf(executionApi),
  messages: routerOf(messagesApi),
  serials: routerOf(serialsApi),
  positions: routerOf(positionsApi),
  movements: routerOf(movementsApi),
  missions: routerOf(missionsApi),
  live: liveRouter,
  reports: routerOf(reportsApi),
  printTemplates: routerOf(printTemplatesApi),
  printers: routerOf(printersApi),
  prints: routerOf(printsApi),
  flows: routerOf(flowsApi),
  imports: routerOf(importsApi),
  codes: routerOf(codesApi),
})

export type AppRouter = typeof appRouter
