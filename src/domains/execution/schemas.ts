import * as v from 'valibot'
import { FIELD_TYPES } from '../form-fields/schemas'
import { PhaseParameters } from '../process/phase-parameters'
import { STEP_TYPES, StepSignature } from '../process/steps'
import { QUANTITY_PER, TRACEABILITY_LEVELS } from '../products/bom'
import { RevisionRef } from '../revisions/schemas'
import { SignatureInput } from '../signatures/schemas'
import { BatchSerialsInput } from '../serials/batch-serials'
import { START_BLOCKERS } from './rules'

/**
 * Operator execution (issue 6): the contract between the operator screens, scripts (REST) and
 * the execution service. Keys: a job's `_key` is its id, a batch's `_key` its id, a step's
 * `_key` the step key of the phase (the job's `step_sequence`).
 *
 * Every operator write carries an `idempotency_key` (a uuid made by the client per action, kept
 * across retries): a retry with the same key answers the first outcome again without a second
 * effect. Times are UTC milliseconds.
 *
 * tRPC router `execution`                       REST (SPEC 7 paths first)
 *   workSession({job_key})         query         GET  /job/{id}/work-session
 *   batch({batch_key})             query         GET  /batch/{key}
 *   batchSerials({batch_key})      query         GET  /batch/{key}/serials
 *   componentBatch({batch_key})    query         GET  /component-batch?batch_key=
 *   saveSerialTempLinks(...)       mutation      PUT  /batch/{key}/serial-temp-links   (body: the array of pieces with their links)
 *   start({job_keys, ...})         mutation      POST /job/start, POST /job/{id}/start
 *   resume({job_key, ...})         mutation      POST /job/{id}/resume
 *   pause({job_key, reason, ...})  mutation      POST /job/{id}/pause
 *   newBatch({job_key, ...})       mutation      POST /job/{id}/batch
 *   heartbeat({job_key})           mutation      POST /job/{id}/heartbeat
 *   backOnline({job_key, ...})     mutation      POST /job/{id}/back-online
 *   saveStep({batch_key, step_key, form_data, ...})      PUT  /batch/{key}/steps/{step_key}
 *   completeStep({batch_key, step_key, form_data?, ...}) POST /batch/{key}/steps/{step_key}/complete
 *   completeBatch({batch_key, ...})                      POST /batch/{key}/complete
 */

export const IdempotencyKey = v.pipe(v.string(), v.uuid('idempotency_key must be a uuid'))
/**
 * When a write kept offline was made (UTC ms, the server's clock as the client reckons it);
 * omitted = now. Checked against the phase's max_offline (rules.ts clientTimeProblem), or against
 * the pause point of a job force-paused for silence meanwhile (pausedWriteProblem), and recorded
 * in the write's events as `client_time`.
 */
export const ClientTime = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)))
export const JobKey = v.pipe(v.string(), v.uuid('job_key must be a job key'))
export const BatchKey = v.pipe(v.string(), v.uuid('batch_key must be a batch key'))
export const StepKey = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'step_key must be a step key'))

// ---------------------------------------------------------------------------------------------
// Form data of a step

/**
 * One answer of a form step. `value` by field type (see products/metadata.ts, the same rule):
 * text string, number, boolean true/false, ternary 'true'|'false'|'na', choice one of the
 * options, date 'YYYY-MM-DD', time 'HH:MM', files an array of stored file names; a `multiple`
 * field takes an array. null, '' and [] mean "not filled".
 */
export const FORM_TEXT_MAX = 5000
export const FORM_VALUES_MAX = 100
export const FormValue = v.union(
  [
    v.null(),
    v.boolean(),
    v.pipe(v.number(), v.finite()),
    v.pipe(v.string(), v.maxLength(FORM_TEXT_MAX)),
    v.pipe(v.array(v.union([v.pipe(v.string(), v.maxLength(FORM_TEXT_MAX)), v.pipe(v.number(), v.finite())])), v.maxLength(FORM_VALUES_MAX)),
  ],
  'value must be null, true/false, a number, text or a list',
)
export type FormValue = v.InferOutput<typeof FormValue>

export const FormDataEntry = v.object({
  field_key: v.pipe(v.string(), v.uuid('field_key must be a form field key')),
  value: FormValue,
})
export type FormDataEntry = v.InferOutput<typeof FormDataEntry>
export const FormDataInput = v.pipe(v.array(FormDataEntry), v.maxLength(100, 'at most 100 answers'))

// ---------------------------------------------------------------------------------------------
// Inputs

export const StartJobsInput = v.object({
  /** One job, or several where parallel_job_allowed holds for every running and started job. */
  job_keys: v.pipe(v.array(JobKey), v.minLength(1, 'choose at least one job'), v.maxLength(20, 'at most 20 jobs at once')),
  idempotency_key: IdempotencyKey,
})
export type StartJobsInput = v.InferOutput<typeof StartJobsInput>

export const JobActionInput = v.object({ job_key: JobKey, idempotency_key: IdempotencyKey })
export type JobActionInput = v.InferOutput<typeof JobActionInput>

/**
 * Why a job pauses: the operator's button ('user'), no material left for the next piece and
 * the operator chose to pause ('no_material'), or ended the work session ('end_session'),
 * leaving the work-session page ('leave_page').
 */
export const PAUSE_REASONS = ['user', 'no_material', 'end_session', 'leave_page'] as const
export type PauseReason = (typeof PAUSE_REASONS)[number]
export const PauseJobInput = v.object({
  job_key: JobKey,
  idempotency_key: IdempotencyKey,
  reason: v.optional(v.picklist(PAUSE_REASONS, `reason must be one of ${PAUSE_REASONS.join(', ')}`)),
  client_time: ClientTime,
})
export type PauseJobInput = v.InferOutput<typeof PauseJobInput>

export const HeartbeatInput = v.object({ job_key: JobKey })
export type HeartbeatInput = v.InferOutput<typeof HeartbeatInput>

/** The client noticed it is back online (it may say since when it was offline). */
export const BackOnlineInput = v.object({
  job_key: JobKey,
  idempotency_key: IdempotencyKey,
  offline_since: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
})
export type BackOnlineInput = v.InferOutput<typeof BackOnlineInput>

/** Saves (replaces) the answers of a form step; allowed until the batch completes (STEP_EDITED). */
export const SaveStepInput = v.object({
  batch_key: BatchKey,
  step_key: StepKey,
  form_data: FormDataInput,
  idempotency_key: IdempotencyKey,
  client_time: ClientTime,
})
export type SaveStepInput = v.InferOutput<typeof SaveStepInput>

/**
 * Completes a step; `form_data`, when sent, is saved first (same rules as SaveStepInput).
 * `signature`: required when the step's definition requires one (issue 22): the operator's
 * password, and the second signer's username and password when it names one.
 */
export const CompleteStepInput = v.object({
  batch_key: BatchKey,
  step_key: StepKey,
  form_data: v.optional(FormDataInput),
  signature: v.optional(SignatureInput),
  idempotency_key: IdempotencyKey,
  client_time: ClientTime,
})
export type CompleteStepInput = v.InferOutput<typeof CompleteStepInput>

/** Completes the whole batch at once: for phases with step_check false (no confirmation per step). */
/** `scrapped_qt`: of the batch's pieces, how many are scrap (reports: OEE quality); at most qt_total, checked by the service. */
export const CompleteBatchInput = v.object({
  batch_key: BatchKey,
  idempotency_key: IdempotencyKey,
  scrapped_qt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000))),
  client_time: ClientTime,
})
export type CompleteBatchInput = v.InferOutput<typeof CompleteBatchInput>

export const BatchKeyInput = v.object({ batch_key: BatchKey })
export const JobKeyInput = v.object({ job_key: JobKey })

/**
 * Serials declared in a batch (`batchSerials`, `saveSerialTempLinks`): the shapes live with the
 * serials domain (src/domains/serials/batch-serials.ts).
 */
export { BatchSerials, BatchSerialsInput } from '../serials/batch-serials'

/**
 * `PUT batch/{key}/serial-temp-links`: the body is `pieces`; `idempotency_key` and `client_time`
 * travel in the query string (a declaration is kept offline like the steps, issue 24).
 */
export const SaveSerialTempLinksInput = v.object({
  batch_key: BatchKey,
  pieces: BatchSerialsInput,
  idempotency_key: IdempotencyKey,
  client_time: ClientTime,
})
export type SaveSerialTempLinksInput = v.InferOutput<typeof SaveSerialTempLinksInput>

// ---------------------------------------------------------------------------------------------
// Outputs

export const JOB_STATUSES = ['queued', 'started', 'paused', 'closed'] as const
export const BATCH_STATUSES = ['open', 'completed', 'cancelled'] as const

/** A job's execution state after an action (and in the work session view). */
export const JobState = v.object({
  _key: v.string(),
  status: v.picklist(JOB_STATUSES),
  /** Running now: an open work session. */
  active: v.boolean(),
  quantity: v.number(),
  completed_qt: v.number(),
  /** Pieces in the open batch. */
  active_qt: v.number(),
  /** Pieces released downstream. */
  released_qt: v.number(),
  /** quantity - completed - active. */
  remaining_qt: v.number(),
  /** Material this job may still take into a batch (released upstream, not taken). */
  available_qt: v.number(),
  active_batch_key: v.nullable(v.string()),
  /** The open work session, when the job runs. */
  work_session_key: v.nullable(v.string()),
  /** Force-paused because its heartbeat went silent longer than max_offline. */
  paused_offline: v.boolean(),
  time_spent_ms: v.number(),
  operator_key: v.nullable(v.string()),
})
export type JobState = v.InferOutput<typeof JobState>

/** SPEC 3 Batch step data. */
export const StepData = v.object({
  _key: v.string(),
  type: v.picklist(STEP_TYPES),
  position: v.number(),
  done: v.boolean(),
  critical: v.boolean(),
  form_data: v.array(FormDataEntry),
  execution_record_key: v.nullable(v.string()),
  done_by: v.nullable(v.string()),
  done_at: v.nullable(v.number()),
})
export type StepData = v.InferOutput<typeof StepData>

/** SPEC 3 Batch. */
export const Batch = v.object({
  _key: v.string(),
  job_key: v.string(),
  /** 1 for the job's first batch, then 2, 3 ... */
  number: v.number(),
  qt_total: v.number(),
  status: v.picklist(BATCH_STATUSES),
  opened_at: v.number(),
  completed_at: v.nullable(v.number()),
  step_data: v.array(StepData),
})
export type Batch = v.InferOutput<typeof Batch>

/** One component consumed by a completed batch (recorded in BATCH_COMPLETED). */
export const Consumption = v.object({
  item_key: v.string(),
  item_code: v.string(),
  quantity: v.number(),
  quantity_per: v.picklist(QUANTITY_PER),
})
export type Consumption = v.InferOutput<typeof Consumption>

export const CompletedBatch = v.object({
  _key: v.string(),
  qt_total: v.number(),
  consumed: v.array(Consumption),
  /** Pieces released downstream by this completion (and by the job closing, if it closed). */
  released_qt: v.number(),
})
export type CompletedBatch = v.InferOutput<typeof CompletedBatch>

/**
 * What the operator screen does next:
 * - continue: keep working on the open batch
 * - batch_opened: a batch completed and the next one opened by itself (auto_new_batch)
 * - await_new_batch: a batch completed, material is there, the operator opens the next batch (`newBatch`)
 * - no_material: no material left for the next piece: ask the operator to pause or end the session (`pause` with reason no_material / end_session)
 * - job_closed: the job's quantity is done; it closed ('redirecting' back to select-job)
 * - paused: the job is paused
 */
export const NEXT_STEPS = ['continue', 'batch_opened', 'await_new_batch', 'no_material', 'job_closed', 'paused'] as const
export type NextStep = (typeof NEXT_STEPS)[number]

/** What the caller may do on the job now (the server checks again when it is done). */
export const JobActions = v.object({
  start: v.boolean(),
  /** Why `start` is false (null when it is true): the operator's screens say it in words. */
  start_blocked: v.nullable(v.picklist(START_BLOCKERS)),
  pause: v.boolean(),
  new_batch: v.boolean(),
  complete_batch: v.boolean(),
})
export type JobActions = v.InferOutput<typeof JobActions>

/** The answer of every operator write on a job or batch. */
export const ExecutionOutcome = v.object({
  job: JobState,
  /** The job's open batch after the action (null: none open). */
  batch: v.nullable(Batch),
  /** Set when this action completed a batch. */
  completed_batch: v.nullable(CompletedBatch),
  next: v.picklist(NEXT_STEPS),
  /** The acting operator's next possible actions, by the same rule as the work session view. */
  can: JobActions,
})
export type ExecutionOutcome = v.InferOutput<typeof ExecutionOutcome>

export const StartJobsResult = v.object({ jobs: v.array(ExecutionOutcome) })
export type StartJobsResult = v.InferOutput<typeof StartJobsResult>

export const HEARTBEAT_STOP_REASONS = ['queued', 'paused', 'paused_offline', 'closed', 'session_locked'] as const
export const HeartbeatResult = v.object({
  job_key: v.string(),
  /** False: stop the heartbeat (the job is not running; `reason` says why). */
  running: v.boolean(),
  reason: v.nullable(v.picklist(HEARTBEAT_STOP_REASONS)),
  /** This heartbeat ended a silence (recorded as BACK_ONLINE). */
  back_online: v.boolean(),
  server_time: v.number(),
})
export type HeartbeatResult = v.InferOutput<typeof HeartbeatResult>

export const BackOnlineResult = v.object({ job: JobState, recorded: v.boolean() })
export type BackOnlineResult = v.InferOutput<typeof BackOnlineResult>

export const ComponentBatchLine = v.object({
  /** The bom line. */
  _key: v.string(),
  item_key: v.string(),
  item_code: v.string(),
  item_description: v.string(),
  quantity: v.number(),
  quantity_per: v.picklist(QUANTITY_PER),
  traceability: v.picklist(TRACEABILITY_LEVELS),
  /** The operator scans this component's serials into each piece (phase level complete). */
  declared_serials: v.boolean(),
  /** Quantity this batch consumes (per job lines: with the job's first batch only). */
  batch_quantity: v.number(),
})
export const ComponentBatch = v.object({
  batch_key: v.string(),
  phase_key: v.string(),
  qt_total: v.number(),
  components: v.array(ComponentBatchLine),
})
export type ComponentBatch = v.InferOutput<typeof ComponentBatch>

// ---------------------------------------------------------------------------------------------
// The work session screen (operator/job/:jobKey)

export const FieldDefinition = v.object({
  _key: v.string(),
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  options: v.array(v.string()),
  multiple: v.boolean(),
  mandatory: v.boolean(),
  help_text: v.string(),
})
export type FieldDefinition = v.InferOutput<typeof FieldDefinition>

export const StepMedia = v.object({
  _key: v.string(),
  filename: v.string(),
  content_type: v.string(),
  /** `/media/{key}` */
  url: v.string(),
  /** `/media/step/{step_key}/{filename}` */
  step_url: v.string(),
})

export const StepDefinition = v.object({
  _key: v.string(),
  type: v.picklist(STEP_TYPES),
  title: v.string(),
  text: v.string(),
  media: v.array(StepMedia),
  fields: v.array(FieldDefinition),
  print_templates: v.array(v.string()),
  /** The signature completing this step requires (issue 22); null: none. */
  signature: v.nullable(StepSignature),
})
export type StepDefinition = v.InferOutput<typeof StepDefinition>

/**
 * Production stopped the job or gave it to someone else, and the viewer did not (issue 26): who
 * (full name), when (server time, UTC ms), why (the reason typed, null: none) and, after a
 * reassignment, whose the job is now (null: nobody's). Only the latest such action since the job
 * last ran counts (execution/interruption.ts).
 */
export const INTERRUPTION_KINDS = ['paused', 'reassigned'] as const
export const Interruption = v.object({
  kind: v.picklist(INTERRUPTION_KINDS),
  by_key: v.string(),
  by_name: v.string(),
  at: v.number(),
  reason: v.nullable(v.string()),
  operator_key: v.nullable(v.string()),
  operator_name: v.nullable(v.string()),
})
export type Interruption = v.InferOutput<typeof Interruption>

export const WorkSessionView = v.object({
  job: v.object({
    ...JobState.entries,
    notes: v.string(),
    critical: v.boolean(),
    started_at: v.nullable(v.number()),
    closed_at: v.nullable(v.number()),
    last_heartbeat_at: v.nullable(v.number()),
    /** Batches completed so far. */
    batches_completed: v.number(),
  }),
  work_order: v.object({
    _key: v.string(),
    code: v.string(),
    planned_qt: v.number(),
    completed_qt: v.number(),
    status: v.string(),
    line: v.string(),
    notes: v.string(),
    start_from: v.nullable(v.string()),
    due_by: v.nullable(v.string()),
    /** The released revision the job runs on (its steps, fields and bom come from it). */
    revision: RevisionRef,
  }),
  product: v.object({ _key: v.string(), code: v.string(), description: v.string() }),
  phase: v.object({
    _key: v.string(),
    name: v.string(),
    /** 1-based position in the process. */
    position: v.number(),
    phase_count: v.number(),
    is_last: v.boolean(),
    operation_name: v.string(),
    department_key: v.nullable(v.string()),
    production_notes: v.string(),
    parameters: PhaseParameters,
  }),
  /** Material flow of this phase in the work order. */
  material: v.object({
    released_in_qt: v.number(),
    taken_qt: v.number(),
    completed_qt: v.number(),
    released_out_qt: v.number(),
    /** What this job may take now (= job.available_qt). */
    available_qt: v.number(),
  }),
  /** The job's step_sequence with each step's definition (missing definitions are left out). */
  steps: v.array(StepDefinition),
  batch: v.nullable(Batch),
  work_session: v.nullable(v.object({ _key: v.string(), started_at: v.number(), user_key: v.string() })),
  timer: v.object({
    display_job_timer: v.boolean(),
    /** Worked time: closed work sessions plus the open one up to server_time. */
    elapsed_ms: v.number(),
    /** std_processing_time x job quantity. */
    expected_ms: v.number(),
    /** std_processing_time x pieces of the open batch (0 without a batch). */
    expected_batch_ms: v.number(),
    /** The open session's start, so the client can tick the timer on its own. */
    session_started_at: v.nullable(v.number()),
    server_time: v.number(),
  }),
  can: JobActions,
  /** The job is stopped, and by production, not the viewer: "Resume" asks to confirm, naming who and why. */
  interruption: v.nullable(Interruption),
})
export type WorkSessionView = v.InferOutput<typeof WorkSessionView>
