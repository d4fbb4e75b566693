import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { FieldCreateInput, FieldDeleteResult, FieldListInput, FieldPatchInput, FieldRow } from '../../../src/domains/form-fields/schemas'
import { libraryCrud } from '../../api/library-crud'
import { useCases } from '../../api/use-case'
import * as fields from './service'

/** Who reads the field library: those who design forms (admin, library) and those who fill them. */
const FIELD_READERS = ['admin', 'library', 'operator', 'production', 'quality', 'traceability'] as const satisfies readonly Scope[]
const crud = libraryCrud({ path: '/field', read: { scope: FIELD_READERS }, write: { scope: 'admin' } })

export const formFieldsApi = useCases('form fields', {
  list: crud.list({
    summary: 'The form field library (archived fields too, unless active_only=true)',
    input: FieldListInput,
    response: v.array(FieldRow),
    // Scripts filter by active_only alone; search, archived_only and sorting are the screens'.
    rest: { omit: ['search', 'archived_only', 'sort', 'desc'] },
    run: fields.listFields,
  }),
  get: crud.get({ summary: 'One form field', response: FieldRow, run: fields.getField }),
  create: crud.create({
    summary: 'Create a form field (name required and unique; choice fields need options); detail._key is its key',
    input: FieldCreateInput,
    response: FieldRow,
    run: fields.createField,
  }),
  patch: crud.patch({
    summary: 'Change a form field; active=false archives it. A field in use cannot change type (409 FIELD_IN_USE)',
    patch: FieldPatchInput,
    response: FieldRow,
    run: fields.patchField,
  }),
  delete: crud.delete({
    summary: 'Delete an unused form field; a field in use is archived instead (detail.archived)',
    response: FieldDeleteResult,
    run: fields.deleteField,
  }),
})
