import { apiTokensRouter } from '../domains/api-tokens/trpc'
import { departmentsRouter } from '../domains/departments/trpc'
import { eventsRouter } from '../domains/events/trpc'
import { formFieldsRouter } from '../domains/form-fields/trpc'
import { issueTypesRouter } from '../domains/issue-types/trpc'
import { mediaRouter } from '../domains/media/trpc'
import { operationsRouter } from '../domains/operations/trpc'
import { sessionRouter } from '../domains/session/trpc'
import { settingsRouter } from '../domains/settings/trpc'
import { usersRouter } from '../domains/users/trpc'
import { router } from './init'

/** One router per domain; the client imports only this type. */
export const appRouter = router({
  session: sessionRouter,
  users: usersRouter,
  events: eventsRouter,
  media: mediaRouter,
  formFields: formFieldsRouter,
  operations: operationsRouter,
  issueTypes: issueTypesRouter,
  settings: settingsRouter,
  departments: departmentsRouter,
  apiTokens: apiTokensRouter,
})

export type AppRouter = typeof appRouter
