import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import {
  HistoryEntry,
  ProductChoice,
  ProductChoiceInput,
  QuantityChangeInput,
  QueueMoveInput,
  QueueMoveResult,
  QueueSaveInput,
  SearchOpts,
  SearchOptsInput,
  SiteQueue,
  SiteQueueInput,
  WorkOrderCreateInput,
  WorkOrderDetail,
  WorkOrderListInput,
  WorkOrderPage,
  WorkOrderPatchInput,
} from '../../../src/domains/work-orders/schemas'
import { HistoryFilter } from '../../../src/domains/work-orders/history'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import { createWorkOrder } from './create'
import { getWorkOrder } from './detail'
import { archiveWorkOrder, patchWorkOrder, restoreWorkOrder } from './edit'
import { workOrderHistory } from './history'
import { DEFAULT_PAGE_SIZE, listWorkOrders, productChoices, searchOpts } from './list'
import { SignatureView } from '../../../src/domains/signatures/schemas'
import { listWorkOrderSignatures } from '../signatures/service'
import { changeQuantities } from './quantities'
import { requireWorkOrderId } from './shared'
import { changeRevision } from './revision'
import { getSiteQueue, moveInSiteQueue, saveSiteQueue } from './site-queue'

/** Who reads the work order lists, the queue and the history: production and the areas that report on it. */
export const WORK_ORDER_READERS = ['production', 'quality', 'traceability', 'reporting'] as const satisfies readonly Scope[]
/** One work order (its notes are read by operators too). */
export const WORK_ORDER_DETAIL_READERS = [...WORK_ORDER_READERS, 'operator'] as const satisfies readonly Scope[]

const readers = { scope: WORK_ORDER_READERS }
const production = { scope: 'production' } as const
const ByKey = v.object({ key: Key })
/** `/work-order/{id}`: the key or the visible code. */
const byId = { id: 'key' }

export const workOrdersApi = useCases('work orders', {
  list: query({
    summary:
      'One page of the work order list: the active ones in site queue order (or `archived=true`: the archive, latest first); ' +
      '`search` (code, product, line), `status`, `late`, `critical`, `product_key`, `date_from`/`date_to` (YYYY/MM/DD or YYYY-MM-DD) on `date_field` (due_by or start_from), ' +
      `sort/dir, page from 1 and page_size up to 100 (default ${DEFAULT_PAGE_SIZE}); total counts every match.`,
    access: readers,
    input: WorkOrderListInput,
    response: WorkOrderPage,
    rest: { method: 'get', path: '/work-order' },
    run: (ctx, input) => listWorkOrders(ctx, input),
  }),
  get: query({
    summary: 'One work order by key or code, with its phases (material flow) and jobs',
    access: { scope: WORK_ORDER_DETAIL_READERS },
    input: ByKey,
    response: WorkOrderDetail,
    rest: { method: 'get', path: '/work-order/{id}', params: byId },
    run: (ctx, input) => getWorkOrder(ctx, input.key),
  }),
  history: query({
    summary:
      'The events of a work order, of its jobs and of the issues and message threads of either, newest first; one page of `limit` ' +
      "(default 100, at most 500). The next page: `cursor` = the last row's `_key`. Filters: `phase_key` (what concerns that phase), " +
      '`category` (work_order, execution, corrections, assignment, issues, messages).',
    access: readers,
    // `direction` is what tRPC's infinite queries add next to `cursor`; the history only pages backwards in time.
    input: v.object({ key: Key, ...HistoryFilter.entries, direction: v.optional(v.picklist(['forward', 'backward'])) }),
    response: v.array(HistoryEntry),
    rest: { method: 'get', path: '/work-order/{id}/history', params: byId, omit: ['direction'] },
    run: (ctx, { key, direction: _direction, ...filter }) => workOrderHistory(ctx, key, filter),
  }),
  signatures: query({
    summary:
      'Every electronic signature given on the work order\'s records (its batch steps), oldest first: meaning, signer (full name at signing), ' +
      'server time, the SHA-256 of the content signed, and `valid`: false when that content changed after signing.',
    access: readers,
    input: ByKey,
    response: v.array(SignatureView),
    rest: { method: 'get', path: '/work-order/{id}/signatures', params: byId },
    run: async (ctx, { key }) => listWorkOrderSignatures(ctx.db, await requireWorkOrderId(ctx.db, key)),
  }),
  searchOpts: query({
    summary:
      'Values for the work order filter autocompletes: a list whose first item holds products, wo_codes and phases (first 100 of each, ' +
      'matching `search`; `archived=true` for the archive)',
    access: readers,
    input: SearchOptsInput,
    response: SearchOpts,
    rest: { method: 'get', path: '/work-order-search-opts', answer: { response: v.array(SearchOpts), from: (opts) => [opts] } },
    run: (ctx, input) => searchOpts(ctx, input),
  }),
  productChoices: query({
    summary: 'Products a work order can be made for (active, not in the trash, with a process), matching `search`',
    access: production,
    input: ProductChoiceInput,
    response: v.array(ProductChoice),
    run: (ctx, input) => productChoices(ctx, input.search),
  }),
  queue: query({
    summary:
      "The site queue (site_key '0'): the work orders not archived, in order, a page at a time: limit (default 100, at most 1000) " +
      'and cursor (the next_cursor of the page before; null on the last page). Moving one work order: POST queue/move.',
    access: readers,
    input: SiteQueueInput,
    response: SiteQueue,
    rest: { method: 'get', path: '/queue/site/{site_key}' },
    run: (ctx, input) => getSiteQueue(ctx, input),
  }),
  saveQueue: mutation({
    summary:
      "Save the site queue: {type: 's', site_key: '0', work_orders: [keys in order]}. The listed work orders go first in that order; the others " +
      'not archived (created meanwhile, or left out) follow in their previous order. Unknown keys: 400 UNKNOWN_WORK_ORDER.',
    access: production,
    input: QueueSaveInput,
    response: SiteQueue,
    rest: { method: 'put', path: '/queue' },
    run: (ctx, input) => saveSiteQueue(ctx, ctx.actor, input),
  }),
  moveInQueue: mutation({
    summary:
      "Move one work order to an absolute place of the whole site queue: {work_order_key, position} with position 1 = first or 'last'. " +
      'Serialised with queue saves. 404 UNKNOWN_WORK_ORDER, 409 WORK_ORDER_ARCHIVED, 422 QUEUE_POSITION_OUT_OF_RANGE (beyond the end).',
    access: production,
    input: QueueMoveInput,
    response: QueueMoveResult,
    rest: { method: 'post', path: '/queue/move' },
    run: (ctx, input) => moveInSiteQueue(ctx, ctx.actor, input),
  }),
  create: mutation({
    summary:
      'Create a work order for an active product with a released revision (422 PRODUCT_NOT_RELEASED), made from its latest revision: quantity > 0, start_from/due_by as YYYY/MM/DD or YYYY-MM-DD, answered as YYYY/MM/DD (due_by >= start_from: 400 DUE_BEFORE_START), ' +
      'line, notes. It gets a code (WO000123), goes to the end of the site queue and gets one job per phase with the whole quantity. ' +
      'Operators: phase_operators[] per phase, else operator_key for every phase, else unassigned - only where the settings allow unassigned jobs ' +
      '(otherwise 422 OPERATOR_REQUIRED naming the phase).',
    access: production,
    input: WorkOrderCreateInput,
    response: WorkOrderDetail,
    rest: { method: 'post', path: '/work-order', status: 201 },
    run: (ctx, input) => createWorkOrder(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary:
      'Change line, start_from, due_by, notes; `status: closed` closes an active work order (409 WORK_ORDER_JOBS_RUNNING while jobs run), ' +
      '`status: active` reopens a closed one. Archived work orders are read-only (409 WORK_ORDER_ARCHIVED).',
    access: production,
    input: v.object({ key: Key, patch: WorkOrderPatchInput }),
    response: WorkOrderDetail,
    rest: { method: 'patch', path: '/work-order/{id}', params: byId, body: 'patch' },
    run: (ctx, input) => patchWorkOrder(ctx, ctx.actor, input.key, input.patch),
  }),
  updateQuantities: mutation({
    summary:
      'Change the planned quantity with its distribution among the jobs of every phase: phases[].jobs (job_key, quantity) and phases[].new_jobs ' +
      '(operator_key, quantity). Each phase must add up to the quantity (422 WORKLOAD_NOT_DISTRIBUTED), a job never goes below its done and ' +
      'active pieces (422 JOB_BELOW_DONE), new jobs need an operator where unassigned jobs are not allowed (422 OPERATOR_REQUIRED).',
    access: production,
    input: v.object({ key: Key, change: QuantityChangeInput }),
    response: WorkOrderDetail,
    rest: { method: 'patch', path: '/work-order/{id}/update-quantities', params: byId, body: 'change' },
    run: (ctx, input) => changeQuantities(ctx, ctx.actor, input.key, input.change),
  }),
  changeRevision: mutation({
    summary:
      "Move a work order none of whose jobs has started to the product's latest released revision (its jobs follow their phases; see the diff first). " +
      'Errors: 409 WORK_ORDER_STARTED, REVISION_NOT_NEWER, WORK_ORDER_ARCHIVED',
    access: production,
    input: ByKey,
    response: WorkOrderDetail,
    rest: { method: 'post', path: '/work-order/{id}/revision', params: byId },
    run: (ctx, input) => changeRevision(ctx, ctx.actor, input.key),
  }),
  archive: mutation({
    summary: 'Archive a completed or closed work order (409 WORK_ORDER_NOT_FINISHED otherwise); it leaves the active list and the site queue',
    access: production,
    input: ByKey,
    response: WorkOrderDetail,
    rest: { method: 'post', path: '/work-order/{id}/archive', params: byId },
    run: (ctx, input) => archiveWorkOrder(ctx, ctx.actor, input.key),
  }),
  restore: mutation({
    summary: 'Bring an archived work order back to the active list, at the end of the site queue',
    access: production,
    input: ByKey,
    response: WorkOrderDetail,
    rest: { method: 'post', path: '/work-order/{id}/restore', params: byId },
    run: (ctx, input) => restoreWorkOrder(ctx, ctx.actor, input.key),
  }),
})
