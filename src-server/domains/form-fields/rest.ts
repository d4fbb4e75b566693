import * as v from 'valibot'
import { FieldCreateInput, FieldDeleteResult, FieldPatchInput, FieldRow } from '../../../src/domains/form-fields/schemas'
import { Key, QueryBool } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as fields from './service'
import { FIELD_READERS } from './trpc'

const tag = 'form fields'
const KeyParams = v.object({ key: Key })

export const formFieldRoutes = [
  route({
    method: 'get',
    path: '/field',
    tag,
    summary: 'The form field library (archived fields too, unless active_only=true)',
    access: { scope: FIELD_READERS },
    query: v.object({ active_only: v.optional(QueryBool) }),
    response: v.array(FieldRow),
    handler: (ctx, { query }) => fields.listFields(ctx, { active_only: query.active_only ?? false }),
  }),
  route({
    method: 'get',
    path: '/field/{key}',
    tag,
    summary: 'One form field',
    access: { scope: FIELD_READERS },
    params: KeyParams,
    response: FieldRow,
    handler: (ctx, { params }) => fields.getField(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/field',
    tag,
    summary: 'Create a form field (name required and unique; choice fields need options); detail._key is its key',
    access: { scope: 'admin' },
    body: FieldCreateInput,
    response: FieldRow,
    status: 201,
    handler: (ctx, { body }) => fields.createField(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/field/{key}',
    tag,
    summary: 'Change a form field; active=false archives it. A field in use cannot change type (409 FIELD_IN_USE)',
    access: { scope: 'admin' },
    params: KeyParams,
    body: FieldPatchInput,
    response: FieldRow,
    handler: (ctx, { params, body }) => fields.patchField(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/field/{key}',
    tag,
    summary: 'Delete an unused form field; a field in use is archived instead (detail.archived)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: FieldDeleteResult,
    handler: (ctx, { params }) => fields.deleteField(ctx, ctx.actor!, params.key),
  }),
]
