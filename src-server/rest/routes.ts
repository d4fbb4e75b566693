import { apiTokenRoutes } from '../domains/api-tokens/rest'
import { departmentRoutes } from '../domains/departments/rest'
import { eventRoutes } from '../domains/events/rest'
import { formFieldRoutes } from '../domains/form-fields/rest'
import { issueTypeRoutes } from '../domains/issue-types/rest'
import { mediaRoutes } from '../domains/media/rest'
import { operationRoutes } from '../domains/operations/rest'
import { sessionRoutes } from '../domains/session/rest'
import { settingsRoutes } from '../domains/settings/rest'
import { userRoutes } from '../domains/users/rest'
import type { AnyRoute } from './route'

/** Every documented REST path; OpenAPI and the permission tests read this list too. */
export const restRoutes: readonly AnyRoute[] = [...sessionRoutes, ...userRoutes, ...eventRoutes, ...mediaRoutes, ...formFieldRoutes, ...operationRoutes, ...issueTypeRoutes, ...settingsRoutes, ...departmentRoutes, ...apiTokenRoutes]
