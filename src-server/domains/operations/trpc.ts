import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { OperationCreateInput, OperationListInput, OperationPatchInput } from '../../../src/domains/operations/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as operations from './service'

/** Operations are read by admins and by the product library (phases are made from them) and production. */
export const OPERATION_READERS = ['admin', 'library', 'production'] as const satisfies readonly Scope[]

export const operationsRouter = router({
  list: procedure({ scope: OPERATION_READERS })
    .input(OperationListInput)
    .query(({ ctx, input }) => operations.listOperations(ctx, input)),
  get: procedure({ scope: OPERATION_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => operations.getOperation(ctx, input.key)),
  create: scoped('admin')
    .input(OperationCreateInput)
    .mutation(({ ctx, input }) => operations.createOperation(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: OperationPatchInput }))
    .mutation(({ ctx, input }) => operations.patchOperation(ctx, ctx.actor, input.key, input.patch)),
  delete: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => operations.deleteOperation(ctx, ctx.actor, input.key)),
})
