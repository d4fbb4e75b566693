import { initTRPC, StandardSchemaV1Error } from '@trpc/server'
import * as v from 'valibot'
import type { Scope } from '../../src/auth/scopes'
import { type Access, authorize } from '../auth/authorize'
import type { Actor, Auth, RequestCtx } from '../context'
import { isDatabaseUnavailable } from '../db/unavailable'
import { AppError, databaseUnavailable } from '../errors'
import { assertStorableRawInput } from '../input-guard'
import { inputIssues, invalidInput } from '../input-issues'
import { unexpectedInputIssues, unknownKeyIssues } from '../unknown-keys'

export type TrpcMeta = { access: Access }

const t = initTRPC
  .context<RequestCtx>()
  .meta<TrpcMeta>()
  .create({
    isDev: false,
    // Live subscriptions (src-server/live): a ping keeps a quiet SSE stream open (Bun closes a
    // connection idle for 10 s); a client hearing nothing for 20 s reconnects with its last event id.
    sse: { ping: { enabled: true, intervalMs: 8_000 }, client: { reconnectAfterInactivityMs: 20_000 } },
    errorFormatter({ shape, error }) {
      // An input schema's refusal is answered like REST's (400 INVALID_INPUT with `issues`);
      // an output schema's failure stays an internal error.
      const schemaIssues =
        error.code === 'BAD_REQUEST' && error.cause instanceof StandardSchemaV1Error ? invalidInput(inputIssues(error.cause.issues as v.BaseIssue<unknown>[])) : null
      // The database out of reach (a query threw, tRPC wrapped it): 503 DATABASE_UNAVAILABLE as REST answers it.
      const outage = error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(error.cause) ? databaseUnavailable() : null
      const cause = error instanceof AppError ? error : (schemaIssues ?? outage)
      const validation = error.code === 'BAD_REQUEST' && !cause
      const internal = error.code === 'INTERNAL_SERVER_ERROR' && !outage
      return {
        ...shape,
        data: {
          ...shape.data,
          ...(outage ? { code: 'SERVICE_UNAVAILABLE' as const, httpStatus: outage.status } : {}),
          appCode: cause?.appCode ?? (validation ? 'INVALID_INPUT' : internal ? 'INTERNAL' : null),
          extra: cause?.extra ?? null,
        },
        // Unexpected failures never show their internals.
        message: internal ? 'internal error' : (cause?.message ?? shape.message),
      }
    },
  })

export const router = t.router

/** Which keys of a procedure's raw input are refused: those its schema does not declare, or any at all without one. */
export const inputKeyIssues = (schema?: v.GenericSchema) => (schema ? (raw: unknown) => unknownKeyIssues(schema, raw) : (raw: unknown) => unexpectedInputIssues(raw, 'input'))

/**
 * The gate of every call, before its input schema runs: `access` (a caller without it learns
 * nothing about the input), input the database can store, and keys an input schema does not
 * declare refused (400 INVALID_INPUT naming them, with the schema's own issues), as REST does
 * (rest/mount.ts). Returns the acting user.
 */
export async function admitCall(ctx: RequestCtx, access: Access, getRawInput: () => Promise<unknown>, schema?: v.GenericSchema): Promise<Actor> {
  const actor = await authorize(ctx, access)
  await assertStorableRawInput(getRawInput)
  const raw = await getRawInput().catch(() => undefined)
  const unknown = inputKeyIssues(schema)(raw)
  if (unknown.length === 0) return actor as Actor
  const parsed = schema ? v.safeParse(schema, raw) : null
  throw invalidInput([...unknown, ...(parsed && !parsed.success ? inputIssues(parsed.issues, schema) : [])])
}

/**
 * A procedure guarded by `access`; its context gains the acting user (`actor`, `auth`). One
 * middleware does the whole gate: each tRPC middleware level copies the call's options and
 * context (a measurable part of a call's CPU).
 */
export function procedure(access: Access) {
  const admitted = (schema?: v.GenericSchema) =>
    t.procedure.meta({ access }).use(async ({ ctx, next, getRawInput }) => {
      const actor = await admitCall(ctx, access, getRawInput, schema)
      return next({ ctx: { actor, auth: ctx.auth as Auth } })
    })
  const noInput = admitted()
  return {
    ...noInput,
    input: ((schema: v.GenericSchema) => admitted(schema).input(schema)) as typeof noInput.input,
  }
}

export const signedIn = procedure({ scope: 'signed-in' })
export const scoped = (...scopes: [Scope, ...Scope[]]) => procedure({ scope: scopes.length === 1 ? scopes[0] : scopes })
