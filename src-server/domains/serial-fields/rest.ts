import * as v from 'valibot'
import {
  SerialFieldCreateInput,
  SerialFieldDeleteResult,
  SerialFieldOrderInput,
  SerialFieldPatchInput,
  SerialFieldRow,
} from '../../../src/domains/serial-fields/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as serialFields from './service'
import { SERIAL_FIELD_READERS } from './trpc'

const tag = 'serial fields'
const KeyParams = v.object({ key: Key })

export const serialFieldRoutes = [
  route({
    method: 'get',
    path: '/serial-field',
    tag,
    summary: 'The fields every serial carries, in order: each a form field (name, type, options, help text from the library) with its mandatory flag',
    access: { scope: SERIAL_FIELD_READERS },
    response: v.array(SerialFieldRow),
    handler: (ctx) => serialFields.listSerialFields(ctx),
  }),
  route({
    method: 'get',
    path: '/serial-field/{key}',
    tag,
    summary: 'One serial field (key: its form field key)',
    access: { scope: SERIAL_FIELD_READERS },
    params: KeyParams,
    response: SerialFieldRow,
    handler: (ctx, { params }) => serialFields.getSerialField(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/serial-field',
    tag,
    summary:
      'Make a form field a serial field, at the end of the list. Errors: 400 UNKNOWN_FIELD, FIELD_ARCHIVED; 409 SERIAL_FIELD_TAKEN (already a serial field)',
    access: { scope: 'admin' },
    body: SerialFieldCreateInput,
    response: SerialFieldRow,
    status: 201,
    handler: (ctx, { body }) => serialFields.createSerialField(ctx, ctx.actor!, body),
  }),
  route({
    method: 'put',
    path: '/serial-field/order',
    tag,
    summary: 'Reorder the serial fields: every serial field key once, in the new order (400 SERIAL_FIELD_ORDER_MISMATCH otherwise)',
    access: { scope: 'admin' },
    body: SerialFieldOrderInput,
    response: v.array(SerialFieldRow),
    handler: (ctx, { body }) => serialFields.reorderSerialFields(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/serial-field/{key}',
    tag,
    summary: 'Change whether a serial field is mandatory',
    access: { scope: 'admin' },
    params: KeyParams,
    body: SerialFieldPatchInput,
    response: SerialFieldRow,
    handler: (ctx, { params, body }) => serialFields.patchSerialField(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/serial-field/{key}',
    tag,
    summary: 'Serials stop carrying the field; the form field stays in the library (values already written stay readable)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: SerialFieldDeleteResult,
    handler: (ctx, { params }) => serialFields.deleteSerialField(ctx, ctx.actor!, params.key),
  }),
]
