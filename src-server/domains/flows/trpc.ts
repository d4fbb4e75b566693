import * as v from 'valibot'
import { DeliveryListInput, FlowCreateInput, FlowPatchInput } from '../../../src/domains/flows/schemas'
import { Key } from '../../../src/valibot-helpers'
import { router, scoped } from '../../trpc/init'
import * as flows from './service'

export const flowsRouter = router({
  list: scoped('admin').query(({ ctx }) => flows.listFlows(ctx)),
  get: scoped('admin')
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => flows.getFlow(ctx, input.key)),
  create: scoped('admin')
    .input(FlowCreateInput)
    .mutation(({ ctx, input }) => flows.createFlow(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: FlowPatchInput }))
    .mutation(({ ctx, input }) => flows.patchFlow(ctx, ctx.actor, input.key, input.patch)),
  delete: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => flows.deleteFlow(ctx, ctx.actor, input.key)),
  deliveries: scoped('admin')
    // `direction` is what tRPC's infinite queries add next to `cursor`; the log only pages back in time.
    .input(v.object({ ...DeliveryListInput.entries, direction: v.optional(v.picklist(['forward', 'backward'])) }))
    .query(({ ctx, input }) => {
      const { direction: _direction, ...rest } = input
      return flows.listDeliveries(ctx, rest)
    }),
  redeliver: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => flows.redeliver(ctx, ctx.actor, input.key)),
})
