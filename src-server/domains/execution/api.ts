import {
  BackOnlineInput,
  BackOnlineResult,
  Batch,
  BatchKeyInput,
  BatchSerials,
  CompleteBatchInput,
  CompleteStepInput,
  ComponentBatch,
  ExecutionOutcome,
  HeartbeatInput,
  HeartbeatResult,
  JobActionInput,
  JobKeyInput,
  PAUSE_REASONS,
  PauseJobInput,
  SaveSerialTempLinksInput,
  SaveStepInput,
  StartJobsInput,
  StartJobsResult,
  WorkSessionView,
} from '../../../src/domains/execution/schemas'
import type { Access } from '../../auth/authorize'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { getBatchSerials, saveSerialTempLinks } from './batch-serials'
import { completeBatch, componentBatch, getBatch } from './batches'
import { heartbeat } from './heartbeat'
import { backOnline } from './offline'
import { newBatch, pauseJob, resumeJob, startJobs } from './start-pause'
import { completeStep, saveStep } from './steps'
import { workSession } from './work-session'

/** Who reads execution data: operators (their own and unassigned jobs; the service checks) and production. */
const read: Access = { scope: ['operator', 'production'] }
/** Operator writes (each with its idempotency_key). */
const write: Access = { scope: 'operator' }
/** `/job/{key}/...` and `/batch/{key}/...` name the job or the batch. */
const jobPath = { key: 'job_key' }
const batchPath = { key: 'batch_key' }

/**
 * Operator execution: the work session screen over tRPC, and for scripts the SPEC 7 "Jobs" paths
 * plus the documented operator actions. Every write takes an `idempotency_key` (uuid, one per
 * action, the same on a retry).
 */
export const executionApi = useCases('operator execution', {
  workSession: query({
    summary:
      'Everything the work session screen shows: job, work order, product, phase with parameters, steps with definitions, open batch, material, timer; ' +
      'interruption: who paused the stopped job (production) or gave it to another operator, when and why, when that was not the viewer (else null)',
    access: read,
    input: JobKeyInput,
    response: WorkSessionView,
    rest: { method: 'get', path: '/job/{key}/work-session', params: jobPath },
    run: (ctx, input) => workSession(ctx, ctx.actor, input.job_key),
  }),
  start: mutation({
    summary: 'Start (or resume) one or several jobs; several only where parallel_job_allowed holds for every running and started job',
    access: write,
    input: StartJobsInput,
    response: StartJobsResult,
    rest: { method: 'post', path: '/job/start' },
    run: (ctx, input) => startJobs(ctx, ctx.actor, input),
  }),
  startOne: restOnly({
    summary: 'Start one job: opens a work session and a batch (JOB_STARTED, ACTIVE_BATCH_CHANGED)',
    access: write,
    input: JobActionInput,
    response: ExecutionOutcome,
    rest: { method: 'post', path: '/job/{key}/start', params: jobPath },
    run: async (ctx, { job_key, idempotency_key }) => (await startJobs(ctx, ctx.actor, { job_keys: [job_key], idempotency_key })).jobs[0],
  }),
  resume: mutation({
    summary: 'Resume a paused job: a new work session; the open batch continues, or a new one opens (JOB_RESUMED)',
    access: write,
    input: JobActionInput,
    response: ExecutionOutcome,
    rest: { method: 'post', path: '/job/{key}/resume', params: jobPath },
    run: (ctx, input) => resumeJob(ctx, ctx.actor, input),
  }),
  pause: mutation({
    summary: `Pause a running job: the work session ends, the open batch stays open (JOB_PAUSED); reason: ${PAUSE_REASONS.join(', ')}`,
    access: write,
    input: PauseJobInput,
    response: ExecutionOutcome,
    rest: { method: 'post', path: '/job/{key}/pause', params: jobPath },
    run: (ctx, input) => pauseJob(ctx, ctx.actor, input),
  }),
  newBatch: mutation({
    summary: 'Open the next batch of a running job without an open batch (auto_new_batch off, or material arrived)',
    access: write,
    input: JobActionInput,
    response: ExecutionOutcome,
    rest: { method: 'post', path: '/job/{key}/batch', params: jobPath },
    run: (ctx, input) => newBatch(ctx, ctx.actor, input),
  }),
  heartbeat: restOnly({
    summary: "The running operator's client is alive (every 10 s); not user activity. running=false: stop (reason says why)",
    // Answers while the session is locked (the lock is set by authorize() before the call).
    access: { scope: 'operator', whileLocked: true, notActivity: true },
    input: HeartbeatInput,
    response: HeartbeatResult,
    rest: { method: 'post', path: '/job/{key}/heartbeat', params: jobPath },
    run: (ctx, input) => heartbeat(ctx, ctx.actor, input, { sessionLocked: ctx.auth.via === 'session' && ctx.auth.session.locked }),
  }),
  backOnline: mutation({
    summary:
      'The client is back online after closing the work session offline: one BACK_ONLINE per offline period (recorded=false: already ' +
      'reported, by this call or a heartbeat); a job still running but silent past max_offline is force-paused first. offline_since: ' +
      'the server time (UTC ms) of the last answered heartbeat; more than 60 s ahead of the server clock is refused (400 OFFLINE_SINCE_IN_FUTURE)',
    access: write,
    input: BackOnlineInput,
    response: BackOnlineResult,
    rest: { method: 'post', path: '/job/{key}/back-online', params: jobPath },
    run: (ctx, input) => backOnline(ctx, ctx.actor, input),
  }),
  batch: query({
    summary: 'A batch with its step data (SPEC 3 Batch)',
    access: read,
    input: BatchKeyInput,
    response: Batch,
    rest: { method: 'get', path: '/batch/{key}', params: batchPath },
    run: (ctx, input) => getBatch(ctx, ctx.actor, input.batch_key),
  }),
  batchSerials: query({
    summary:
      "The batch's pieces with the serials declared in them: each piece's serial (temporary until the batch completes), data by serial field key and component serials; " +
      'the components to scan per piece, the serial fields, the counter (null: codes are typed) and whether every piece is declared (complete)',
    access: read,
    input: BatchKeyInput,
    response: BatchSerials,
    rest: { method: 'get', path: '/batch/{key}/serials', params: batchPath },
    run: (ctx, input) => getBatchSerials(ctx, ctx.actor, input.batch_key),
  }),
  saveSerialTempLinks: mutation({
    summary:
      'Declare the serials of pieces of the open batch (the job\'s operator, job running), traceability level complete: per piece its serial_code ' +
      '(phases without a counter; with one the counter numbers it, 422 COUNTER_NOT_DEFINED otherwise), data by serial field key, and links ' +
      '[{component_key, child_serial_code, confirm_move?, confirm_not_in_stock?}] replacing its temporary links. Refusals write nothing: 409 SERIAL_NEW_ALREADY_PRESENT / ' +
      'SERIAL_ALREADY_PRESENT (code used), 409 SERIAL_ALREADY_LINKED (inside another serial: send confirm_move), 409 SERIAL_NOT_IN_STOCK ' +
      '(inventory management on and a newly linked component serial in no stock position, named in `serials`: send confirm_not_in_stock to link it without inventory movements), 422 SERIAL_WRONG_PRODUCT, ' +
      '422 SERIAL_LINK_CYCLE, 400 SERIAL_SCANNED_TWICE / SERIAL_DECLARATION_INVALID / SERIAL_CODE_INVALID. Pieces not listed stay as they are',
    access: write,
    input: SaveSerialTempLinksInput,
    response: BatchSerials,
    rest: { method: 'put', path: '/batch/{key}/serial-temp-links', params: batchPath, body: 'pieces' },
    run: (ctx, input) => saveSerialTempLinks(ctx, ctx.actor, input),
  }),
  componentBatch: query({
    summary: 'Components of the phase with the quantities this batch consumes',
    access: read,
    input: BatchKeyInput,
    response: ComponentBatch,
    rest: { method: 'get', path: '/component-batch' },
    run: (ctx, input) => componentBatch(ctx, ctx.actor, input.batch_key),
  }),
  saveStep: mutation({
    summary: "Save a form step's answers (replaced as a whole) while the batch is open (STEP_EDITED)",
    access: write,
    input: SaveStepInput,
    response: ExecutionOutcome,
    rest: { method: 'put', path: '/batch/{key}/steps/{step_key}', params: batchPath },
    run: (ctx, input) => saveStep(ctx, ctx.actor, input),
  }),
  completeStep: mutation({
    summary: 'Complete a step (form_data, when sent, is saved first); the last step completes the batch. 409 STEP_ALREADY_DONE if done meanwhile',
    access: write,
    input: CompleteStepInput,
    response: ExecutionOutcome,
    rest: { method: 'post', path: '/batch/{key}/steps/{step_key}/complete', params: batchPath },
    run: (ctx, input) => completeStep(ctx, ctx.actor, input, ctx.client.ip),
  }),
  completeBatch: mutation({
    summary:
      'Complete the whole batch (phases with step_check false: the steps complete with it); `scrapped_qt`: how many of its pieces are scrap (default 0, at most qt_total)',
    access: write,
    input: CompleteBatchInput,
    response: ExecutionOutcome,
    rest: { method: 'post', path: '/batch/{key}/complete', params: batchPath },
    run: (ctx, input) => completeBatch(ctx, ctx.actor, input),
  }),
})
