import * as v from 'valibot'
import { SignatureView } from '../signatures/schemas'
import { DayInput } from '../../dates'
import { Key, StorableText } from '../../valibot-helpers'
import { MAX_JOB_QUANTITY } from '../jobs/schemas'
import { RevisionRef } from '../revisions/schemas'

/**
 * The work order contract (SPEC 3 Work order and Queue save payload, 7 "Work orders and queue"),
 * shared by REST, tRPC, OpenAPI and the production screens. Rules with their own error codes
 * (due date before the start, workload not distributed ...) are checked by the service and, where
 * a screen needs them before saving, by the pure functions of `./rules.ts`.
 */

export const WORK_ORDER_STATUSES = ['active', 'completed', 'closed'] as const
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number]

/** A work order's quantity: at most what one job may hold, so any work order can be rebalanced. */
export const MAX_QUANTITY = MAX_JOB_QUANTITY
export const WORK_ORDER_PAGE_SIZE_MAX = 100
/** SPEC 5 and 9: autocompletes show the first 100 results. */
export const OPTIONS_LIMIT = 100
/** SPEC 5 and 9: order autocompletes start at 3 characters. */
export const AUTOCOMPLETE_MIN_CHARS = 3

const Uuid = (what: string) => v.pipe(v.string(), v.uuid(`${what} must be a valid key`))

/** SPEC 5 dates: the one day rule of every input (src/dates.ts). The screens validate with it too. */
export const DateInput = DayInput

/** Whole pieces, more than zero. */
export const Quantity = v.pipe(
  v.number('quantity must be a number'),
  v.integer('quantity must be a whole number'),
  v.minValue(1, 'quantity must be greater than 0'),
  v.maxValue(MAX_QUANTITY),
)

export const WORK_ORDER_LINE_MAX = 100
export const WORK_ORDER_NOTES_MAX = 20_000
const Line = v.pipe(v.string(), StorableText, v.trim(), v.maxLength(WORK_ORDER_LINE_MAX, `line: at most ${WORK_ORDER_LINE_MAX} characters`))
const Notes = v.pipe(v.string(), StorableText, v.maxLength(WORK_ORDER_NOTES_MAX, 'notes: at most 20,000 characters'))

/** Which operator takes the jobs of one phase when the work order is created. */
export const PhaseOperator = v.object({ phase_key: Uuid('phase_key'), operator_key: Uuid('operator_key') })

/**
 * `POST work-order`. One job per phase of the product's process, with the whole quantity. Who
 * runs them: the phase's entry of `phase_operators`, else `operator_key` (one operator for every
 * phase), else nobody - allowed only where the settings allow unassigned jobs (otherwise 422
 * OPERATOR_REQUIRED naming the first phase without an operator).
 */
export const WorkOrderCreateInput = v.object({
  product_key: Uuid('product_key'),
  quantity: Quantity,
  start_from: v.optional(v.nullable(DateInput)),
  due_by: v.optional(v.nullable(DateInput)),
  line: v.optional(Line),
  notes: v.optional(Notes),
  operator_key: v.optional(v.nullable(Uuid('operator_key'))),
  phase_operators: v.optional(v.pipe(v.array(PhaseOperator), v.maxLength(100))),
})
export type WorkOrderCreateInput = v.InferOutput<typeof WorkOrderCreateInput>

/**
 * `PATCH work-order/{id}`: planning fields and the status by hand (`closed` closes an active
 * work order, `active` reopens a closed one; `completed` only comes from production progress).
 */
export const WorkOrderPatchInput = v.object({
  line: v.optional(Line),
  start_from: v.optional(v.nullable(DateInput)),
  due_by: v.optional(v.nullable(DateInput)),
  notes: v.optional(Notes),
  status: v.optional(v.picklist(['active', 'closed'], 'status must be active (reopen) or closed')),
})
export type WorkOrderPatchInput = v.InferOutput<typeof WorkOrderPatchInput>

/**
 * `PATCH work-order/{id}/update-quantities`: the new planned quantity and its distribution among
 * the jobs of every phase. Listed jobs get the given quantity, jobs left out keep theirs, new jobs
 * are added; each phase must add up to `quantity` (SPEC 5 "the whole workload must be
 * distributed"). A job of 0 pieces that never started is removed.
 */
export const PhaseDistribution = v.object({
  phase_key: Uuid('phase_key'),
  jobs: v.optional(
    v.pipe(
      v.array(
        v.object({
          job_key: Uuid('job_key'),
          quantity: v.pipe(v.number(), v.integer('job quantities are whole numbers'), v.minValue(0, 'job quantities must be >= 0'), v.maxValue(MAX_QUANTITY)),
        }),
      ),
      v.maxLength(500),
    ),
  ),
  new_jobs: v.optional(
    v.pipe(v.array(v.object({ operator_key: v.optional(v.nullable(Uuid('operator_key'))), quantity: Quantity })), v.maxLength(100)),
  ),
})
export type PhaseDistribution = v.InferOutput<typeof PhaseDistribution>

export const QuantityChangeInput = v.object({
  quantity: Quantity,
  phases: v.pipe(v.array(PhaseDistribution), v.maxLength(100)),
})
export type QuantityChangeInput = v.InferOutput<typeof QuantityChangeInput>

/** SPEC 3 Queue save payload: `type` 's' (site), `site_key` '0', the work order keys in order. */
export const QueueSaveInput = v.object({
  type: v.picklist(['s'], "type must be 's' (the site queue)"),
  site_key: v.picklist(['0'], "site_key must be '0'"),
  work_orders: v.pipe(
    v.array(Uuid('work order key')),
    v.maxLength(100_000),
    v.check((keys) => new Set(keys).size === keys.length, 'work_orders: a key is repeated'),
  ),
})
export type QueueSaveInput = v.InferOutput<typeof QueueSaveInput>

/**
 * Moves one work order to an absolute place of the whole site queue (1 = first), or to its end
 * with 'last'. A place beyond the end is refused (QUEUE_POSITION_OUT_OF_RANGE), never clamped.
 */
export const QueueMoveInput = v.object({
  work_order_key: Uuid('work order key'),
  position: v.union(
    [v.pipe(v.number(), v.integer('position must be a whole number'), v.minValue(1, 'position starts at 1')), v.literal('last')],
    "position must be a number from 1 or 'last'",
  ),
})
export type QueueMoveInput = v.InferOutput<typeof QueueMoveInput>
export const QueueMoveResult = v.object({
  _key: v.string(),
  /** 1-based places before and after the move, and the queue's length. */
  from: v.number(),
  to: v.number(),
  total: v.number(),
})
export type QueueMoveResult = v.InferOutput<typeof QueueMoveResult>

export const WORK_ORDER_SORTS = ['queue', 'code', 'product', 'due_by', 'start_from', 'progress', 'created_at', 'archived_at'] as const
export type WorkOrderSort = (typeof WORK_ORDER_SORTS)[number]
export const DATE_FIELDS = ['due_by', 'start_from'] as const

const listFilters = {
  /** Words matched against code, product code and description, and line; every word must match. */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  status: v.optional(v.picklist(WORK_ORDER_STATUSES)),
  product_key: v.optional(Uuid('product_key')),
  /** Date range (inclusive) on `date_field` (due_by unless said otherwise). */
  date_field: v.optional(v.picklist(DATE_FIELDS)),
  date_from: v.optional(DateInput),
  date_to: v.optional(DateInput),
  sort: v.optional(v.picklist(WORK_ORDER_SORTS)),
  dir: v.optional(v.picklist(['asc', 'desc'])),
}

/** tRPC `workOrders.list`; `archived` true = the archive, otherwise the active list (site queue order). */
export const WorkOrderListInput = v.object({
  ...listFilters,
  /** true: late only; false: on time only. */
  late: v.optional(v.boolean()),
  /** true: marked critical or with a critical job; false: neither. */
  critical: v.optional(v.boolean()),
  archived: v.optional(v.boolean()),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(WORK_ORDER_PAGE_SIZE_MAX))),
})
export type WorkOrderListInput = v.InferOutput<typeof WorkOrderListInput>


export const WorkOrderListItem = v.object({
  _key: v.string(),
  code: v.string(),
  product_key: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  planned_qt: v.number(),
  completed_qt: v.number(),
  remaining_qt: v.number(),
  /** Whole percent of the planned quantity completed by the last phase. */
  progress: v.number(),
  start_from: v.nullable(v.string()),
  due_by: v.nullable(v.string()),
  line: v.string(),
  status: v.picklist(WORK_ORDER_STATUSES),
  /** due_by before today and not completed nor closed. */
  late: v.boolean(),
  /** An open critical issue is raised on the work order itself. */
  critical: v.boolean(),
  /** One of its open jobs has an open critical issue (the job shows it, not the work order). */
  has_critical_job: v.boolean(),
  sequence: v.number(),
  archived_at: v.nullable(v.number()),
  /** The released revision of the product's process and bom the work order runs on. */
  revision: RevisionRef,
  /** The number of the product's latest revision when newer than the work order's, else null. */
  newer_revision: v.nullable(v.number()),
})
export type WorkOrderListItem = v.InferOutput<typeof WorkOrderListItem>
export const WorkOrderPage = v.object({ rows: v.array(WorkOrderListItem), total: v.number() })
export type WorkOrderPage = v.InferOutput<typeof WorkOrderPage>

export const WorkOrderJob = v.object({
  _key: v.string(),
  phase_key: v.string(),
  operator_key: v.nullable(v.string()),
  operator_name: v.nullable(v.string()),
  quantity: v.number(),
  completed_qt: v.number(),
  active_qt: v.number(),
  status: v.picklist(['queued', 'started', 'paused', 'closed']),
  active: v.boolean(),
  ready: v.boolean(),
  /** Open, with an open critical issue on the job itself. */
  critical: v.boolean(),
})
export type WorkOrderJob = v.InferOutput<typeof WorkOrderJob>

/** One phase of the work order: its material flow (DOMAIN.md) and its jobs. */
export const WorkOrderPhase = v.object({
  _key: v.string(),
  position: v.number(),
  name: v.string(),
  department_key: v.nullable(v.string()),
  /** Pieces per batch (phase parameter; 0 = the whole job quantity). */
  production_batch_qt: v.number(),
  released_in_qt: v.number(),
  taken_qt: v.number(),
  completed_qt: v.number(),
  released_out_qt: v.number(),
  jobs: v.array(WorkOrderJob),
})
export type WorkOrderPhase = v.InferOutput<typeof WorkOrderPhase>

export const WorkOrderDetail = v.object({
  ...WorkOrderListItem.entries,
  notes: v.string(),
  release_date: v.nullable(v.string()),
  closed_at: v.nullable(v.number()),
  created_at: v.number(),
  updated_at: v.number(),
  phases: v.array(WorkOrderPhase),
})
export type WorkOrderDetail = v.InferOutput<typeof WorkOrderDetail>

/** Work orders per page of `GET queue/site/0` unless `limit` says otherwise, and at most. */
export const SITE_QUEUE_PAGE_DEFAULT = 100
export const SITE_QUEUE_PAGE_MAX = 1000

/** `GET queue/site/{site_key}`: one page of the site queue; `cursor` is the `next_cursor` of the page before. */
export const SiteQueueInput = v.object({
  site_key: Key,
  limit: v.optional(v.pipe(v.number(), v.integer('expected a whole number'), v.minValue(1), v.maxValue(SITE_QUEUE_PAGE_MAX))),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200), v.regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid'))),
})
export type SiteQueueInput = v.InferOutput<typeof SiteQueueInput>

/** `GET queue/site/0`: the site queue, the work orders not archived, in order, a page at a time. */
export const QueueItem = v.object({
  _key: v.string(),
  code: v.string(),
  product_code: v.string(),
  status: v.picklist(WORK_ORDER_STATUSES),
  planned_qt: v.number(),
  completed_qt: v.number(),
  due_by: v.nullable(v.string()),
  sequence: v.number(),
})
export const SiteQueue = v.object({
  type: v.literal('s'),
  site_key: v.literal('0'),
  work_orders: v.array(QueueItem),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: v.nullable(v.string()),
})
export type SiteQueue = v.InferOutput<typeof SiteQueue>

/** `GET work-order-search-opts`: values for the filter autocompletes (first 100 of each). */
export const SearchOptsInput = v.object({ search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))), archived: v.optional(v.boolean()) })
export const SearchOpts = v.object({
  products: v.array(v.object({ _key: v.string(), code: v.string(), description: v.string() })),
  wo_codes: v.array(v.string()),
  phases: v.array(v.string()),
})
export type SearchOpts = v.InferOutput<typeof SearchOpts>

/** Products a work order can be made for: active, not in the trash, with a process. */
export const ProductChoiceInput = v.object({ search: v.pipe(v.string(), v.trim(), v.maxLength(100)) })
export const ProductChoice = v.object({
  _key: v.string(),
  code: v.string(),
  description: v.string(),
  /** The latest released revision a new work order takes; null: none yet (the work order is refused: release first). */
  revision: v.nullable(v.number()),
  /** The phases of that revision (of the draft while there is none). */
  phases: v.array(v.object({ _key: v.string(), name: v.string(), position: v.number() })),
})
export type ProductChoice = v.InferOutput<typeof ProductChoice>

export const HistoryEntry = v.object({
  _key: v.string(),
  event_type: v.string(),
  timestamp: v.number(),
  user_key: v.nullable(v.string()),
  user_name: v.nullable(v.string()),
  subject_type: v.nullable(v.string()),
  subject_key: v.nullable(v.string()),
  data: v.record(v.string(), v.unknown()),
  /** The job the event concerns (its own, or the job of the issue or message thread), and its phase. */
  job_key: v.nullable(v.string()),
  phase_key: v.nullable(v.string()),
  /** Display names of the users and steps the data refers to by key (operator_key, step_key ...). */
  names: v.record(v.string(), v.string()),
  /** For issue events: the issue as it is now (null once deleted; the event data keeps code and title). */
  issue: v.nullable(v.object({ code: v.string(), title: v.string(), state: v.string() })),
  /** For message events: the thread it belongs to. */
  thread: v.nullable(v.picklist(['work_order', 'job'])),
  /** For STEP_COMPLETED: the signatures given on that step (issue 22), each saying whether it still holds. */
  signatures: v.array(SignatureView),
})
export type HistoryEntry = v.InferOutput<typeof HistoryEntry>

/** Dates travel as YYYY/MM/DD at the edge and as YYYY-MM-DD inside the database. */
export const toDbDate = (d: string | null | undefined) => (d ? d.replaceAll('/', '-') : d)
export const fromDbDate = (d: string | null) => (d ? d.replaceAll('-', '/') : null)
