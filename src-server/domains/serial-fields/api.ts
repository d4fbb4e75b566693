import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  SerialFieldCreateInput,
  SerialFieldDeleteResult,
  SerialFieldOrderInput,
  SerialFieldPatchInput,
  SerialFieldRow,
} from '../../../src/domains/serial-fields/schemas'
import { libraryCrud } from '../../api/library-crud'
import { mutation, useCases } from '../../api/use-case'
import * as serialFields from './service'

/** Who reads the serial fields: the admin who sets them and those who write or follow serials. */
const SERIAL_FIELD_READERS = ['admin', 'library', 'operator', 'production', 'quality', 'traceability', 'warehouse'] as const satisfies readonly Scope[]
const admin = { scope: 'admin' } as const
const crud = libraryCrud({ path: '/serial-field', read: { scope: SERIAL_FIELD_READERS }, write: admin })

export const serialFieldsApi = useCases('serial fields', {
  list: crud.list({
    summary: 'The fields every serial carries, in order: each a form field (name, type, options, help text from the library) with its mandatory flag',
    response: v.array(SerialFieldRow),
    run: serialFields.listSerialFields,
  }),
  get: crud.get({ summary: 'One serial field (key: its form field key)', response: SerialFieldRow, run: serialFields.getSerialField }),
  create: crud.create({
    summary:
      'Make a form field a serial field, at the end of the list. Errors: 400 UNKNOWN_FIELD, FIELD_ARCHIVED; 409 SERIAL_FIELD_TAKEN (already a serial field)',
    input: SerialFieldCreateInput,
    response: SerialFieldRow,
    run: serialFields.createSerialField,
  }),
  reorder: mutation({
    summary: 'Reorder the serial fields: every serial field key once, in the new order (400 SERIAL_FIELD_ORDER_MISMATCH otherwise)',
    access: admin,
    input: SerialFieldOrderInput,
    response: v.array(SerialFieldRow),
    rest: { method: 'put', path: '/serial-field/order' },
    run: (ctx, input) => serialFields.reorderSerialFields(ctx, ctx.actor, input),
  }),
  patch: crud.patch({ summary: 'Change whether a serial field is mandatory', patch: SerialFieldPatchInput, response: SerialFieldRow, run: serialFields.patchSerialField }),
  delete: crud.delete({
    summary: 'Serials stop carrying the field; the form field stays in the library (values already written stay readable)',
    response: SerialFieldDeleteResult,
    run: serialFields.deleteSerialField,
  }),
})
