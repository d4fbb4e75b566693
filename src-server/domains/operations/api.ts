import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { OperationCreateInput, OperationListInput, OperationPatchInput, OperationRow } from '../../../src/domains/operations/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as operations from './service'

/** Operations are read by admins and by the product library (phases are made from them) and production. */
const OPERATION_READERS = ['admin', 'library', 'production'] as const satisfies readonly Scope[]
const read = { scope: OPERATION_READERS }
const admin = { scope: 'admin' } as const
const ByKey = v.object({ key: Key })

export const operationsApi = useCases('operations', {
  list: query({
    summary: 'The operation library, with default phase steps, by name',
    access: read,
    input: OperationListInput,
    // Scripts read the whole library; search, sort and paging are the screens'.
    rest: { method: 'get', path: '/operation', omit: Object.keys(OperationListInput.entries), answer: { response: v.array(OperationRow), from: (page) => page.rows } },
    run: (ctx, input) => operations.listOperations(ctx, input),
  }),
  get: query({
    summary: 'One operation with its default phase steps',
    access: read,
    input: ByKey,
    response: OperationRow,
    rest: { method: 'get', path: '/operation/{key}' },
    run: (ctx, input) => operations.getOperation(ctx, input.key),
  }),
  create: mutation({
    summary:
      'Create an operation (name required, unique whatever the case: 409 OPERATION_NAME_TAKEN); default_phase_steps refer to media and form field keys; detail._key is its key',
    access: admin,
    input: OperationCreateInput,
    response: OperationRow,
    rest: { method: 'post', path: '/operation', status: 201 },
    run: (ctx, input) => operations.createOperation(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary: 'Change the name and/or the default phase steps (the whole ordered list; steps without _key get one)',
    access: admin,
    input: v.object({ key: Key, patch: OperationPatchInput }),
    response: OperationRow,
    rest: { method: 'patch', path: '/operation/{key}', body: 'patch' },
    run: (ctx, input) => operations.patchOperation(ctx, ctx.actor, input.key, input.patch),
  }),
  delete: mutation({
    summary: 'Delete an operation; one used in a product process cannot be deleted (409 OPERATION_IN_USE)',
    access: admin,
    input: ByKey,
    response: v.object({ _key: v.string() }),
    rest: { method: 'delete', path: '/operation/{key}' },
    run: (ctx, input) => operations.deleteOperation(ctx, ctx.actor, input.key),
  }),
})
