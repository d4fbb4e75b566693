import { apiTokensRouter } from '../domains/api-tokens/trpc'
import { bomRouter } from '../domains/bom/trpc'
import { departmentsRouter } from '../domains/departments/trpc'
import { eventsRouter } from '../domains/events/trpc'
import { executionRouter } from '../domains/execution/trpc'
import { flowsApi } from '../domains/flows/api'
import { importsApi } from '../domains/imports/api'
import { formFieldsRouter } from '../domains/form-fields/trpc'
import { serialFieldsRouter } from '../domains/serial-fields/trpc'
import { issueTypesApi } from '../domains/issue-types/api'
import { issuesRouter } from '../domains/issues/trpc'
import { jobsRouter } from '../domains/jobs/trpc'
import { mediaRouter } from '../domains/media/trpc'
import { messagesRouter } from '../domains/messages/trpc'
import { operationsRouter } from '../domains/operations/trpc'
import { countersRouter } from '../domains/counters/trpc'
import { processRouter } from '../domains/process/trpc'
import { productsRouter } from '../domains/products/trpc'
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
import { tagsRouter } from '../domains/tags/trpc'
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
  media: mediaRouter,
  formFields: formFieldsRouter,
  serialFields: serialFieldsRouter,
  operations: operationsRouter,
  counters: countersRouter,
  issueTypes: routerOf(issueTypesApi),
  issues: issuesRouter,
  settings: settingsRouter,
  departments: departmentsRouter,
  apiTokens: apiTokensRouter,
  products: productsRouter,
  tags: tagsRouter,
  process: processRouter,
  bom: bomRouter,
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
