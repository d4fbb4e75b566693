import { apiTokensRouter } from '../domains/api-tokens/trpc'
import { bomApi } from '../domains/bom/api'
import { departmentsRouter } from '../domains/departments/trpc'
import { eventsApi } from '../domains/events/api'
import { executionApi } from '../domains/execution/api'
import { flowsApi } from '../domains/flows/api'
import { importsApi } from '../domains/imports/api'
import { formFieldsApi } from '../domains/form-fields/api'
import { serialFieldsApi } from '../domains/serial-fields/api'
import { issueTypesApi } from '../domains/issue-types/api'
import { issuesRouter } from '../domains/issues/trpc'
import { jobsApi } from '../domains/jobs/api'
import { mediaApi } from '../domains/media/api'
import { messagesApi } from '../domains/messages/api'
import { operationsApi } from '../domains/operations/api'
import { countersApi } from '../domains/counters/api'
import { processApi } from '../domains/process/api'
import { productsApi } from '../domains/products/api'
import { reportsApi } from '../domains/reports/api'
import { printTemplatesRouter } from '../domains/print-templates/trpc'
import { printersRouter } from '../domains/printers/trpc'
import { printsRouter } from '../domains/prints/trpc'
import { serialsRouter } from '../domains/serials/trpc'
import { positionsApi } from '../domains/positions/api'
import { movementsApi } from '../domains/movements/api'
import { missionsApi } from '../domains/missions/api'
import { sessionApi } from '../domains/session/api'
import { settingsRouter } from '../domains/settings/trpc'
import { tagsApi } from '../domains/tags/api'
import { usersRouter } from '../domains/users/trpc'
import { workOrdersApi } from '../domains/work-orders/api'
import { liveRouter } from '../live/api'
import { routerOf } from './from-use-cases'
import { router } from './init'

/** One router per domain; the client imports only this type. */
export const appRouter = router({
  session: routerOf(sessionApi),
  users: usersRouter,
  events: routerOf(eventsApi),
  media: routerOf(mediaApi),
  formFields: routerOf(formFieldsApi),
  serialFields: routerOf(serialFieldsApi),
  operations: routerOf(operationsApi),
  counters: routerOf(countersApi),
  issueTypes: routerOf(issueTypesApi),
  issues: issuesRouter,
  settings: settingsRouter,
  departments: departmentsRouter,
  apiTokens: apiTokensRouter,
  products: routerOf(productsApi),
  tags: routerOf(tagsApi),
  process: routerOf(processApi),
  bom: routerOf(bomApi),
  workOrders: routerOf(workOrdersApi),
  jobs: routerOf(jobsApi),
  execution: routerOf(executionApi),
  messages: routerOf(messagesApi),
  serials: serialsRouter,
  positions: routerOf(positionsApi),
  movements: routerOf(movementsApi),
  missions: routerOf(missionsApi),
  reports: routerOf(reportsApi),
  printTemplates: printTemplatesRouter,
  printers: printersRouter,
  prints: printsRouter,
  live: liveRouter,
  flows: routerOf(flowsApi),
  imports: routerOf(importsApi),
})

export type AppRouter = typeof appRouter
