import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCLink } from '@trpc/client'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { observable } from '@trpc/server/observable'
import type { AppRouter } from '../../src-server/trpc/app-router'
import { isUnreachable, toApiError, type ApiError } from './api-error'
import { API_PREFIX } from './rest'

type ErrorHandler = (path: string, error: ApiError) => void
let onError: ErrorHandler | undefined
/** The auth store registers here to react to 401/423 from any tRPC call. */
export const setTrpcErrorHandler = (fn: ErrorHandler) => {
  onError = fn
}

const errorLink: TRPCLink<AppRouter> = () => ({ op, next }) =>
  observable((observer) =>
    next(op).subscribe({
      next: (value) => observer.next(value),
      error: (err) => {
        onError?.(op.path, toApiError(err))
        observer.error(err)
      },
      complete: () => observer.complete(),
    }),
  )

const sameOrigin = (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'same-origin' })

/**
 * Background calls (job heartbeats, polls): an operation called with `context: { background: true }`
 * travels in its own request with `x-mes-background: 1`, so the server never counts it as user
 * activity (a heartbeat must not keep a session unlocked).
 */
export const BACKGROUND = { context: { background: true } } as const

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    errorLink,
    splitLink({
      // Live screens (lib/live.ts): subscriptions over Server-Sent Events, the session cookie included.
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: `${API_PREFIX}/trpc` }),
      false: splitLink({
        condition: (op) => op.context.background === true,
        true: httpBatchLink({ url: `${API_PREFIX}/trpc`, fetch: sameOrigin, headers: { 'x-mes-background': '1' } }),
        false: httpBatchLink({ url: `${API_PREFIX}/trpc`, fetch: sameOrigin }),
      }),
    }),
  ],
})

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal will not change by retrying; only an unreachable server (network, database) is retried.
      retry: (count, error) => count < 2 && isUnreachable(toApiError(error)),
    },
  },
})

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient })
export type Trpc = typeof trpc
