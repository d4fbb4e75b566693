import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { SerialFieldCreateInput, SerialFieldOrderInput, SerialFieldPatchInput } from '../../../src/domains/serial-fields/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as serialFields from './service'

/** Who reads the serial fields: the admin who sets them and those who write or follow serials. */
export const SERIAL_FIELD_READERS = ['admin', 'library', 'operator', 'production', 'quality', 'traceability', 'warehouse'] as const satisfies readonly Scope[]

export const serialFieldsRouter = router({
  list: procedure({ scope: SERIAL_FIELD_READERS }).query(({ ctx }) => serialFields.listSerialFields(ctx)),
  get: procedure({ scope: SERIAL_FIELD_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => serialFields.getSerialField(ctx, input.key)),
  create: scoped('admin')
    .input(SerialFieldCreateInput)
    .mutation(({ ctx, input }) => serialFields.createSerialField(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: SerialFieldPatchInput }))
    .mutation(({ ctx, input }) => serialFields.patchSerialField(ctx, ctx.actor, input.key, input.patch)),
  reorder: scoped('admin')
    .input(SerialFieldOrderInput)
    .mutation(({ ctx, input }) => serialFields.reorderSerialFields(ctx, ctx.actor, input)),
  delete: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => serialFields.deleteSerialField(ctx, ctx.actor, input.key)),
})
