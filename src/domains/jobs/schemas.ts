import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'
import { PhaseParameters } from '../process/phase-parameters'
import { JOB_CORRECTIONS, JOB_FILTERS, JOB_STATUSES, type JobFilter } from './rules'
import { SignatureInput } from '../signatures/schemas'

/**
 * The job contract (SPEC 3 Job, Job assignment; SPEC 4 filters and corrections; SPEC 5
 * rebalancing; SPEC 7 Jobs). Field rules with their own SPEC messages (quantities mismatch,
 * new jobs need an operator, ...) are checked by the service with their own codes.
 */

const Uuid = (what: string) => v.pipe(v.string(), v.uuid(`${what} must be a valid key`))
/** Upper bounds only keep nonsense out (the columns are 32-bit integers). */
export const MAX_JOB_QUANTITY = 10_000_000
/** Ten years of work. */
export const MAX_TIME_SPENT_MS = 10 * 366 * 24 * 3_600_000
const Quantity = v.pipe(v.number(), v.integer('quantities are whole numbers'), v.minValue(0, 'quantities must be >= 0'), v.maxValue(MAX_JOB_QUANTITY))

export const JOB_PAGE_SIZE_DEFAULT = 50
export const JOB_PAGE_SIZE_MAX = 200

/** A keyset cursor: the (work order sequence, phase position, job key) of the last row of a page. */
const Cursor = v.pipe(v.string(), v.maxLength(200), v.regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid'))

/** `jobs.list`, `GET job`. Jobs come in site queue order (work order sequence, phase position, key). */
export const JobListInput = v.object({
  /** SPEC 4 filters, combined with AND: a list, or comma-separated text as a query string holds them (`GET job?filters=late,assigned`). */
  filters: v.optional(
    v.pipe(
      v.union([v.pipe(v.string(), v.maxLength(300)), v.array(v.string())]),
      v.transform((f) => (typeof f === 'string' ? f.split(',').map((x) => x.trim()).filter(Boolean) : f)),
      v.array(v.picklist(JOB_FILTERS, 'unknown job filter')),
      v.maxLength(JOB_FILTERS.length),
    ),
  ),
  department_key: v.optional(Uuid('department_key')),
  operator_key: v.optional(Uuid('operator_key')),
  work_order_key: v.optional(Uuid('work_order_key')),
  phase_key: v.optional(Uuid('phase_key')),
  product_key: v.optional(Uuid('product_key')),
  /** Words matched against work order code, product code, phase name and operator (each word must match one). */
  search: v.optional(v.pipe(v.string(), StorableText, v.trim(), v.maxLength(100))),
  /** Closed jobs are left out unless asked for (or a work order is named). */
  include_closed: v.optional(v.boolean()),
  cursor: v.optional(Cursor),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(JOB_PAGE_SIZE_MAX))),
})
export type JobListInput = v.InferOutput<typeof JobListInput>

export const JobStatusSchema = v.picklist(JOB_STATUSES)

/** A job as lists show it: one row, joined in one query. Times in UTC milliseconds, dates 'YYYY-MM-DD'. */
export const JobRow = v.object({
  _key: v.string(),
  status: JobStatusSchema,
  /** Running now (an open work session). */
  active: v.boolean(),
  quantity: v.number(),
  completed_qt: v.number(),
  active_qt: v.number(),
  remaining_qt: v.number(),
  /** Material the job may take now (0 when closed). */
  available_qt: v.number(),
  ready: v.boolean(),
  /** The job or its work order is critical. */
  critical: v.boolean(),
  /** The phase lets an operator run this job together with others (phase parameter). */
  parallel_job_allowed: v.boolean(),
  late: v.boolean(),
  operator_key: v.nullable(v.string()),
  operator_username: v.nullable(v.string()),
  operator_name: v.nullable(v.string()),
  work_order_key: v.string(),
  work_order_code: v.string(),
  work_order_sequence: v.number(),
  due_by: v.nullable(v.string()),
  product_key: v.string(),
  product_code: v.string(),
  /** The number of the released revision the job's work order runs on. */
  revision_number: v.number(),
  phase_key: v.string(),
  phase_name: v.string(),
  phase_position: v.number(),
  department_key: v.nullable(v.string()),
  department_name: v.nullable(v.string()),
  queue_position: v.nullable(v.number()),
  time_spent_ms: v.number(),
  started_at: v.nullable(v.number()),
  closed_at: v.nullable(v.number()),
})
export type JobRow = v.InferOutput<typeof JobRow>

export const JobPage = v.object({
  rows: v.array(JobRow),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: v.nullable(v.string()),
})
export type JobPage = v.InferOutput<typeof JobPage>

export const StepRef = v.object({ _key: v.string(), type: v.picklist(['instruction', 'form']) })

/** `GET job/{id}`: the row plus what the work session and the correction menu need. */
export const JobDetail = v.object({
  ...JobRow.entries,
  step_sequence: v.array(StepRef),
  notes: v.string(),
  active_batch_key: v.nullable(v.string()),
  /** The phase consumes serial-tracked components: progress cannot be edited by hand. */
  has_traceability: v.boolean(),
  phase: v.object({
    _key: v.string(),
    name: v.string(),
    position: v.number(),
    department_key: v.nullable(v.string()),
    parameters: PhaseParameters,
    production_notes: v.string(),
  }),
  work_order: v.object({
    _key: v.string(),
    code: v.string(),
    planned_qt: v.number(),
    completed_qt: v.number(),
    start_from: v.nullable(v.string()),
    due_by: v.nullable(v.string()),
    line: v.string(),
    status: v.string(),
    critical: v.boolean(),
    notes: v.string(),
  }),
  product: v.object({ _key: v.string(), code: v.string(), description: v.string() }),
  /** The phase's material counters (work_order_phases). */
  material: v.object({
    released_in_qt: v.number(),
    taken_qt: v.number(),
    completed_qt: v.number(),
    released_out_qt: v.number(),
    /** What this job may take now (= available_qt). */
    available_qt: v.number(),
  }),
})
export type JobDetail = v.InferOutput<typeof JobDetail>

/** `jobs.get`, `GET job/{key}`. */
export const JobKeyInput = v.object({ key: Uuid('job key') })

/**
 * Why production paused or reassigned a job, for the operator who finds it so (optional; null or
 * blank: none). The service trims it and checks its length (JOB_REASON_MAX, jobs/shared.ts
 * jobReason): the schema only takes storable text.
 */
export const JOB_REASON_MAX = 200
const JobReason = v.optional(v.nullable(v.pipe(v.string('reason must be text'), StorableText)))

/** `POST job/assign`: one or more jobs to an operator; `operator_key` null unassigns (where settings allow). */
export const AssignInput = v.object({
  job_keys: v.pipe(v.array(Uuid('job key')), v.minLength(1, 'choose at least one job'), v.maxLength(200)),
  operator_key: v.nullable(Uuid('operator_key')),
  reason: JobReason,
})
export type AssignInput = v.InferOutput<typeof AssignInput>

/**
 * `POST job/rebalance` (SPEC 5): the new distribution of one phase of a work order among its
 * jobs. Existing jobs by key (jobs not listed keep their quantity and operator), new jobs without
 * a key. Rules (service, own codes): the phase's sum must stay equal to its current total
 * (QUANTITIES_MISMATCH), new jobs need an operator (NEW_JOBS_NEED_OPERATOR), a job keeps at
 * least its done and active pieces (QUANTITY_BELOW_PROGRESS). Jobs left with nothing to do are
 * removed (never started) or closed; new rows with quantity 0 are ignored.
 */
export const RebalanceInput = v.object({
  work_order_key: Uuid('work_order_key'),
  phase_key: Uuid('phase_key'),
  jobs: v.pipe(
    v.array(
      v.object({
        job_key: v.optional(Uuid('job key')),
        quantity: Quantity,
        operator_key: v.nullable(Uuid('operator_key')),
      }),
    ),
    v.minLength(1, 'list at least one job'),
    v.maxLength(200, 'at most 200 jobs per phase'),
  ),
})
export type RebalanceInput = v.InferOutput<typeof RebalanceInput>

export const RebalanceResult = v.object({ jobs: v.array(JobRow), created: v.array(v.string()), removed: v.array(v.string()), closed: v.array(v.string()) })
export type RebalanceResult = v.InferOutput<typeof RebalanceResult>

/** `POST job/update` (SPEC 4 job actions by production), one correction per call. */
/** A correction's signature, when the settings require corrections to be signed (signature_job_correction). */
const CorrectionSignature = { signature: v.optional(SignatureInput) }
export const JobUpdateInput = v.variant('action', [
  v.object({ job_key: Uuid('job key'), action: v.literal('reset_progress'), ...CorrectionSignature }),
  v.object({ job_key: Uuid('job key'), action: v.literal('cancel_active_pieces'), ...CorrectionSignature }),
  v.object({ job_key: Uuid('job key'), action: v.literal('update_progress'), completed_qt: Quantity, ...CorrectionSignature }),
  v.object({
    job_key: Uuid('job key'),
    action: v.literal('update_times'),
    time_spent_ms: v.pipe(v.number(), v.integer(), v.minValue(0, 'time spent must be >= 0'), v.maxValue(MAX_TIME_SPENT_MS)),
    ...CorrectionSignature,
  }),
  v.object({ job_key: Uuid('job key'), action: v.literal('pause'), reason: JobReason }),
])
export type JobUpdateInput = v.InferOutput<typeof JobUpdateInput>
export const JOB_UPDATE_ACTIONS = JOB_CORRECTIONS

/** An operator jobs can be assigned to: enabled, not archived, with the operator permission. */
export const OperatorRow = v.object({
  _key: v.string(),
  username: v.string(),
  name: v.string(),
  surname: v.string(),
  department_key: v.nullable(v.string()),
  independent: v.boolean(),
})
export type OperatorRow = v.InferOutput<typeof OperatorRow>

export const OperatorListInput = v.object({ department_key: v.optional(Uuid('department_key')) })

/** Jobs per queue returned at most; `more` says some were left out. */
export const MAX_QUEUE_JOBS = 500
/** Jobs per list a `GET job-assignment` answers unless `limit` says otherwise (the first screen). */
export const QUEUE_PAGE_DEFAULT = 50
/** The furthest a queue page may start (offset paging: enough for any real queue, bounded cost). */
export const MAX_QUEUE_OFFSET = 100_000

export const OperatorQueue = v.object({
  operator: OperatorRow,
  /** In queue order: site order, or the operator's own order when independent (the page asked for). */
  jobs: v.array(JobRow),
  /** More jobs follow this page (ask again with `offset` + the jobs shown). */
  more: v.boolean(),
})
export type OperatorQueue = v.InferOutput<typeof OperatorQueue>

/** `GET job-assignment` (SPEC 3 Job assignment). */
export const JobAssignment = v.object({
  assigned_jobs_by_operator: v.array(OperatorQueue),
  unassigned_jobs: v.array(JobRow),
  unassigned_more: v.boolean(),
})
export type JobAssignment = v.InferOutput<typeof JobAssignment>

const QueueLimit = v.optional(v.pipe(v.number(), v.integer('expected a whole number'), v.minValue(0), v.maxValue(MAX_QUEUE_JOBS)))
const QueueOffset = v.optional(v.pipe(v.number(), v.integer('expected a whole number'), v.minValue(0), v.maxValue(MAX_QUEUE_OFFSET)))

/**
 * `GET job-assignment`: `user_key` narrows to one operator. Each list is paged on its own:
 * `limit`/`offset` for the operators' queues (in queue order), `unassigned_limit`/`unassigned_offset`
 * for the unassigned jobs (in site order); each limit defaults to QUEUE_PAGE_DEFAULT, and 0 leaves
 * that list empty (its `more` still says whether it has jobs there).
 */
export const JobAssignmentQuery = v.object({
  user_key: v.optional(Uuid('user_key')),
  limit: QueueLimit,
  offset: QueueOffset,
  unassigned_limit: QueueLimit,
  unassigned_offset: QueueOffset,
})
export type JobAssignmentQuery = v.InferOutput<typeof JobAssignmentQuery>

/** `PUT queue/operator/{key}` (SPEC 7): `independent` and/or `jobs` (the operator's jobs in the wanted order). */
export const OperatorQueueInput = v.object({
  independent: v.optional(v.boolean()),
  jobs: v.optional(v.pipe(v.array(Uuid('job key')), v.maxLength(MAX_QUEUE_JOBS))),
})
export type OperatorQueueInput = v.InferOutput<typeof OperatorQueueInput>

/** `jobs.saveQueue`, `PUT queue/operator/{key}`: the operator, and their queue. */
export const OperatorQueueSaveInput = v.object({ user_key: Uuid('user key'), ...OperatorQueueInput.entries })

/** The filters the job list screens offer, in display order. */
export const JOB_FILTER_ORDER: readonly JobFilter[] = [
  'active',
  'idle',
  'queued',
  'started',
  'assigned',
  'unassigned',
  'ready',
  'not_ready',
  'late',
  'on_time',
  'critical',
  'not_critical',
]
