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
    .input(DeliveryListInput)
    .query(({ ctx, input }) => flows.listDeliveries(ctx, input)),
  redeliver: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => flows.redeliver(ctx, ctx.actor, input.key)),
})
