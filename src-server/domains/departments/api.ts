import * as v from 'valibot'
import { DepartmentInput, DepartmentPatch, DepartmentRow } from '../../../src/domains/departments/schemas'
import { UuidKey } from '../../../src/valibot-helpers'
import { libraryCrud } from '../../api/library-crud'
import { useCases } from '../../api/use-case'
import * as departments from './service'

/** Every signed-in user reads them: user forms, job lists by department, reports. */
const crud = libraryCrud({ path: '/department', read: { scope: 'signed-in' }, write: { scope: 'admin' }, key: UuidKey('wrong department key') })

export const departmentsApi = useCases('departments', {
  list: crud.list({ summary: 'List departments (by code), with how many users each has', response: v.array(DepartmentRow), run: departments.listDepartments }),
  create: crud.create({
    summary: 'Create a department (code unique ignoring case); detail._key is its key',
    input: DepartmentInput,
    response: DepartmentRow,
    run: departments.createDepartment,
  }),
  update: crud.patch({ summary: 'Change the code and/or name of a department', patch: DepartmentPatch, response: DepartmentRow, run: departments.updateDepartment }),
  remove: crud.delete({
    summary: 'Delete a department (409 DEPARTMENT_IN_USE while users or product phases are assigned to it)',
    response: null,
    run: departments.deleteDepartment,
  }),
})
