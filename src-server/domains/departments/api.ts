import * as v from 'valibot'
import { DepartmentInput, DepartmentPatch, DepartmentRow } from '../../../src/domains/departments/schemas'
import { UuidKey } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as departments from './service'

const admin = { scope: 'admin' } as const
const Key = UuidKey('wrong department key')

export const departmentsApi = useCases('departments', {
  /** Every signed-in user: user forms, job lists by department, reports. */
  list: query({
    summary: 'List departments (by code), with how many users each has',
    access: { scope: 'signed-in' },
    response: v.array(DepartmentRow),
    rest: { method: 'get', path: '/department' },
    run: (ctx) => departments.listDepartments(ctx),
  }),
  create: mutation({
    summary: 'Create a department (code unique ignoring case); detail._key is its key',
    access: admin,
    input: DepartmentInput,
    response: DepartmentRow,
    rest: { method: 'post', path: '/department', status: 201 },
    run: (ctx, input) => departments.createDepartment(ctx, ctx.actor, input),
  }),
  update: mutation({
    summary: 'Change the code and/or name of a department',
    access: admin,
    input: v.object({ key: Key, patch: DepartmentPatch }),
    response: DepartmentRow,
    rest: { method: 'patch', path: '/department/{key}', body: 'patch' },
    run: (ctx, input) => departments.updateDepartment(ctx, ctx.actor, input.key, input.patch),
  }),
  remove: mutation({
    summary: 'Delete a department (409 DEPARTMENT_IN_USE while users or product phases are assigned to it)',
    access: admin,
    input: v.object({ key: Key }),
    rest: { method: 'delete', path: '/department/{key}' },
    run: (ctx, input) => departments.deleteDepartment(ctx, ctx.actor, input.key),
  }),
})
