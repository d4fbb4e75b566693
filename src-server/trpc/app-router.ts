import { apiTokensApi } from '../domains/api-tokens/api'
import { bomApi } from '../domains/bom/api'
import { departmentsApi } from '../domains/departments/api'
import { eventsRouter } from '../domains/events/trpc'
import { executionRouter } from '../domains/execution/trpc'
import { flowsApi } from '../domains/flows/api'
import { importsApi } from '../domains/imports/api'
import { formFieldsApi } from '../domains/form-fields/api'
import { serialFieldsApi } from '../domains/serial-fields/api'
import { issueTypesApi } from '../domains/issue-types/api'
import { issuesApi } from '../domains/issues/api'
import { jobsRouter } from '../domains/jobs/trpc'
import { mediaApi } from '../domains/media/api'
import { messagesRouter } from '../domains/messages/trpc'
import { operationsApi } from '../domains/operations/api'
import { countersApi } from '../domains/counters/api'
import { processApi } from '../domains/process/api'
import { productsApi } from '../domains/products/api'
import { reportsApi } from '../domains/reports/api'
import { printTemplatesApi } from '../domains/print-templates/api'
import { printersApi } from '../domains/printers/api'
import { printsApi } from '../domains/prints/api'
import { serialsApi } from '../domains/serials/api'
import { positionsApi } from '../domains/positions/api'
import { movementsApi } from '../domains/movements/api'
import { missionsApi } from '../domains/missions/api'
import { sessionRouter } from '../domains/session/trpc'
import { settingsApi } from '../domains/settings/api'
import { tagsApi } from '../domains/tags/api'
import { usersApi } from '../domains/users/api'
import { workOrdersApi } from '../domains/work-orders/api'
import { liveRouter } from '../live/trpc'
import { routerOf } from './from-use-cases'
import { router } from './init'

/** One router per domain; the client imports only this type. */
export const appRouter = router({
  session: sessionRouter,
  users: routerOf(usersApi),
  events: eventsRouter,
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
  workOrders: routerOf(workOrdersApi),
  jobs: jobsRouter,
  execution: executionRouter,
  messages: messagesRouter,
  serials: routerOf(serialsApi),
  positions: routerOf(positionsApi),
  movements: routerOf(movementsApi),
  missions: routerOf(missionsApi),
  reports: routerOf(reportsApi),
  printTemplates: routerOf(printTemplatesApi),
  printers: routerOf(printersApi),
  prints: routerOf(printsApi),
  live: liveRouter,
  flows: routerOf(flowsApi),
  imports: routerOf(importsApi),
})

export type AppRouter = typeof appRouter
