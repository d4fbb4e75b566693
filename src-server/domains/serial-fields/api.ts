import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  SerialFieldCreateInput,
  SerialFieldDeleteResult,
  SerialFieldOrderInput,
  SerialFieldPatchInput,
  SerialFieldRow,
} from '../../../src/domains/serial-fields/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as serialFields from './service'

/** Who reads the serial fields: the admin who sets them and those who write or follow serials. */
const SERIAL_FIELD_READERS = ['admin', 'library', 'operator', 'production', 'quality', 'traceability', 'warehouse'] as const satisfies readonly Scope[]
const read = { scope: SERIAL_FIELD_READERS }
const admin = { scope: 'admin' } as const
const ByKey = v.object({ key: Key })

export const serialFieldsApi = useCases('serial fields', {
  list: query({
    summary: 'The fields every serial carries, in order: each a form field (name, type, options, help text from the library) with its mandatory flag',
    access: read,
    response: v.array(SerialFieldRow),
    rest: { method: 'get', path: '/serial-field' },
    run: (ctx) => serialFields.listSerialFields(ctx),
  }),
  get: query({
    summary: 'One serial field (key: its form field key)',
    access: read,
    input: ByKey,
    response: SerialFieldRow,
    rest: { method: 'get', path: '/serial-field/{key}' },
    run: (ctx, input) => serialFields.getSerialField(ctx, input.key),
  }),
  create: mutation({
    summary:
      'Make a form field a serial field, at the end of the list. Errors: 400 UNKNOWN_FIELD, FIELD_ARCHIVED; 409 SERIAL_FIELD_TAKEN (already a serial field)',
    access: admin,
    input: SerialFieldCreateInput,
    response: SerialFieldRow,
    rest: { method: 'post', path: '/serial-field', status: 201 },
    run: (ctx, input) => serialFields.createSerialField(ctx, ctx.actor, input),
  }),
  reorder: mutation({
    summary: 'Reorder the serial fields: every serial field key once, in the new order (400 SERIAL_FIELD_ORDER_MISMATCH otherwise)',
    access: admin,
    input: SerialFieldOrderInput,
    response: v.array(SerialFieldRow),
    rest: { method: 'put', path: '/serial-field/order' },
    run: (ctx, input) => serialFields.reorderSerialFields(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary: 'Change whether a serial field is mandatory',
    access: admin,
    input: v.object({ key: Key, patch: SerialFieldPatchInput }),
    response: SerialFieldRow,
    rest: { method: 'patch', path: '/serial-field/{key}', body: 'patch' },
    run: (ctx, input) => serialFields.patchSerialField(ctx, ctx.actor, input.key, input.patch),
  }),
  delete: mutation({
    summary: 'Serials stop carrying the field; the form field stays in the library (values already written stay readable)',
    access: admin,
    input: ByKey,
    response: SerialFieldDeleteResult,
    rest: { method: 'delete', path: '/serial-field/{key}' },
    run: (ctx, input) => serialFields.deleteSerialField(ctx, ctx.actor, input.key),
  }),
})
