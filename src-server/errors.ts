import { TRPCError } from '@trpc/server'
import type { ErrorCode } from '../src/errors'

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 423 | 429 | 503

type TrpcCode = ConstructorParameters<typeof TRPCError>[0]['code']
const TRPC_CODE: Record<ErrorStatus, TrpcCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  // tRPC has no 423; the client reads `data.appCode` (SESSION_LOCKED) whatever the status.
  423: 'PRECONDITION_FAILED',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
}

/**
 * A refusal the caller can act on. REST answers `status` with `{detail:{message,code,...extra}}`;
 * tRPC carries `code` as `data.appCode`. The message is English for scripts; the client
 * translates by `code`. Being a TRPCError, it passes through tRPC untouched.
 */
export class AppError extends TRPCError {
  constructor(
    readonly status: ErrorStatus,
    readonly appCode: ErrorCode,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super({ code: TRPC_CODE[status], message })
  }
}

export const badRequest = (code: ErrorCode, message: string, extra?: Record<string, unknown>) =>
  new AppError(400, code, message, extra)
export const unauthorized = (code: ErrorCode, message: string) => new AppError(401, code, message)
export const forbidden = (code: ErrorCode, message: string, extra?: Record<string, unknown>) =>
  new AppError(403, code, message, extra)
export const notFound = (code: ErrorCode, message: string) => new AppError(404, code, message)
export const conflict = (code: ErrorCode, message: string, extra?: Record<string, unknown>) =>
  new AppError(409, code, message, extra)
export const unprocessable = (code: ErrorCode, message: string, extra?: Record<string, unknown>) =>
  new AppError(422, code, message, extra)

/** The `Retry-After` (seconds) of a 503 DATABASE_UNAVAILABLE: a PostgreSQL restart takes a few seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5
/** PostgreSQL cannot be reached (db/unavailable.ts): not the caller's fault, nor a bug; the same request works later. */
export const databaseUnavailable = () => new AppError(503, 'DATABASE_UNAVAILABLE', 'database unavailable: retry shortly')

/** PostgreSQL unique_violation, for turning a lost insert race into a clear 409. */
export const isUniqueViolation = (e: unknown, constraint?: string) =>
  typeof e === 'object' &&
  e !== null &&
  (e as { code?: string }).code === '23505' &&
  (!constraint || (e as { constraint?: string }).constraint === constraint)

/**
 * A row still referenced elsewhere: foreign_key_violation (23503), or restrict_violation (23001),
 * which PostgreSQL 18 (PGlite) raises for ON DELETE RESTRICT.
 */
export const isForeignKeyViolation = (e: unknown) =>
  typeof e === 'object' && e !== null && ['23503', '23001'].includes((e as { code?: string }).code ?? '')
