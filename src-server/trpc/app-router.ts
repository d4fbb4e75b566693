import { eventsRouter } from '../domains/events/trpc'
import { sessionRouter } from '../domains/session/trpc'
import { usersRouter } from '../domains/users/trpc'
import { router } from './init'

/** One router per domain; the client imports only this type. */
export const appRouter = router({
  session: sessionRouter,
  users: usersRouter,
  events: eventsRouter,
})

export type AppRouter = typeof appRouter
