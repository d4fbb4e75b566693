import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { FieldCreateInput, FieldListInput, FieldPatchInput } from '../../../src/domains/form-fields/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as fields from './service'

/** Who reads the field library: those who design forms (admin, library) and those who fill them. */
export const FIELD_READERS = ['admin', 'library', 'operator', 'production', 'quality', 'traceability'] as const satisfies readonly Scope[]

export const formFieldsRouter = router({
  list: procedure({ scope: FIELD_READERS })
    .input(FieldListInput)
    .query(({ ctx, input }) => fields.listFields(ctx, input)),
  get: procedure({ scope: FIELD_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => fields.getField(ctx, input.key)),
  create: scoped('admin')
    .input(FieldCreateInput)
    .mutation(({ ctx, input }) => fields.createField(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: FieldPatchInput }))
    .mutation(({ ctx, input }) => fields.patchField(ctx, ctx.actor, input.key, input.patch)),
  delete: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => fields.deleteField(ctx, ctx.actor, input.key)),
})
