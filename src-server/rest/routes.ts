import { eventRoutes } from '../domains/events/rest'
import { sessionRoutes } from '../domains/session/rest'
import { userRoutes } from '../domains/users/rest'
import type { AnyRoute } from './route'

/** Every documented REST path; OpenAPI and the permission tests read this list too. */
export const restRoutes: readonly AnyRoute[] = [...sessionRoutes, ...userRoutes, ...eventRoutes]
