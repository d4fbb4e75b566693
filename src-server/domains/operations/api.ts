import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { OperationCreateInput, OperationListInput, OperationPatchInput, OperationRow } from '../../../src/domains/operations/schemas'
import { libraryCrud } from '../../api/library-crud'
import { useCases } from '../../api/use-case'
import * as operations from './service'

/** Operations are read by admins and by the product library (phases are made from them) and production. */
const OPERATION_READERS = ['admin', 'library', 'production'] as const satisfies readonly Scope[]
const crud = libraryCrud({ path: '/operation', read: { scope: OPERATION_READERS }, write: { scope: 'admin' } })

export const operationsApi = useCases('operations', {
  list: crud.list({
    summary: 'The operation library, with default phase steps, by name',
    input: OperationListInput,
    // Scripts read the whole library; search, sort and paging are the screens'.
    rest: { omit: Object.keys(OperationListInput.entries), answer: { response: v.array(OperationRow), from: (page) => page.rows } },
    run: operations.listOperations,
  }),
  get: crud.get({ summary: 'One operation with its default phase steps', response: OperationRow, run: operations.getOperation }),
  create: crud.create({
    summary:
      'Create an operation (name required, unique whatever the case: 409 OPERATION_NAME_TAKEN); default_phase_steps refer to media and form field keys; detail._key is its key',
    input: OperationCreateInput,
    response: OperationRow,
    run: operations.createOperation,
  }),
  patch: crud.patch({
    summary: 'Change the name and/or the default phase steps (the whole ordered list; steps without _key get one)',
    patch: OperationPatchInput,
    response: OperationRow,
    run: operations.patchOperation,
  }),
  delete: crud.delete({
    summary: 'Delete an operation; one used in a product process cannot be deleted (409 OPERATION_IN_USE)',
    run: operations.deleteOperation,
  }),
})
