import * as v from 'valibot'
import {
  CompleteBatchInput,
  BackOnlineResult,
  Batch,
  BatchKey,
  BatchSerials,
  ComponentBatch,
  ExecutionOutcome,
  FormDataInput,
  HeartbeatResult,
  IdempotencyKey,
  JobKey,
  PAUSE_REASONS,
  BatchSerialsInput,
  StartJobsInput,
  StartJobsResult,
  StepKey,
  WorkSessionView,
} from '../../../src/domains/execution/schemas'
import { route } from '../../rest/route'
import * as execution from './service'
import { EXECUTION_READ, EXECUTION_WRITE, HEARTBEAT_ACCESS, sessionLocked } from './trpc'

/**
 * Operator execution over REST (SPEC 7 "Jobs" paths plus the documented operator actions), for
 * scripts. Same service functions as the tRPC router `execution`. Every write takes an
 * `idempotency_key` (uuid, one per action, the same on a retry).
 */
const tag = 'operator execution'
const JobParams = v.object({ key: JobKey })
const BatchParams = v.object({ key: BatchKey })
const StepParams = v.object({ key: BatchKey, step_key: StepKey })
const Idempotent = v.object({ idempotency_key: IdempotencyKey })

export const executionRoutes = [
  route({
    method: 'get',
    path: '/job/{key}/work-session',
    tag,
    summary: 'Everything the work session screen shows: job, work order, product, phase with parameters, steps with definitions, open batch, material, timer',
    access: EXECUTION_READ,
    params: JobParams,
    response: WorkSessionView,
    handler: (ctx, { params }) => execution.workSession(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/job/start',
    tag,
    summary: 'Start (or resume) one or several jobs; several only where parallel_job_allowed holds for every running and started job',
    access: EXECUTION_WRITE,
    body: StartJobsInput,
    response: StartJobsResult,
    handler: (ctx, { body }) => execution.startJobs(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/job/{key}/start',
    tag,
    summary: 'Start one job: opens a work session and a batch (JOB_STARTED, ACTIVE_BATCH_CHANGED)',
    access: EXECUTION_WRITE,
    params: JobParams,
    body: Idempotent,
    response: ExecutionOutcome,
    handler: async (ctx, { params, body }) =>
      (await execution.startJobs(ctx, ctx.actor!, { job_keys: [params.key], idempotency_key: body.idempotency_key })).jobs[0],
  }),
  route({
    method: 'post',
    path: '/job/{key}/resume',
    tag,
    summary: 'Resume a paused job: a new work session; the open batch continues, or a new one opens (JOB_RESUMED)',
    access: EXECUTION_WRITE,
    params: JobParams,
    body: Idempotent,
    response: ExecutionOutcome,
    handler: (ctx, { params, body }) => execution.resumeJob(ctx, ctx.actor!, { job_key: params.key, idempotency_key: body.idempotency_key }),
  }),
  route({
    method: 'post',
    path: '/job/{key}/pause',
    tag,
    summary: `Pause a running job: the work session ends, the open batch stays open (JOB_PAUSED); reason: ${PAUSE_REASONS.join(', ')}`,
    access: EXECUTION_WRITE,
    params: JobParams,
    body: v.object({ idempotency_key: IdempotencyKey, reason: v.optional(v.picklist(PAUSE_REASONS)) }),
    response: ExecutionOutcome,
    handler: (ctx, { params, body }) => execution.pauseJob(ctx, ctx.actor!, { job_key: params.key, ...body }),
  }),
  route({
    method: 'post',
    path: '/job/{key}/batch',
    tag,
    summary: 'Open the next batch of a running job without an open batch (auto_new_batch off, or material arrived)',
    access: EXECUTION_WRITE,
    params: JobParams,
    body: Idempotent,
    response: ExecutionOutcome,
    handler: (ctx, { params, body }) => execution.newBatch(ctx, ctx.actor!, { job_key: params.key, idempotency_key: body.idempotency_key }),
  }),
  route({
    method: 'post',
    path: '/job/{key}/heartbeat',
    tag,
    summary: "The running operator's client is alive (every 10 s); not user activity. running=false: stop (reason says why)",
    access: HEARTBEAT_ACCESS,
    params: JobParams,
    response: HeartbeatResult,
    handler: (ctx, { params }) => execution.heartbeat(ctx, ctx.actor!, { job_key: params.key }, { sessionLocked: sessionLocked(ctx.auth) }),
  }),
  route({
    method: 'post',
    path: '/job/{key}/back-online',
    tag,
    summary:
      'The client is back online after closing the work session offline: one BACK_ONLINE per offline period (recorded=false: already ' +
      'reported, by this call or a heartbeat); a job still running but silent past max_offline is force-paused first. offline_since: ' +
      'the server time (UTC ms) of the last answered heartbeat; more than 60 s ahead of the server clock is refused (400 OFFLINE_SINCE_IN_FUTURE)',
    access: EXECUTION_WRITE,
    params: JobParams,
    body: v.object({ idempotency_key: IdempotencyKey, offline_since: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) }),
    response: BackOnlineResult,
    handler: (ctx, { params, body }) => execution.backOnline(ctx, ctx.actor!, { job_key: params.key, ...body }),
  }),
  route({
    method: 'get',
    path: '/batch/{key}',
    tag,
    summary: 'A batch with its step data (SPEC 3 Batch)',
    access: EXECUTION_READ,
    params: BatchParams,
    response: Batch,
    handler: (ctx, { params }) => execution.getBatch(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'get',
    path: '/batch/{key}/serials',
    tag,
    summary:
      "The batch's pieces with the serials declared in them: each piece's serial (temporary until the batch completes), data by serial field key and component serials; " +
      'the components to scan per piece, the serial fields, the counter (null: codes are typed) and whether every piece is declared (complete)',
    access: EXECUTION_READ,
    params: BatchParams,
    response: BatchSerials,
    handler: (ctx, { params }) => execution.getBatchSerials(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'put',
    path: '/batch/{key}/serial-temp-links',
    tag,
    summary:
      'Declare the serials of pieces of the open batch (the job\'s operator, job running), traceability level complete: per piece its serial_code ' +
      '(phases without a counter; with one the counter numbers it, 422 COUNTER_NOT_DEFINED otherwise), data by serial field key, and links ' +
      '[{component_key, child_serial_code, confirm_move?, confirm_not_in_stock?}] replacing its temporary links. Refusals write nothing: 409 SERIAL_NEW_ALREADY_PRESENT / ' +
      'SERIAL_ALREADY_PRESENT (code used), 409 SERIAL_ALREADY_LINKED (inside another serial: send confirm_move), 409 SERIAL_NOT_IN_STOCK ' +
      '(inventory management on and a newly linked component serial in no stock position, named in `serials`: send confirm_not_in_stock to link it without inventory movements), 422 SERIAL_WRONG_PRODUCT, ' +
      '422 SERIAL_LINK_CYCLE, 400 SERIAL_SCANNED_TWICE / SERIAL_DECLARATION_INVALID / SERIAL_CODE_INVALID. Pieces not listed stay as they are',
    access: EXECUTION_WRITE,
    params: BatchParams,
    body: BatchSerialsInput,
    response: BatchSerials,
    handler: (ctx, { params, body }) => execution.saveSerialTempLinks(ctx, ctx.actor!, { batch_key: params.key, pieces: body }),
  }),
  route({
    method: 'get',
    path: '/component-batch',
    tag,
    summary: 'Components of the phase with the quantities this batch consumes',
    access: EXECUTION_READ,
    query: v.object({ batch_key: BatchKey }),
    response: ComponentBatch,
    handler: (ctx, { query }) => execution.componentBatch(ctx, ctx.actor!, query.batch_key),
  }),
  route({
    method: 'put',
    path: '/batch/{key}/steps/{step_key}',
    tag,
    summary: "Save a form step's answers (replaced as a whole) while the batch is open (STEP_EDITED)",
    access: EXECUTION_WRITE,
    params: StepParams,
    body: v.object({ form_data: FormDataInput, idempotency_key: IdempotencyKey }),
    response: ExecutionOutcome,
    handler: (ctx, { params, body }) => execution.saveStep(ctx, ctx.actor!, { batch_key: params.key, step_key: params.step_key, ...body }),
  }),
  route({
    method: 'post',
    path: '/batch/{key}/steps/{step_key}/complete',
    tag,
    summary: 'Complete a step (form_data, when sent, is saved first); the last step completes the batch. 409 STEP_ALREADY_DONE if done meanwhile',
    access: EXECUTION_WRITE,
    params: StepParams,
    body: v.object({ form_data: v.optional(FormDataInput), idempotency_key: IdempotencyKey }),
    response: ExecutionOutcome,
    handler: (ctx, { params, body }) => execution.completeStep(ctx, ctx.actor!, { batch_key: params.key, step_key: params.step_key, ...body }),
  }),
  route({
    method: 'post',
    path: '/batch/{key}/complete',
    tag,
    summary:
      'Complete the whole batch (phases with step_check false: the steps complete with it); `scrapped_qt`: how many of its pieces are scrap (default 0, at most qt_total)',
    access: EXECUTION_WRITE,
    params: BatchParams,
    body: v.object({ ...Idempotent.entries, scrapped_qt: CompleteBatchInput.entries.scrapped_qt }),
    response: ExecutionOutcome,
    handler: (ctx, { params, body }) =>
      execution.completeBatch(ctx, ctx.actor!, { batch_key: params.key, idempotency_key: body.idempotency_key, scrapped_qt: body.scrapped_qt }),
  }),
]
