import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { observable } from '@trpc/server/observable'
import type { AppRouter } from '../../src-server/trpc/app-router'
import { toApiError, type ApiError } from './api-error'
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

export const trpcClient = createTRPCClient<AppRouter>({
  links: [errorLink, httpBatchLink({ url: `${API_PREFIX}/trpc`, fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }) })],
})

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal will not change by retrying; only network trouble is retried.
      retry: (count, error) => count < 2 && toApiError(error).code === 'NETWORK',
    },
  },
})

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient })
export type Trpc = typeof trpc
