import type { ErrorCode } from '../../src/errors'

/** A refusal from the server, REST or tRPC alike: HTTP status, app code and English message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

/** Answers of a gateway or proxy in front of the app when no instance answered (their body is not ours). */
export const GATEWAY_STATUSES = new Set([502, 503, 504])

type TrpcLike = {
  data?: { appCode?: string; httpStatus?: number; extra?: Record<string, unknown> }
  meta?: { response?: { status?: number }; responseJSON?: { detail?: { code?: unknown; message?: unknown } } }
  cause?: unknown
}

/** Reads `{detail:{message,code}}` (REST) or a TRPCClientError's `data.appCode`. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e
  const { data, meta, cause } = (e ?? {}) as TrpcLike
  if (data?.appCode) return new ApiError(data.httpStatus ?? 0, data.appCode, (e as Error).message, data.extra ?? {})
  // A tRPC call answered in REST's shape by what stands before tRPC (the body limit), or by a gateway.
  const status = meta?.response?.status ?? 0
  const detail = meta?.responseJSON?.detail
  if (typeof detail?.code === 'string') return new ApiError(status, detail.code, typeof detail.message === 'string' ? detail.message : (e as Error).message)
  if (GATEWAY_STATUSES.has(status)) return new ApiError(status, 'NETWORK', (e as Error).message)
  // fetch() failing (offline, server down) surfaces as a TypeError, bare or as a tRPC error's cause.
  if (e instanceof TypeError || cause instanceof TypeError) return new ApiError(0, 'NETWORK', (e as Error).message)
  return new ApiError(0, 'INTERNAL', e instanceof Error ? e.message : String(e))
}

/**
 * The server cannot be reached or cannot work right now (the network, or its database: 503
 * DATABASE_UNAVAILABLE): nothing happened, the same request succeeds later. The user's input is
 * kept, the write may be retried with its idempotency key, and the operator's tablet shows it
 * as being offline.
 */
export const isUnreachable = (error: ApiError) => error.code === 'NETWORK' || error.code === 'DATABASE_UNAVAILABLE'
