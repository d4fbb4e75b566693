import { apiTokensRouter } from '../domains/api-tokens/trpc'
import { bomApi } from '../domains/bom/api'
import { departmentsRouter } from '../domains/departments/trpc'
import { eventsRouter } from '../domains/events/trpc'
import { executionRouter } from '../domains/execution/trpc'
import { flowsApi } from '../domains/flows/api'
import { importsApi } from '../domains/imports/api'
import { formFieldsApi } from '../domains/form-fields/api'
import { serialFieldsApi } from '../domains/serial-fields/api'
import { issueTypesApi } from '../domains/issue-types/api'
import { issuesRouter } from '../domains/issues/trpc'
import { jobsRouter } from '../domains/jobs/trpc'
import { mediaApi } from '../domains/media/api'
import { messagesRouter } from '../domains/messages/trpc'
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
import { sessionRouter } from '../domains/session/trpc'
import { settingsRouter } from '../domains/settings/trpc'
import { tagsApi } from '../domains/tags/api'
import { usersRouter } from '../domains/users/trpc'
import { workOrdersApi } from '../domains/work-orders/api'
import { liveRouter } from '../live/trpc'
import { routerOf } from './from-use-cases'
import { router } from './init'

/** One router per domain; the client imports only this type. */
export const appRouter = router({
  session: sessionRouter,
  users: usersRouter,
  events: eventsRouter,
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
  jobs: jobsRouter,
  execution: executionRouter,
  messages: messagesRouter,
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
