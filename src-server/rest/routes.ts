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
import { liveApi } from '../live/api'
import { routesOf } from './from-use-cases'
import type { AnyRoute } from './route'

/**
 * Every documented REST path, derived from each domain's use cases (their order is the matching
 * order: a fixed path such as `/mission/assignees` before `/mission/{key}`); OpenAPI and the
 * permission tests read this list too.
 */
export const restRoutes: readonly AnyRoute[] = [
  sessionApi,
  usersApi,
  eventsApi,
  auditApi,
  mediaApi,
  formFieldsApi,
  serialFieldsApi,
  operationsApi,
  countersApi,
  issueTypesApi,
  issuesApi,
  settingsApi,
  departmentsApi,
  apiTokensApi,
  productsApi,
  tagsApi,
  processApi,
  bomApi,
  revisionsApi,
  signaturesApi,
  workOrdersApi,
  jobsApi,
  executionApi,
  messagesApi,
  serialsApi,
  historyRecordApi,
  positionsApi,
  movementsApi,
  missionsApi,
  liveApi,
  reportsApi,
  printTemplatesApi,
  printersApi,
  printsApi,
  flowsApi,
  importsApi,
  codesApi,
].flatMap(routesOf)
