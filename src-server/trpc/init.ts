import { initTRPC, StandardSchemaV1Error } from '@trpc/server'
import type * as v from 'valibot'
import type { Scope } from '../../src/auth/scopes'
import { type Access, authorize } from '../auth/authorize'
import type { Actor, Auth, RequestCtx } from '../context'
import { AppError } from '../errors'
import { assertStorableRawInput } from '../input-guard'
import { inputIssues, invalidInput } from '../input-issues'

export type TrpcMeta = { access: Access }

const t = initTRPC
  .context<RequestCtx>()
  .meta<TrpcMeta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error }) {
      // An input schema's refusal is answered like REST's (400 INVALID_INPUT with `issues`).
      const schemaIssues = error.cause instanceof StandardSchemaV1Error ? invalidInput(inputIssues(error.cause.issues as v.BaseIssue<unknown>[])) : null
      const cause = error instanceof AppError ? error : schemaIssues
      const validation = error.code === 'BAD_REQUEST' && !cause
      return {
        ...shape,
        data: {
          ...shape.data,
          appCode: cause?.appCode ?? (validation ? 'INVALID_INPUT' : error.code === 'INTERNAL_SERVER_ERROR' ? 'INTERNAL' : null),
          extra: cause?.extra ?? null,
        },
        // Unexpected failures never show their internals.
        message: error.code === 'INTERNAL_SERVER_ERROR' ? 'internal error' : (schemaIssues?.message ?? shape.message),
      }
    },
  })

export const router = t.router

/** A procedure guarded by `access`; its context gains the acting user (`actor`, `auth`). */
export function procedure(access: Access) {
  return t.procedure.meta({ access }).use(async ({ ctx, next, getRawInput }) => {
    const actor = await authorize(ctx, access)
    await assertStorableRawInput(getRawInput)
    return next({ ctx: { actor: actor as Actor, auth: ctx.auth as Auth } })
  })
}

export const signedIn = procedure({ scope: 'signed-in' })
export const scoped = (...scopes: [Scope, ...Scope[]]) => procedure({ scope: scopes.length === 1 ? scopes[0] : scopes })
