import * as v from 'valibot'
import { DepartmentInput, DepartmentPatch } from '../../../src/domains/departments/schemas'
import { UuidKey } from '../../../src/valibot-helpers'
import { router, scoped, signedIn } from '../../trpc/init'
import * as departments from './service'

const Key = UuidKey('wrong department key')

export const departmentsRouter = router({
  /** Every signed-in user: user forms, job lists by department, reports. */
  list: signedIn.query(({ ctx }) => departments.listDepartments(ctx)),
  create: scoped('admin')
    .input(DepartmentInput)
    .mutation(({ ctx, input }) => departments.createDepartment(ctx, ctx.actor, input)),
  update: scoped('admin')
    .input(v.object({ key: Key, patch: DepartmentPatch }))
    .mutation(({ ctx, input }) => departments.updateDepartment(ctx, ctx.actor, input.key, input.patch)),
  remove: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => departments.deleteDepartment(ctx, ctx.actor, input.key)),
})
