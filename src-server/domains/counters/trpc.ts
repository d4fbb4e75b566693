import * as v from 'valibot'
import { CounterCopyInput, CounterCreateInput, CounterListInput, CounterPatchInput } from '../../../src/domains/counters/schemas'
import { Key } from '../../../src/valibot-helpers'
import { router, scoped } from '../../trpc/init'
import * as counters from './service'

export const countersRouter = router({
  list: scoped('admin')
    .input(CounterListInput)
    .query(({ ctx, input }) => counters.listCounters(ctx, input)),
  get: scoped('admin')
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => counters.getCounter(ctx, input.key)),
  create: scoped('admin')
    .input(CounterCreateInput)
    .mutation(({ ctx, input }) => counters.createCounter(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: CounterPatchInput }))
    .mutation(({ ctx, input }) => counters.patchCounter(ctx, ctx.actor, input.key, input.patch)),
  copy: scoped('admin')
    .input(CounterCopyInput)
    .mutation(({ ctx, input }) => counters.copyCounters(ctx, ctx.actor, input)),
  delete: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => counters.deleteCounter(ctx, ctx.actor, input.key)),
})
