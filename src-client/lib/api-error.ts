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

/** Reads `{detail:{message,code}}` (REST) or a TRPCClientError's `data.appCode`. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e
  const data = (e as { data?: { appCode?: string; httpStatus?: number; extra?: Record<string, unknown> } })?.data
  if (data?.appCode) return new ApiError(data.httpStatus ?? 0, data.appCode, (e as Error).message, data.extra ?? {})
  // fetch() failing (offline, server down) surfaces as a TypeError, bare or as a tRPC error's cause.
  const cause = (e as { cause?: unknown })?.cause
  if (e instanceof TypeError || cause instanceof TypeError) return new ApiError(0, 'NETWORK', (e as Error).message)
  return new ApiError(0, 'INTERNAL', e instanceof Error ? e.message : String(e))
}
