import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  ProductChoiceInput,
  QuantityChangeInput,
  QueueMoveInput,
  QueueSaveInput,
  SearchOptsInput,
  WorkOrderCreateInput,
  WorkOrderListInput,
  WorkOrderPatchInput,
} from '../../../src/domains/work-orders/schemas'
import { HistoryFilter } from '../../../src/domains/work-orders/history'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as workOrders from './service'

/** Who reads the work order lists, the queue and the history: production and the areas that report on it. */
export const WORK_ORDER_READERS = ['production', 'quality', 'traceability', 'reporting'] as const satisfies readonly Scope[]
/** One work order (its notes are read by operators too). */
export const WORK_ORDER_DETAIL_READERS = [...WORK_ORDER_READERS, 'operator'] as const satisfies readonly Scope[]

const ByKey = v.object({ key: Key })

export const workOrdersRouter = router({
  list: procedure({ scope: WORK_ORDER_READERS })
    .input(WorkOrderListInput)
    .query(({ ctx, input }) => workOrders.listWorkOrders(ctx, input)),
  get: procedure({ scope: WORK_ORDER_DETAIL_READERS })
    .input(ByKey)
    .query(({ ctx, input }) => workOrders.getWorkOrder(ctx, input.key)),
  history: procedure({ scope: WORK_ORDER_READERS })
    // `direction` is what tRPC's infinite queries add next to `cursor`; the history only pages backwards in time.
    .input(v.object({ key: Key, ...HistoryFilter.entries, direction: v.optional(v.picklist(['forward', 'backward'])) }))
    .query(({ ctx, input }) => {
      const { key, direction: _direction, ...filter } = input
      return workOrders.workOrderHistory(ctx, key, filter)
    }),
  searchOpts: procedure({ scope: WORK_ORDER_READERS })
    .input(SearchOptsInput)
    .query(({ ctx, input }) => workOrders.searchOpts(ctx, input)),
  productChoices: scoped('production')
    .input(ProductChoiceInput)
    .query(({ ctx, input }) => workOrders.productChoices(ctx, input.search)),
  queue: procedure({ scope: WORK_ORDER_READERS })
    .input(v.optional(v.object({ site_key: v.optional(v.string()) })))
    .query(({ ctx, input }) => workOrders.getSiteQueue(ctx, input?.site_key ?? '0')),
  saveQueue: scoped('production')
    .input(QueueSaveInput)
    .mutation(({ ctx, input }) => workOrders.saveSiteQueue(ctx, ctx.actor, input)),
  moveInQueue: scoped('production')
    .input(QueueMoveInput)
    .mutation(({ ctx, input }) => workOrders.moveInSiteQueue(ctx, ctx.actor, input)),
  create: scoped('production')
    .input(WorkOrderCreateInput)
    .mutation(({ ctx, input }) => workOrders.createWorkOrder(ctx, ctx.actor, input)),
  patch: scoped('production')
    .input(v.object({ key: Key, patch: WorkOrderPatchInput }))
    .mutation(({ ctx, input }) => workOrders.patchWorkOrder(ctx, ctx.actor, input.key, input.patch)),
  updateQuantities: scoped('production')
    .input(v.object({ key: Key, change: QuantityChangeInput }))
    .mutation(({ ctx, input }) => workOrders.changeQuantities(ctx, ctx.actor, input.key, input.change)),
  archive: scoped('production')
    .input(ByKey)
    .mutation(({ ctx, input }) => workOrders.archiveWorkOrder(ctx, ctx.actor, input.key)),
  restore: scoped('production')
    .input(ByKey)
    .mutation(({ ctx, input }) => workOrders.restoreWorkOrder(ctx, ctx.actor, input.key)),
})
