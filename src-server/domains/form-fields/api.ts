import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { FieldCreateInput, FieldDeleteResult, FieldListInput, FieldPatchInput, FieldRow } from '../../../src/domains/form-fields/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as fields from './service'

/** Who reads the field library: those who design forms (admin, library) and those who fill them. */
const FIELD_READERS = ['admin', 'library', 'operator', 'production', 'quality', 'traceability'] as const satisfies readonly Scope[]
const read = { scope: FIELD_READERS }
const admin = { scope: 'admin' } as const
const ByKey = v.object({ key: Key })

export const formFieldsApi = useCases('form fields', {
  list: query({
    summary: 'The form field library (archived fields too, unless active_only=true)',
    access: read,
    input: FieldListInput,
    response: v.array(FieldRow),
    // Scripts filter by active_only alone; search, archived_only and sorting are the screens'.
    rest: { method: 'get', path: '/field', omit: ['search', 'archived_only', 'sort', 'desc'] },
    run: (ctx, input) => fields.listFields(ctx, input),
  }),
  get: query({
    summary: 'One form field',
    access: read,
    input: ByKey,
    response: FieldRow,
    rest: { method: 'get', path: '/field/{key}' },
    run: (ctx, input) => fields.getField(ctx, input.key),
  }),
  create: mutation({
    summary: 'Create a form field (name required and unique; choice fields need options); detail._key is its key',
    access: admin,
    input: FieldCreateInput,
    response: FieldRow,
    rest: { method: 'post', path: '/field', status: 201 },
    run: (ctx, input) => fields.createField(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary: 'Change a form field; active=false archives it. A field in use cannot change type (409 FIELD_IN_USE)',
    access: admin,
    input: v.object({ key: Key, patch: FieldPatchInput }),
    response: FieldRow,
    rest: { method: 'patch', path: '/field/{key}', body: 'patch' },
    run: (ctx, input) => fields.patchField(ctx, ctx.actor, input.key, input.patch),
  }),
  delete: mutation({
    summary: 'Delete an unused form field; a field in use is archived instead (detail.archived)',
    access: admin,
    input: ByKey,
    response: FieldDeleteResult,
    rest: { method: 'delete', path: '/field/{key}' },
    run: (ctx, input) => fields.deleteField(ctx, ctx.actor, input.key),
  }),
})
