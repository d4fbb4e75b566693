import * as v from 'valibot'
import { OperationCreateInput, OperationPatchInput, OperationRow } from '../../../src/domains/operations/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as operations from './service'
import { OPERATION_READERS } from './trpc'

const tag = 'operations'
const KeyParams = v.object({ key: Key })

export const operationRoutes = [
  route({
    method: 'get',
    path: '/operation',
    tag,
    summary: 'The operation library, with default phase steps, by name',
    access: { scope: OPERATION_READERS },
    response: v.array(OperationRow),
    handler: async (ctx) => (await operations.listOperations(ctx)).rows,
  }),
  route({
    method: 'get',
    path: '/operation/{key}',
    tag,
    summary: 'One operation with its default phase steps',
    access: { scope: OPERATION_READERS },
    params: KeyParams,
    response: OperationRow,
    handler: (ctx, { params }) => operations.getOperation(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/operation',
    tag,
    summary:
      'Create an operation (name required, unique whatever the case: 409 OPERATION_NAME_TAKEN); default_phase_steps refer to media and form field keys; detail._key is its key',
    access: { scope: 'admin' },
    body: OperationCreateInput,
    response: OperationRow,
    status: 201,
    handler: (ctx, { body }) => operations.createOperation(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/operation/{key}',
    tag,
    summary: 'Change the name and/or the default phase steps (the whole ordered list; steps without _key get one)',
    access: { scope: 'admin' },
    params: KeyParams,
    body: OperationPatchInput,
    response: OperationRow,
    handler: (ctx, { params, body }) => operations.patchOperation(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/operation/{key}',
    tag,
    summary: 'Delete an operation; one used in a product process cannot be deleted (409 OPERATION_IN_USE)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: v.object({ _key: v.string() }),
    handler: (ctx, { params }) => operations.deleteOperation(ctx, ctx.actor!, params.key),
  }),
]
