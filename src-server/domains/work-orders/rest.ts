import * as v from 'valibot'
import {
  HistoryEntry,
  QuantityChangeInput,
  QueueMoveInput,
  QueueMoveResult,
  QueueSaveInput,
  SearchOpts,
  SearchOptsQuery,
  SiteQueue,
  WorkOrderCreateInput,
  WorkOrderDetail,
  WorkOrderListQuery,
  WorkOrderPage,
  WorkOrderPatchInput,
} from '../../../src/domains/work-orders/schemas'
import { HistoryQuery } from '../../../src/domains/work-orders/history'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as workOrders from './service'
import { WORK_ORDER_DETAIL_READERS, WORK_ORDER_READERS } from './trpc'

const tag = 'work orders'
const IdParams = v.object({ id: Key })

export const workOrderRoutes = [
  route({
    method: 'post',
    path: '/work-order',
    tag,
    summary:
      'Create a work order for an active product with a process: quantity > 0, start_from/due_by as YYYY/MM/DD or YYYY-MM-DD, answered as YYYY/MM/DD (due_by >= start_from: 400 DUE_BEFORE_START), ' +
      'line, notes. It gets a code (WO000123), goes to the end of the site queue and gets one job per phase with the whole quantity. ' +
      'Operators: phase_operators[] per phase, else operator_key for every phase, else unassigned - only where the settings allow unassigned jobs ' +
      '(otherwise 422 OPERATOR_REQUIRED naming the phase).',
    access: { scope: 'production' },
    body: WorkOrderCreateInput,
    response: WorkOrderDetail,
    status: 201,
    handler: (ctx, { body }) => workOrders.createWorkOrder(ctx, ctx.actor!, body),
  }),
  route({
    method: 'get',
    path: '/work-order',
    tag,
    summary:
      'One page of the work order list: the active ones in site queue order (or `archived=true`: the archive, latest first); ' +
      '`search` (code, product, line), `status`, `late`, `critical`, `product_key`, `date_from`/`date_to` (YYYY/MM/DD or YYYY-MM-DD) on `date_field` (due_by or start_from), ' +
      `sort/dir, page from 1 and page_size up to 100 (default ${workOrders.DEFAULT_PAGE_SIZE}); total counts every match.`,
    access: { scope: WORK_ORDER_READERS },
    query: WorkOrderListQuery,
    response: WorkOrderPage,
    handler: (ctx, { query }) => workOrders.listWorkOrders(ctx, query),
  }),
  route({
    method: 'get',
    path: '/work-order/{id}',
    tag,
    summary: 'One work order by key or code, with its phases (material flow) and jobs',
    access: { scope: WORK_ORDER_DETAIL_READERS },
    params: IdParams,
    response: WorkOrderDetail,
    handler: (ctx, { params }) => workOrders.getWorkOrder(ctx, params.id),
  }),
  route({
    method: 'patch',
    path: '/work-order/{id}',
    tag,
    summary:
      'Change line, start_from, due_by, notes; `status: closed` closes an active work order (409 WORK_ORDER_JOBS_RUNNING while jobs run), ' +
      '`status: active` reopens a closed one. Archived work orders are read-only (409 WORK_ORDER_ARCHIVED).',
    access: { scope: 'production' },
    params: IdParams,
    body: WorkOrderPatchInput,
    response: WorkOrderDetail,
    handler: (ctx, { params, body }) => workOrders.patchWorkOrder(ctx, ctx.actor!, params.id, body),
  }),
  route({
    method: 'patch',
    path: '/work-order/{id}/update-quantities',
    tag,
    summary:
      'Change the planned quantity with its distribution among the jobs of every phase: phases[].jobs (job_key, quantity) and phases[].new_jobs ' +
      '(operator_key, quantity). Each phase must add up to the quantity (422 WORKLOAD_NOT_DISTRIBUTED), a job never goes below its done and ' +
      'active pieces (422 JOB_BELOW_DONE), new jobs need an operator where unassigned jobs are not allowed (422 OPERATOR_REQUIRED).',
    access: { scope: 'production' },
    params: IdParams,
    body: QuantityChangeInput,
    response: WorkOrderDetail,
    handler: (ctx, { params, body }) => workOrders.changeQuantities(ctx, ctx.actor!, params.id, body),
  }),
  route({
    method: 'post',
    path: '/work-order/{id}/archive',
    tag,
    summary: 'Archive a completed or closed work order (409 WORK_ORDER_NOT_FINISHED otherwise); it leaves the active list and the site queue',
    access: { scope: 'production' },
    params: IdParams,
    response: WorkOrderDetail,
    handler: (ctx, { params }) => workOrders.archiveWorkOrder(ctx, ctx.actor!, params.id),
  }),
  route({
    method: 'post',
    path: '/work-order/{id}/restore',
    tag,
    summary: 'Bring an archived work order back to the active list, at the end of the site queue',
    access: { scope: 'production' },
    params: IdParams,
    response: WorkOrderDetail,
    handler: (ctx, { params }) => workOrders.restoreWorkOrder(ctx, ctx.actor!, params.id),
  }),
  route({
    method: 'get',
    path: '/work-order/{id}/history',
    tag,
    summary:
      'The events of a work order, of its jobs and of the issues and message threads of either, newest first; one page of `limit` ' +
      '(default 100, at most 500). The next page: `cursor` = the last row\'s `_key`. Filters: `phase_key` (what concerns that phase), ' +
      '`category` (work_order, execution, corrections, assignment, issues, messages).',
    access: { scope: WORK_ORDER_READERS },
    params: IdParams,
    query: HistoryQuery,
    response: v.array(HistoryEntry),
    handler: (ctx, { params, query }) => workOrders.workOrderHistory(ctx, params.id, query),
  }),
  route({
    method: 'get',
    path: '/work-order-search-opts',
    tag,
    summary:
      'Values for the work order filter autocompletes: a list whose first item holds products, wo_codes and phases (first 100 of each, ' +
      'matching `search`; `archived=true` for the archive)',
    access: { scope: WORK_ORDER_READERS },
    query: SearchOptsQuery,
    response: v.array(SearchOpts),
    handler: async (ctx, { query }) => [await workOrders.searchOpts(ctx, query)],
  }),
  route({
    method: 'get',
    path: '/queue/site/{site_key}',
    tag,
    summary: "The site queue (site_key '0'): every work order not archived, in order",
    access: { scope: WORK_ORDER_READERS },
    params: v.object({ site_key: Key }),
    response: SiteQueue,
    handler: (ctx, { params }) => workOrders.getSiteQueue(ctx, params.site_key),
  }),
  route({
    method: 'put',
    path: '/queue',
    tag,
    summary:
      "Save the site queue: {type: 's', site_key: '0', work_orders: [keys in order]}. The listed work orders go first in that order; the others " +
      'not archived (created meanwhile, or left out) follow in their previous order. Unknown keys: 400 UNKNOWN_WORK_ORDER.',
    access: { scope: 'production' },
    body: QueueSaveInput,
    response: SiteQueue,
    handler: (ctx, { body }) => workOrders.saveSiteQueue(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/queue/move',
    tag,
    summary:
      "Move one work order to an absolute place of the whole site queue: {work_order_key, position} with position 1 = first or 'last'. " +
      'Serialised with queue saves. 404 UNKNOWN_WORK_ORDER, 409 WORK_ORDER_ARCHIVED, 422 QUEUE_POSITION_OUT_OF_RANGE (beyond the end).',
    access: { scope: 'production' },
    body: QueueMoveInput,
    response: QueueMoveResult,
    handler: (ctx, { body }) => workOrders.moveInSiteQueue(ctx, ctx.actor!, body),
  }),
]
