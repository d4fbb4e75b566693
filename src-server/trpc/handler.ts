import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { Context } from 'hono'
import type { AppEnv } from '../http-env'
import { appRouter } from './app-router'
import { answerPlainCalls } from './plain-calls'

/**
 * tRPC on Hono, without the @hono/trpc-server wrapper: the request's context (built once by
 * `authenticate`, the same for REST) goes to tRPC as it is, not copied into a new object with
 * Hono's env on every call, and the raw request is passed without a Proxy around it (the body
 * limit before this already re-wrapped a streamed body). `endpoint` is the mount path. Plain
 * JSON calls take the shorter path of plain-calls.ts; tRPC answers the rest.
 */
export function trpcHandler(endpoint: string) {
  return async (c: Context<AppEnv>) => {
    const plain = await answerPlainCalls(c, endpoint)
    if ('response' in plain) return plain.response
    const raw = c.req.raw
    const req = plain.body === null ? raw : new Request(raw.url, { method: raw.method, headers: raw.headers, body: plain.body, signal: raw.signal })
    return fetchRequestHandler({ endpoint, req, router: appRouter, createContext: () => c.get('ctx') })
  }
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
