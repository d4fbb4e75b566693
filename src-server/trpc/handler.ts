import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { Context } from 'hono'
import type { AppEnv } from '../http-env'
import { appRouter } from './app-router'

/**
 * tRPC on Hono, without the @hono/trpc-server wrapper: the request's context (built once by
 * `authenticate`, the same for REST) goes to tRPC as it is, not copied into a new object with
 * Hono's env on every call, and the raw request is passed without a Proxy around it (the body
 * limit before this already re-wrapped a streamed body). `endpoint` is the mount path.
 */
export function trpcHandler(endpoint: string) {
  return (c: Context<AppEnv>) =>
    fetchRequestHandler({ endpoint, req: c.req.raw, router: appRouter, createContext: () => c.get('ctx') })
}

/** tRPC's answer refusing every call of the request with `error` before any runs (no context could be made). */
export function trpcRefusal(endpoint: string, c: Context<AppEnv>, error: Error) {
  return fetchRequestHandler({
    endpoint,
    req: c.req.raw,
    router: appRouter,
    createContext: () => {
      throw error
    },
  })
}
