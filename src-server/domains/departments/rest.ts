import * as v from 'valibot'
import { DepartmentInput, DepartmentPatch, DepartmentRow } from '../../../src/domains/departments/schemas'
import { UuidKey } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as departments from './service'

const tag = 'departments'
const KeyParams = v.object({ key: UuidKey('wrong department key') })

export const departmentRoutes = [
  route({
    method: 'get',
    path: '/department',
    tag,
    summary: 'List departments (by code), with how many users each has',
    access: { scope: 'signed-in' },
    response: v.array(DepartmentRow),
    handler: (ctx) => departments.listDepartments(ctx),
  }),
  route({
    method: 'post',
    path: '/department',
    tag,
    summary: 'Create a department (code unique ignoring case); detail._key is its key',
    access: { scope: 'admin' },
    body: DepartmentInput,
    response: DepartmentRow,
    status: 201,
    handler: (ctx, { body }) => departments.createDepartment(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/department/{key}',
    tag,
    summary: 'Change the code and/or name of a department',
    access: { scope: 'admin' },
    params: KeyParams,
    body: DepartmentPatch,
    response: DepartmentRow,
    handler: (ctx, { params, body }) => departments.updateDepartment(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/department/{key}',
    tag,
    summary: 'Delete a department (409 DEPARTMENT_IN_USE while users or product phases are assigned to it)',
    access: { scope: 'admin' },
    params: KeyParams,
    handler: (ctx, { params }) => departments.deleteDepartment(ctx, ctx.actor!, params.key),
  }),
]
