import { sql, type Updateable } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import {
  BACK_ONLINE_AFTER_MS,
  batchConsumption,
  earlierStepsPending,
  expectedMs,
  nextBatchQt,
  OFFLINE_SINCE_SKEW_MS,
  offlineSessionEnd,
  offlineTooLong,
  parallelAllowed,
  startBlocker,
  workedMs,
} from '../../../src/domains/execution/rules'
import type {
  BackOnlineInput,
  BackOnlineResult,
  Batch,
  BatchSerials,
  CompleteBatchInput,
  CompletedBatch,
  CompleteStepInput,
  ComponentBatch,
  Consumption,
  ExecutionOutcome,
  JobActions,
  FieldDefinition,
  FormDataEntry,
  HeartbeatInput,
  HeartbeatResult,
  JobActionInput,
  JobState,
  NextStep,
  PauseJobInput,
  SaveSerialTempLinksInput,
  SaveStepInput,
  StartJobsInput,
  StartJobsResult,
  StepDefinition,
  WorkSessionView,
} from '../../../src/domains/execution/schemas'
import type { FieldType } from '../../../src/domains/form-fields/schemas'
import { availableQt, isCritical, releaseDue, remainingQt } from '../../../src/domains/jobs/rules'
import { stepMediaUrl } from '../../../src/domains/process/media'
import type { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import type { Step } from '../../../src/domains/process/steps'
import { checkMetadataValue, isEmptyValue } from '../../../src/domains/products/metadata'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import type { JobsTable } from '../../db/schema'
import { conflict, forbidden, notFound, unprocessable, badRequest } from '../../errors'
import { appendEvent } from '../events/service'
import { assertBatchSerialsDeclared, type BatchPlace, readBatchSerials, saveBatchSerials } from '../serials/batch-serials'
import { finalizeBatchSerials } from '../serials/service'
import { invalidField } from '../../input-issues'
import { heartbeatWriter } from './heartbeat-writer'
import { readSettings } from '../settings/queries'
import { refreshWorkOrderProgress } from '../work-orders/progress'
import { moveStockForCompletedBatch } from '../production-stock/service'
import {
  batchPlace,
  fieldDefinitions,
  type JobRow,
  jobPlace,
  jobPlaces,
  lockBatch,
  lockBatchSteps,
  lockJob,
  lockJobs,
  lockAllMaterial,
  lockMaterial,
  type MaterialRow,
  materialOf,
  mediaRows,
  openWorkSession,
  otherRunningPhases,
  type PhaseInfo,
  phaseBomLines,
  phaseInfo,
  phaseInfos,
  readBatch,
  workSessionHead,
} from './queries'

/**
 * The execution engine (issue 6, DOMAIN.md "Running a job" and "Material flow between phases").
 * Every write runs in one transaction: it takes the row locks it needs in the shared order
 * (work_order_phases rows by position, then job rows, then batch and step rows), checks its
 * rules, writes, and appends its events (user, sign-in session, server time) before committing.
 * Operator writes carry an idempotency key, claimed in the same transaction: a retry answers
 * the first outcome; a refused action writes nothing at all (the key included).
 *
 * State machine of a job (jobs.status / jobs.active):
 *   queued --start--> started+active --pause--> paused --resume--> started+active
 *   started+active --(last batch completes: quantity done)--> closed
 *   started+active --(heartbeat silent > max_offline | session locked and unsupervised work not allowed | sign-out)--> paused
 * A paused job keeps its open batch (its pieces stay active); resume continues it. Without an
 * open batch, start/resume/newBatch open one of nextBatchQt pieces (never above the material).
 */

type Svc = Pick<Services, 'db' | 'clock'>

/** How long a retry can still get its first answer back. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000

const jobNotFound = () => notFound('NOT_FOUND', 'job not found')
export const batchNotFound = () => notFound('NOT_FOUND', 'batch not found')
const notYours = () => forbidden('JOB_NOT_YOURS', 'this job is assigned to another operator')
const notRunning = () => conflict('JOB_NOT_RUNNING', 'the job is not running: start or resume it first')
const jobClosed = () => conflict('JOB_CLOSED', 'job closed: redirecting')

const JOB = 'job'

function jobEvent(job: Pick<JobRow, 'id' | 'work_order_id' | 'phase_id'>, event_type: string, data: Record<string, unknown>) {
  return { event_type, subject_type: JOB, subject_key: job.id, data: { work_order_key: job.work_order_id, phase_key: job.phase_id, ...data } }
}

// ---------------------------------------------------------------------------------------------
// Idempotency

/**
 * Runs `fn` in a transaction that first claims the idempotency key. A key already used by this
 * user for this action answers the stored outcome (no second effect); used for another action
 * or by another user: 409 IDEMPOTENCY_KEY_REUSED. A concurrent retry waits on the key's row
 * until the first attempt commits (then answers its outcome) or rolls back (then runs itself).
 */
async function idempotent<T>(svc: Svc, actor: Actor, action: string, key: string, fn: (trx: Db, now: Date) => Promise<T>): Promise<T> {
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({ key, user_id: actor.userId, action, response: 'null', created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst()
    if (!claimed) {
      const prior = await trx.selectFrom('idempotency_keys').select(['user_id', 'action', 'response']).where('key', '=', key).executeTakeFirstOrThrow()
      if (prior.user_id !== actor.userId || prior.action !== action) {
        throw conflict('IDEMPOTENCY_KEY_REUSED', 'this idempotency_key was already used for another action: make a new one per action')
      }
      return prior.response as T
    }
    const result = await fn(trx, now)
    await trx.updateTable('idempotency_keys').set({ response: JSON.stringify(result) }).where('key', '=', key).execute()
    return result
  })
}

// ---------------------------------------------------------------------------------------------
// Shapes

async function jobState(db: Db, job: JobRow, material: Pick<MaterialRow, 'released_in_qt' | 'taken_qt'>): Promise<JobState> {
  const ws = job.active ? await openWorkSession(db, job.id) : undefined
  return jobStateOf(job, material, ws?.id ?? null)
}

function jobStateOf(job: JobRow, material: Pick<MaterialRow, 'released_in_qt' | 'taken_qt'>, workSessionKey: string | null): JobState {
  return {
    _key: job.id,
    status: job.status,
    active: job.active,
    quantity: job.quantity,
    completed_qt: job.completed_qt,
    active_qt: job.active_qt,
    released_qt: job.released_qt,
    remaining_qt: remainingQt(job),
    available_qt: job.status === 'closed' ? 0 : availableQt(job, material),
    active_batch_key: job.active_batch_id,
    work_session_key: workSessionKey,
    paused_offline: job.paused_offline,
    time_spent_ms: job.time_spent_ms,
    operator_key: job.operator_id,
  }
}

async function outcome(
  db: Db,
  job: JobRow,
  material: Pick<MaterialRow, 'released_in_qt' | 'taken_qt'>,
  next: NextStep,
  completed: CompletedBatch | null = null,
): Promise<ExecutionOutcome> {
  const batch = job.active_batch_id ? ((await readBatch(db, job.active_batch_id)) ?? null) : null
  const { parameters } = await phaseInfo(db, job.phase_id)
  // Every write is the job's own operator's (start assigns the job to them).
  const who = { mine: true, mayTake: true, runningElsewhere: await runningElsewhere(db, job) }
  const can = allowedActions(job, batch, parameters, nextBatchQt(parameters.production_batch_qt, job, material), who)
  return { job: await jobState(db, job, material), batch, completed_batch: completed, next, can }
}

/**
 * The phases of the other jobs the job's operator runs, for the parallel rule of `start`; read
 * only when the job could otherwise start (not closed, not running, has an operator).
 */
async function runningElsewhere(db: Db, job: Pick<JobRow, 'id' | 'operator_id' | 'status' | 'active'>): Promise<PhaseParameters[]> {
  if (job.status === 'closed' || job.active || job.operator_id === null) return []
  const rows = await otherRunningPhases(db, job.operator_id, job.id)
  return rows.map((r) => withPhaseDefaults(r.parameters))
}

/** The buttons of the work session: one rule for the view and for the answer of every write. */
function allowedActions(
  job: JobRow,
  batch: Batch | null,
  parameters: PhaseParameters,
  newBatchQt: number,
  who: { mine: boolean; mayTake: boolean; runningElsewhere: readonly PhaseParameters[] },
): JobActions {
  const blocked = startBlocker(
    { status: job.status, active: job.active, has_open_batch: job.active_batch_id !== null, new_batch_qt: newBatchQt, parallel_job_allowed: parameters.parallel_job_allowed },
    { may_take: who.mayTake, running_elsewhere: who.runningElsewhere },
  )
  return {
    start: blocked === null,
    start_blocked: blocked,
    pause: who.mine && job.active,
    new_batch: who.mine && job.active && !batch && newBatchQt > 0,
    complete_batch: who.mine && job.active && batch !== null && (!parameters.step_check || batch.step_data.every((s) => s.done)),
  }
}

// ---------------------------------------------------------------------------------------------
// Building blocks (inside a transaction, rows already locked)

function updateJob(db: Db, id: string, patch: Updateable<JobsTable>, now: Date): Promise<JobRow> {
  return db
    .updateTable('jobs')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

function addMaterial(db: Db, row: MaterialRow, delta: Partial<Record<'released_in_qt' | 'taken_qt' | 'completed_qt' | 'released_out_qt', number>>) {
  return db
    .updateTable('work_order_phases')
    .set((eb) => Object.fromEntries(Object.entries(delta).map(([k, d]) => [k, eb(eb.ref(k as 'taken_qt'), '+', d)])))
    .where('work_order_id', '=', row.work_order_id)
    .where('phase_id', '=', row.phase_id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Opens the job's next batch (nextBatchQt pieces, > 0) with a step row per step of its step_sequence. */
async function openBatch(
  db: Db,
  actor: Actor,
  job: JobRow,
  phase: PhaseInfo,
  material: MaterialRow,
  now: Date,
  previousBatchKey: string | null,
): Promise<{ job: JobRow; material: MaterialRow }> {
  const qt = nextBatchQt(phase.parameters.production_batch_qt, job, material)
  if (qt <= 0) throw new Error('openBatch without material')
  const { n } = await db
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', job.id)
    .executeTakeFirstOrThrow()
  const batch = await db
    .insertInto('batches')
    .values({ job_id: job.id, number: Number(n) + 1, qt_total: qt, opened_by: actor.userId, opened_at: now })
    .returning(['id', 'number'])
    .executeTakeFirstOrThrow()
  if (job.step_sequence.length) {
    await db
      .insertInto('batch_steps')
      .values(job.step_sequence.map((s, i) => ({ batch_id: batch.id, step_key: s._key, position: i, type: s.type, form_data: '[]', updated_at: now })))
      .execute()
  }
  const updated = await updateJob(db, job.id, { active_qt: job.active_qt + qt, active_batch_id: batch.id }, now)
  const mat = await addMaterial(db, material, { taken_qt: qt })
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'ACTIVE_BATCH_CHANGED', { batch_key: batch.id, batch_number: batch.number, previous_batch_key: previousBatchKey, qt_total: qt }),
    now,
  )
  return { job: updated, material: mat }
}

/** Ends the job's open work session (its time counts into time_spent_ms) and stops the job. */
async function stopWork(
  db: Db,
  actor: Actor | null,
  job: JobRow,
  now: Date,
  opts: { status: 'paused' | 'closed'; endReason: string; event: string; data?: Record<string, unknown>; endedAt?: Date; pausedOffline?: boolean },
): Promise<JobRow> {
  const ws = await db.selectFrom('work_sessions').selectAll().where('job_id', '=', job.id).where('ended_at', 'is', null).forUpdate().executeTakeFirst()
  let durationMs = 0
  if (ws) {
    const end = new Date(Math.max(ws.started_at.getTime(), (opts.endedAt ?? now).getTime()))
    durationMs = end.getTime() - ws.started_at.getTime()
    await db.updateTable('work_sessions').set({ ended_at: end, end_reason: opts.endReason }).where('id', '=', ws.id).execute()
  }
  const updated = await updateJob(
    db,
    job.id,
    {
      active: false,
      status: opts.status,
      time_spent_ms: job.time_spent_ms + durationMs,
      paused_offline: opts.pausedOffline ?? false,
      ...(opts.status === 'closed' ? { closed_at: now } : {}),
    },
    now,
  )
  await appendEvent(db, actor, jobEvent(job, opts.event, { work_session_key: ws?.id ?? null, duration_ms: durationMs, reason: opts.endReason, ...opts.data }), now)
  return updated
}

/** Releases `qt` finished pieces downstream: this phase's released_out, the next phase's released_in, the job's released. */
async function release(db: Db, job: JobRow, own: MaterialRow, next: MaterialRow | undefined, qt: number, now: Date) {
  if (qt <= 0) return { job, own, next }
  const updatedJob = await updateJob(db, job.id, { released_qt: job.released_qt + qt }, now)
  const updatedOwn = await addMaterial(db, own, { released_out_qt: qt })
  const updatedNext = next ? await addMaterial(db, next, { released_in_qt: qt }) : undefined
  return { job: updatedJob, own: updatedOwn, next: updatedNext }
}

/**
 * Completes the job's open batch (every step done): progress, consumption per bom, release per
 * style, work order progress (last phase), then the job closes, or the next batch opens
 * (auto_new_batch), or the operator is told what comes next.
 */
async function finishBatch(
  db: Db,
  actor: Actor,
  job: JobRow,
  phase: PhaseInfo,
  material: [MaterialRow, MaterialRow | undefined],
  batchId: string,
  qtTotal: number,
  now: Date,
  stepsCompletedWithBatch: string[],
  scrappedQt = 0,
): Promise<ExecutionOutcome> {
  let [own, next] = material
  // Traceability (level complete): every piece declared; the batch's serials and links turn final.
  const serialPlace = await batchSerialPlace(db, job, { id: batchId, qt_total: qtTotal })
  await assertBatchSerialsDeclared(db, serialPlace)
  await db.updateTable('batches').set({ status: 'completed', completed_by: actor.userId, completed_at: now, scrapped_qt: scrappedQt }).where('id', '=', batchId).execute()
  await finalizeBatchSerials(db, actor, batchId, now)
  const { n: earlier } = await db
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', job.id)
    .where('status', '=', 'completed')
    .where('id', '<>', batchId)
    .executeTakeFirstOrThrow()
  const lines = await phaseBomLines(db, phase.id)
  const consumed: Consumption[] = lines
    .map((l) => ({ item_key: l.item_key, item_code: l.item_code, quantity_per: l.quantity_per, quantity: batchConsumption(l, qtTotal, Number(earlier) === 0) }))
    .filter((c) => c.quantity > 0)

  job = await updateJob(db, job.id, { completed_qt: job.completed_qt + qtTotal, active_qt: job.active_qt - qtTotal, active_batch_id: null }, now)
  own = await addMaterial(db, own, { completed_qt: qtTotal })
  const closing = job.completed_qt >= job.quantity
  const params = phase.parameters
  const releasedQt = releaseDue(params, { completed_qt: job.completed_qt, released_qt: job.released_qt, closed: closing })
  ;({ job, own, next } = await release(db, job, own, next, releasedQt, now))
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'BATCH_COMPLETED', {
      batch_key: batchId,
      qt_total: qtTotal,
      consumed,
      released_qt: releasedQt,
      release_style: params.release_style,
      steps_completed_with_batch: stepsCompletedWithBatch,
      scrapped_qt: scrappedQt,
      job_completed_qt: job.completed_qt,
    }),
    now,
  )
  // Stock follows production (inventory management on): consumption and finished goods, same transaction.
  await moveStockForCompletedBatch(db, actor, { batchId, workOrderId: job.work_order_id, goodQt: qtTotal - scrappedQt, consumed, lastPhase: !next }, now)
  // The last phase's completions are the work order's progress (the work order row is locked first).
  if (!next) await refreshWorkOrderProgress(db, job.work_order_id, { actor, now })
  const completed: CompletedBatch = { _key: batchId, qt_total: qtTotal, consumed, released_qt: releasedQt }

  if (closing) {
    await appendEvent(db, actor, jobEvent(job, 'ACTIVE_BATCH_CHANGED', { batch_key: null, previous_batch_key: batchId }), now)
    job = await stopWork(db, actor, job, now, { status: 'closed', endReason: 'closed', event: 'JOB_CLOSED', data: { completed_qt: job.completed_qt, released_qt: job.released_qt } })
    return outcome(db, job, own, 'job_closed', completed)
  }
  const canOpen = nextBatchQt(params.production_batch_qt, job, own) > 0
  if (canOpen && params.auto_new_batch) {
    ;({ job, material: own } = await openBatch(db, actor, job, phase, own, now, batchId))
    return outcome(db, job, own, 'batch_opened', completed)
  }
  await appendEvent(db, actor, jobEvent(job, 'ACTIVE_BATCH_CHANGED', { batch_key: null, previous_batch_key: batchId }), now)
  return outcome(db, job, own, canOpen ? 'await_new_batch' : 'no_material', completed)
}

// ---------------------------------------------------------------------------------------------
// Access

const mayReadAll = (actor: Actor) => hasScope(actor.scope, 'production')

/** Operators read their own jobs and unassigned ones; production reads everything. */
function assertMayRead(actor: Actor, job: Pick<JobRow, 'operator_id'>) {
  if (mayReadAll(actor)) return
  if (job.operator_id !== null && job.operator_id !== actor.userId) throw notYours()
}

/** Only the job's operator, while the job runs. */
export function assertRunningOperator(actor: Actor, job: JobRow) {
  if (job.operator_id !== actor.userId) throw notYours()
  if (job.status === 'closed') throw jobClosed()
  if (!job.active) throw notRunning()
}

// ---------------------------------------------------------------------------------------------
// Start, resume, pause, new batch

/**
 * Starts (or resumes) one or several jobs for the acting operator: each must be assigned to
 * them (or unassigned where settings allow: it becomes theirs), not closed, not running, with
 * an open batch or material for a new one; several jobs only where parallel_job_allowed holds
 * for every running and started job. Each gets a work session and, if none is open, a batch.
 */
export async function startJobs(svc: Svc, actor: Actor, input: StartJobsInput): Promise<StartJobsResult> {
  const keys = [...new Set(input.job_keys)].sort()
  return idempotent(svc, actor, `start:${keys.join(',')}`, input.idempotency_key, async (trx, now) => {
    // One start at a time per operator, so two devices cannot both pass the parallel rule.
    await sql`select pg_advisory_xact_lock(hashtext(${`mes.operator-start:${actor.userId}`}))`.execute(trx)
    const places = keys.every(isUuid) ? await jobPlaces(trx, keys) : []
    if (places.length !== keys.length) throw jobNotFound()
    // Work order rows with their material rows (by position) first, then the jobs.
    const materials = new Map<string, MaterialRow>()
    for (const woId of [...new Set(places.map((p) => p.work_order_id))].sort()) {
      const { workOrder, rows } = await lockAllMaterial(trx, woId)
      // Work on a finished work order would go unseen: production reopens or restores it first.
      if (workOrder.archived_at) throw conflict('WORK_ORDER_ARCHIVED', 'the work order is archived: production must restore it first')
      if (workOrder.status === 'closed') throw conflict('WORK_ORDER_CLOSED', 'the work order is closed: production must reopen it first')
      for (const row of rows) materials.set(`${woId}:${row.phase_id}`, row)
    }
    const materialOfJob = (j: { work_order_id: string; phase_id: string }) => materials.get(`${j.work_order_id}:${j.phase_id}`)!
    const jobs = await lockJobs(trx, keys)
    const phases = await phaseInfos(trx, jobs.map((j) => j.phase_id))
    const settings = await readSettings(trx)
    for (const job of jobs) {
      if (job.status === 'closed') throw jobClosed()
      if (job.operator_id === null && !settings.allow_unassigned_jobs) {
        throw forbidden('UNASSIGNED_JOBS_NOT_ALLOWED', 'this job is not assigned to you, and the settings do not allow taking unassigned jobs')
      }
      if (job.operator_id !== null && job.operator_id !== actor.userId) throw notYours()
      if (job.active) throw conflict('JOB_ALREADY_RUNNING', 'the job is already running', { job_key: job.id })
      const own = materialOfJob(job)
      if (!job.active_batch_id && nextBatchQt(phases.get(job.phase_id)!.parameters.production_batch_qt, job, own) <= 0) {
        throw unprocessable('NO_MATERIAL', 'no material available for this job yet', { job_key: job.id })
      }
    }
    const running = await trx
      .selectFrom('jobs')
      .select(['id', 'phase_id'])
      .where('operator_id', '=', actor.userId)
      .where('active', '=', true)
      .where('id', 'not in', keys)
      .execute()
    const runningPhases = await phaseInfos(trx, running.map((r) => r.phase_id))
    const all = [...running.map((r) => runningPhases.get(r.phase_id)!), ...jobs.map((j) => phases.get(j.phase_id)!)]
    if (!parallelAllowed(all.map((p) => p.parameters))) {
      throw conflict('PARALLEL_JOB_NOT_ALLOWED', 'these jobs cannot run at the same time: every running and started job must allow parallel work', {
        running_jobs: running.map((r) => r.id),
      })
    }

    const results: ExecutionOutcome[] = []
    for (const locked of jobs) {
      let job = locked
      const phase = phases.get(job.phase_id)!
      let own = materialOfJob(job)
      const wasStarted = job.status !== 'queued'
      const assigned = job.operator_id === null
      const ws = await trx
        .insertInto('work_sessions')
        .values({ job_id: job.id, user_id: actor.userId, auth_session_id: actor.sessionId, started_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      job = await updateJob(
        trx,
        job.id,
        { operator_id: actor.userId, active: true, status: 'started', started_at: job.started_at ?? now, last_heartbeat_at: now, paused_offline: false },
        now,
      )
      await appendEvent(
        trx,
        actor,
        jobEvent(job, wasStarted ? 'JOB_RESUMED' : 'JOB_STARTED', { work_session_key: ws.id, assigned_to_self: assigned, batch_key: job.active_batch_id }),
        now,
      )
      if (!job.active_batch_id) {
        // Checked again: an earlier job of this start may have taken the phase's material.
        if (nextBatchQt(phase.parameters.production_batch_qt, job, own) <= 0) {
          throw unprocessable('NO_MATERIAL', 'no material available for this job yet', { job_key: job.id })
        }
        ;({ job, material: own } = await openBatch(trx, actor, job, phase, own, now, null))
        materials.set(`${own.work_order_id}:${own.phase_id}`, own)
      }
      results.push(await outcome(trx, job, own, 'continue'))
    }
    return { jobs: results }
  })
}

/** Resume = start of one job that was started before (same rules; JOB_RESUMED). */
export async function resumeJob(svc: Svc, actor: Actor, input: JobActionInput): Promise<ExecutionOutcome> {
  const result = await startJobs(svc, actor, { job_keys: [input.job_key], idempotency_key: input.idempotency_key })
  return result.jobs[0]!
}

/** Pauses a running job of the operator: the work session ends, the open batch stays open (JOB_PAUSED). */
export async function pauseJob(svc: Svc, actor: Actor, input: PauseJobInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `pause:${input.job_key}`, input.idempotency_key, async (trx, now) => {
    const locked = await lockJob(trx, input.job_key)
    if (!locked) throw jobNotFound()
    assertRunningOperator(actor, locked)
    const job = await stopWork(trx, actor, locked, now, { status: 'paused', endReason: input.reason ?? 'user', event: 'JOB_PAUSED' })
    const material = (await materialOf(trx, job.work_order_id, job.phase_id))!
    return outcome(trx, job, material, 'paused')
  })
}

/** Opens the next batch of a running job with no open batch (auto_new_batch off, or material arrived). */
export async function newBatch(svc: Svc, actor: Actor, input: JobActionInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `new-batch:${input.job_key}`, input.idempotency_key, async (trx, now) => {
    const place = await jobPlace(trx, input.job_key)
    if (!place) throw jobNotFound()
    const [own] = await lockMaterial(trx, place.work_order_id, place.phase_id)
    const job = (await lockJob(trx, input.job_key))!
    assertRunningOperator(actor, job)
    if (job.active_batch_id) throw conflict('BATCH_ALREADY_OPEN', 'the job already has an open batch', { batch_key: job.active_batch_id })
    const phase = await phaseInfo(trx, job.phase_id)
    if (nextBatchQt(phase.parameters.production_batch_qt, job, own) <= 0) throw unprocessable('NO_MATERIAL', 'no material available for the next piece')
    const opened = await openBatch(trx, actor, job, phase, own, now, null)
    return outcome(trx, opened.job, opened.material, 'continue')
  })
}

// ---------------------------------------------------------------------------------------------
// Steps

type StepRow = Awaited<ReturnType<typeof lockBatchSteps>>[number]

/** The step whose completion needs the batch's serials declared (traceability complete): the last one. */
const serialStepKey = (steps: readonly { step_key: string; position: number }[]): string | null =>
  steps.reduce<{ step_key: string; position: number } | null>((last, s) => (!last || s.position > last.position ? s : last), null)?.step_key ?? null

/** True when no batch of the job before this one was completed (per-job bom quantities fall on it). */
async function isFirstBatch(db: Db, jobId: string, batchId: string): Promise<boolean> {
  const { n } = await db
    .selectFrom('batches as b')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('b.job_id', '=', jobId)
    .where('b.status', '=', 'completed')
    .where('b.id', '<>', batchId)
    .where('b.number', '<', (eb) => eb.selectFrom('batches as me').select('me.number').where('me.id', '=', batchId))
    .executeTakeFirstOrThrow()
  return Number(n) === 0
}

/** Where a batch is, for the serials service. */
async function batchSerialPlace(db: Db, job: Pick<JobRow, 'id' | 'work_order_id' | 'phase_id'>, batch: { id: string; qt_total: number }): Promise<BatchPlace> {
  const first_batch = await isFirstBatch(db, job.id, batch.id)
  return { batch_id: batch.id, qt_total: batch.qt_total, job_id: job.id, work_order_id: job.work_order_id, phase_id: job.phase_id, first_batch }
}

/**
 * The field definitions of steps of the phase (the job's step_sequence names them), in each
 * step's field order, by step key: one query for all of them.
 */
async function stepFieldsOf(db: Db, phase: PhaseInfo, stepKeys: readonly string[]): Promise<Map<string, FieldDefinition[]>> {
  const defs = stepKeys.map((k) => phase.steps.find((s) => s._key === k)?.fields ?? [])
  const rows = await fieldDefinitions(db, [...new Set(defs.flat())])
  const byKey = new Map(rows.map((r) => [r._key, r]))
  return new Map(
    stepKeys.map((k, i) => [
      k,
      defs[i]!.flatMap((f) => {
        const row = byKey.get(f)
        return row ? [{ ...row, type: row.type as FieldType }] : []
      }),
    ]),
  )
}

async function stepFields(db: Db, phase: PhaseInfo, stepKey: string): Promise<FieldDefinition[]> {
  return (await stepFieldsOf(db, phase, [stepKey])).get(stepKey)!
}

/** Checks answers against their fields (type, options); the stored form in the step's field order. */
function checkedFormData(fields: readonly FieldDefinition[], formData: readonly FormDataEntry[]): FormDataEntry[] {
  const byKey = new Map(fields.map((f) => [f._key, f]))
  const seen = new Set<string>()
  const unknown: string[] = []
  const invalid: { _key: string; name: string; problem: string }[] = []
  const values = new Map<string, unknown>()
  for (const entry of formData) {
    const field = byKey.get(entry.field_key)
    if (!field) {
      unknown.push(entry.field_key)
      continue
    }
    if (seen.has(entry.field_key)) {
      invalid.push({ _key: field._key, name: field.name, problem: 'answered twice' })
      continue
    }
    seen.add(entry.field_key)
    const checked = checkMetadataValue({ ...field, mandatory: false }, entry.value)
    if (!checked.ok) invalid.push({ _key: field._key, name: field.name, problem: checked.problem })
    else values.set(field._key, checked.value)
  }
  if (unknown.length) throw badRequest('UNKNOWN_FIELD', `not a field of this step: ${unknown.join(', ')}`, { fields: unknown })
  if (invalid.length) {
    throw badRequest('FORM_VALUE_INVALID', `invalid value: ${invalid.map((i) => `${i.name} (${i.problem})`).join('; ')}`, { fields: invalid })
  }
  return fields.filter((f) => values.has(f._key)).map((f) => ({ field_key: f._key, value: values.get(f._key) as FormDataEntry['value'] }))
}

/** Mandatory fields without a value. */
function missingMandatory(fields: readonly FieldDefinition[], formData: readonly FormDataEntry[]) {
  const values = new Map(formData.map((e) => [e.field_key, e.value]))
  return fields.filter((f) => f.mandatory && isEmptyValue(values.get(f._key)))
}

const mandatoryMissing = (missing: { step_key: string; fields: FieldDefinition[] }[]) => {
  const names = missing.flatMap((m) => m.fields.map((f) => f.name))
  return unprocessable('MANDATORY_FIELDS_MISSING', `fill the mandatory fields first: ${names.join(', ')}`, {
    fields: missing.flatMap((m) => m.fields.map((f) => ({ step_key: m.step_key, _key: f._key, name: f.name }))),
  })
}

/**
 * Locks what a step action needs: the work order and material rows when the batch may complete
 * (completions; saving answers needs none), then the job, the batch and its steps.
 */
async function lockForStep(db: Db, actor: Actor, batchKey: string, opts: { material: boolean }) {
  const place = isUuid(batchKey) ? await batchPlace(db, batchKey) : undefined
  if (!place) throw batchNotFound()
  const material = opts.material
    ? await lockMaterial(db, place.work_order_id, place.phase_id)
    : ([(await materialOf(db, place.work_order_id, place.phase_id))!, undefined] as [MaterialRow, undefined])
  const job = (await lockJob(db, place.job_id))!
  assertRunningOperator(actor, job)
  const batch = (await lockBatch(db, batchKey))!
  if (batch.status !== 'open') throw conflict('BATCH_NOT_OPEN', 'the batch is already completed', { batch_key: batch.id })
  const steps = await lockBatchSteps(db, batchKey)
  const phase = await phaseInfo(db, job.phase_id)
  return { material, job, batch, steps, phase }
}

function findStep(steps: StepRow[], stepKey: string): StepRow {
  const step = steps.find((s) => s.step_key === stepKey)
  if (!step) throw notFound('UNKNOWN_STEP', `no step ${stepKey} in this batch`)
  return step
}

async function writeFormData(db: Db, actor: Actor, job: JobRow, batchId: string, step: StepRow, formData: FormDataEntry[], now: Date) {
  const before = new Map((step.form_data as FormDataEntry[]).map((e) => [e.field_key, JSON.stringify(e.value)]))
  const after = new Map(formData.map((e) => [e.field_key, JSON.stringify(e.value)]))
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k))
  if (changed.length === 0) return
  await db
    .updateTable('batch_steps')
    .set({ form_data: JSON.stringify(formData), updated_at: now })
    .where('batch_id', '=', batchId)
    .where('step_key', '=', step.step_key)
    .execute()
  step.form_data = formData
  await appendEvent(db, actor, jobEvent(job, 'STEP_EDITED', { batch_key: batchId, step_key: step.step_key, fields: changed }), now)
}

/** Saves (replaces) a form step's answers while the batch is open; a done step keeps its mandatory fields filled. */
export async function saveStep(svc: Svc, actor: Actor, input: SaveStepInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `save-step:${input.batch_key}:${input.step_key}`, input.idempotency_key, async (trx, now) => {
    const { material, job, batch, steps, phase } = await lockForStep(trx, actor, input.batch_key, { material: false })
    const step = findStep(steps, input.step_key)
    const fields = await stepFields(trx, phase, step.step_key)
    const formData = checkedFormData(fields, input.form_data)
    if (step.done) {
      const missing = missingMandatory(fields, formData)
      if (missing.length) throw mandatoryMissing([{ step_key: step.step_key, fields: missing }])
    }
    await writeFormData(trx, actor, job, batch.id, step, formData, now)
    return outcome(trx, job, material[0], 'continue')
  })
}

/**
 * Completes a step: not done yet (else 409 STEP_ALREADY_DONE, e.g. from another device), earlier
 * steps done where the order is forced, mandatory fields filled. The last step completes the batch.
 */
export async function completeStep(svc: Svc, actor: Actor, input: CompleteStepInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `complete-step:${input.batch_key}:${input.step_key}`, input.idempotency_key, async (trx, now) => {
    const { material, job, batch, steps, phase } = await lockForStep(trx, actor, input.batch_key, { material: true })
    const step = findStep(steps, input.step_key)
    if (step.done) throw conflict('STEP_ALREADY_DONE', 'this step is already completed', { step_key: step.step_key })
    if (phase.parameters.step_check_force_order) {
      const pending = earlierStepsPending(
        steps.map((s) => ({ _key: s.step_key, position: s.position, done: s.done })),
        step.step_key,
      )
      if (pending.length) throw conflict('STEP_OUT_OF_ORDER', `complete the earlier steps first: ${pending.join(', ')}`, { pending })
    }
    const fields = await stepFields(trx, phase, step.step_key)
    if (input.form_data) await writeFormData(trx, actor, job, batch.id, step, checkedFormData(fields, input.form_data), now)
    const missing = missingMandatory(fields, step.form_data as FormDataEntry[])
    if (missing.length) throw mandatoryMissing([{ step_key: step.step_key, fields: missing }])
    if (step.step_key === serialStepKey(steps)) await assertBatchSerialsDeclared(trx, await batchSerialPlace(trx, job, batch))
    await trx
      .updateTable('batch_steps')
      .set({ done: true, done_by: actor.userId, done_at: now, updated_at: now })
      .where('batch_id', '=', batch.id)
      .where('step_key', '=', step.step_key)
      .execute()
    step.done = true
    await appendEvent(trx, actor, jobEvent(job, 'STEP_COMPLETED', { batch_key: batch.id, step_key: step.step_key, step_type: step.type }), now)
    if (steps.every((s) => s.done)) return finishBatch(trx, actor, job, phase, material, batch.id, batch.qt_total, now, [])
    return outcome(trx, job, material[0], 'continue')
  })
}

/**
 * Completes the whole batch: with step_check false the steps need no confirmation and complete
 * with the batch (mandatory fields must still be filled); with step_check true every step must
 * be done first (409 STEPS_NOT_DONE).
 */
export async function completeBatch(svc: Svc, actor: Actor, input: CompleteBatchInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `complete-batch:${input.batch_key}`, input.idempotency_key, async (trx, now) => {
    const { material, job, batch, steps, phase } = await lockForStep(trx, actor, input.batch_key, { material: true })
    const pending = steps.filter((s) => !s.done)
    if (phase.parameters.step_check && pending.length) {
      throw conflict('STEPS_NOT_DONE', `complete every step first: ${pending.map((s) => s.step_key).join(', ')}`, { pending: pending.map((s) => s.step_key) })
    }
    const missing = []
    const fieldsOf = await stepFieldsOf(trx, phase, pending.map((s) => s.step_key))
    for (const s of pending) {
      const m = missingMandatory(fieldsOf.get(s.step_key)!, s.form_data as FormDataEntry[])
      if (m.length) missing.push({ step_key: s.step_key, fields: m })
    }
    if (missing.length) throw mandatoryMissing(missing)
    if ((input.scrapped_qt ?? 0) > batch.qt_total) {
      throw invalidField({ path: 'scrapped_qt', kind: 'max_value', limit: batch.qt_total, message: `at most the batch's ${batch.qt_total} pieces` })
    }
    if (pending.length) {
      await trx
        .updateTable('batch_steps')
        .set({ done: true, done_by: actor.userId, done_at: now, updated_at: now })
        .where('batch_id', '=', batch.id)
        .where('done', '=', false)
        .execute()
    }
    return finishBatch(
      trx,
      actor,
      job,
      phase,
      material,
      batch.id,
      batch.qt_total,
      now,
      pending.map((s) => s.step_key),
      input.scrapped_qt ?? 0,
    )
  })
}

// ---------------------------------------------------------------------------------------------
// Heartbeat, back online, sign-out

function stopReason(job: JobRow): HeartbeatResult['reason'] {
  if (job.status === 'closed') return 'closed'
  if (job.paused_offline) return 'paused_offline'
  return job.status === 'queued' ? 'queued' : 'paused'
}

/**
 * `POST job/{id}/heartbeat`: the running operator's client says it is alive (every 10 s). Sets
 * last_heartbeat_at only; never user activity. With the operator's session locked and
 * unsupervised work not allowed in the phase, the job pauses (JOB_PAUSE_FORCED) and the answer
 * says so. A heartbeat after a silence longer than BACK_ONLINE_AFTER_MS records BACK_ONLINE.
 * The steady state (running, own job, no gap, session not locked) is one batched UPDATE
 * (heartbeat-writer.ts); everything else takes a transaction with the job row locked.
 */
export async function heartbeat(svc: Svc, actor: Actor, input: HeartbeatInput, opts: { sessionLocked: boolean }): Promise<HeartbeatResult> {
  if (!isUuid(input.job_key)) throw jobNotFound()
  const now = svc.clock.now()
  const answer = (running: boolean, reason: HeartbeatResult['reason'], backOnline = false): HeartbeatResult => ({
    job_key: input.job_key,
    running,
    reason,
    back_online: backOnline,
    server_time: now.getTime(),
  })
  if (!opts.sessionLocked && (await heartbeatWriter(svc.db).write(input.job_key, actor.userId, now))) return answer(true, null)
  return svc.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, input.job_key)
    if (!job) throw jobNotFound()
    if (job.operator_id !== actor.userId) throw notYours()
    if (!job.active) {
      // The first heartbeat since a forced pause for silence ends that offline period.
      const back = job.paused_offline && (await endOfflinePeriod(trx, actor, job, now, { detected_by: 'heartbeat' }))
      return answer(false, stopReason(job), back)
    }
    const phase = await phaseInfo(trx, job.phase_id)
    if (opts.sessionLocked && !phase.parameters.unsupervised_work_allowed) {
      await stopWork(trx, actor, job, now, { status: 'paused', endReason: 'session_locked', event: 'JOB_PAUSE_FORCED' })
      return answer(false, 'session_locked')
    }
    if (await endOfflinePeriod(trx, actor, job, now, { detected_by: 'heartbeat' })) return answer(true, null, true)
    await trx.updateTable('jobs').set({ last_heartbeat_at: now }).where('id', '=', job.id).execute()
    return answer(true, null)
  })
}

/**
 * Whether the job is in an offline period nobody reported yet. The job's last sign of life is
 * jobs.last_heartbeat_at (start and resume set it too); the period is open while nothing was
 * heard since it went silent:
 * - paused offline: no heartbeat since the forced pause (its work session ended after that sign);
 * - running: silent for longer than BACK_ONLINE_AFTER_MS;
 * - the client's own report: nothing heard since the `offline_since` it names.
 */
async function offlinePeriodOpen(db: Db, job: JobRow, now: Date, offlineSince?: number): Promise<boolean> {
  const last = job.last_heartbeat_at?.getTime() ?? null
  if (offlineSince !== undefined && (last === null || last <= offlineSince)) return true
  if (job.active) return last !== null && now.getTime() - last > BACK_ONLINE_AFTER_MS
  if (!job.paused_offline) return false
  const pause = await db.selectFrom('work_sessions').select('ended_at').where('job_id', '=', job.id).orderBy('started_at', 'desc').limit(1).executeTakeFirst()
  return !!pause?.ended_at && (last === null || last <= pause.ended_at.getTime())
}

/**
 * One reconnection = one BACK_ONLINE (issue 11): whoever notices the way back first (a heartbeat
 * or the client's back-online call) records it and moves last_heartbeat_at to now, which closes
 * the period, so a second report of the same period (a retry, another call of the client, the
 * next heartbeat) records nothing. Returns whether this call recorded it. Job row locked.
 */
async function endOfflinePeriod(
  db: Db,
  actor: Actor,
  job: JobRow,
  now: Date,
  report: { detected_by: 'heartbeat' | 'client'; offline_since?: number },
): Promise<boolean> {
  if (!(await offlinePeriodOpen(db, job, now, report.offline_since))) return false
  const since = report.offline_since ?? job.last_heartbeat_at?.getTime() ?? null
  await db.updateTable('jobs').set({ last_heartbeat_at: now }).where('id', '=', job.id).execute()
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'BACK_ONLINE', {
      detected_by: report.detected_by,
      offline_since: since,
      offline_ms: since === null ? null : Math.max(0, now.getTime() - since),
      paused_offline: job.paused_offline,
    }),
    now,
  )
  return true
}

/**
 * The client is back online after closing the job's work session for silence (`offline_since`:
 * the server time of its last answered heartbeat). A job the sweep has not force-paused yet but
 * silent longer than max_offline is force-paused now by the same rule; then BACK_ONLINE is
 * recorded once per offline period (`recorded` false: already reported). An offline_since ahead
 * of the server's clock by more than OFFLINE_SINCE_SKEW_MS is refused (400).
 */
export async function backOnline(svc: Svc, actor: Actor, input: BackOnlineInput): Promise<BackOnlineResult> {
  if (input.offline_since !== undefined && input.offline_since > svc.clock.now().getTime() + OFFLINE_SINCE_SKEW_MS) {
    throw badRequest('OFFLINE_SINCE_IN_FUTURE', 'offline_since is in the future: send the server time of the last answered heartbeat', {
      server_time: svc.clock.now().getTime(),
    })
  }
  return idempotent(svc, actor, `back-online:${input.job_key}`, input.idempotency_key, async (trx, now) => {
    let job = isUuid(input.job_key) ? await lockJob(trx, input.job_key) : undefined
    if (!job) throw jobNotFound()
    if (job.operator_id !== actor.userId) throw notYours()
    if (job.active) {
      const { parameters } = await phaseInfo(trx, job.phase_id)
      job = (await pauseForSilence(trx, job, parameters.max_offline, now)) ?? job
    }
    const recorded = await endOfflinePeriod(trx, actor, job, now, { detected_by: 'client', offline_since: input.offline_since })
    const material = (await materialOf(trx, job.work_order_id, job.phase_id))!
    return { job: await jobState(trx, job, material), recorded }
  })
}

/**
 * Sign-out hook (session service: logout and DELETE session/{key}): pauses the running jobs
 * whose open work session belongs to that sign-in session (JOB_PAUSED, reason sign_out).
 * Runs inside the caller's transaction. A sign-out caused by a 401 never reaches the server.
 */
export async function pauseJobsOfSession(db: Db, actor: Actor, authSessionId: string, now: Date): Promise<string[]> {
  const open = await db
    .selectFrom('work_sessions')
    .select('job_id')
    .where('auth_session_id', '=', authSessionId)
    .where('ended_at', 'is', null)
    .orderBy('job_id')
    .execute()
  if (open.length === 0) return []
  const paused: string[] = []
  for (const job of await lockJobs(db, open.map((r) => r.job_id))) {
    if (!job.active) continue
    await stopWork(db, actor, job, now, { status: 'paused', endReason: 'sign_out', event: 'JOB_PAUSED', data: { signed_out_session: authSessionId } })
    paused.push(job.id)
  }
  return paused
}

/**
 * Force-pauses one running job (offline sweep): see pauseForSilence. Returns false when another
 * sweep got there first or the job beat again meanwhile.
 */
export async function forcePauseOffline(db: Db, jobId: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const job = await trx
      .selectFrom('jobs as j')
      .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
      .selectAll('j')
      .select('ph.parameters')
      .where('j.id', '=', jobId)
      .where('j.active', '=', true)
      .forUpdate('j')
      .skipLocked()
      .executeTakeFirst()
    if (!job) return false
    const { parameters, ...row } = job
    return (await pauseForSilence(trx, row as JobRow, withPhaseDefaults(parameters).max_offline, now)) !== null
  })
}

/**
 * A running job silent for longer than its max_offline (0 = never) pauses: JOB_PAUSE_FORCED
 * with paused_offline; its work session ends max_offline after the last sign of life
 * (offlineSessionEnd: the time the operator's client kept the session open offline, so the work
 * timer never runs backwards, and a job silent since its start counts that time, not 0 s), with
 * reason 'offline'. The event carries the operator and the sign-in session of the work session;
 * `by: 'server'`. Job row locked by the caller. Returns the paused job, or null (not silent long enough).
 */
async function pauseForSilence(db: Db, job: JobRow, maxOfflineS: number, now: Date): Promise<JobRow | null> {
  const last = job.last_heartbeat_at ?? job.updated_at
  if (!offlineTooLong(maxOfflineS, last.getTime(), now.getTime())) return null
  const ws = await openWorkSession(db, job.id)
  const actor: Actor = { userId: ws?.user_id ?? job.operator_id ?? '', sessionId: ws?.auth_session_id ?? null, scope: '', tokenId: null }
  return stopWork(db, actor.userId ? actor : null, job, now, {
    status: 'paused',
    endReason: 'offline',
    event: 'JOB_PAUSE_FORCED',
    endedAt: new Date(offlineSessionEnd(last.getTime(), maxOfflineS, now.getTime())),
    pausedOffline: true,
    data: { by: 'server', max_offline_s: maxOfflineS, last_heartbeat_at: last.getTime() },
  })
}

// ---------------------------------------------------------------------------------------------
// Reads

async function readableBatchJob(svc: Svc, actor: Actor, batchKey: string) {
  const place = isUuid(batchKey) ? await batchPlace(svc.db, batchKey) : undefined
  if (!place) throw batchNotFound()
  const job = await svc.db.selectFrom('jobs').select(['id', 'operator_id', 'phase_id', 'work_order_id']).where('id', '=', place.job_id).executeTakeFirstOrThrow()
  assertMayRead(actor, job)
  return job
}

/** `GET batch/{key}`. */
export async function getBatch(svc: Svc, actor: Actor, batchKey: string): Promise<Batch> {
  await readableBatchJob(svc, actor, batchKey)
  return (await readBatch(svc.db, batchKey))!
}

/** `GET batch/{key}/serials`: the batch's pieces with the serials declared in them (temporary until the batch completes). */
export async function getBatchSerials(svc: Svc, actor: Actor, batchKey: string): Promise<BatchSerials> {
  const job = await readableBatchJob(svc, actor, batchKey)
  return readSerialsOf(svc.db, job, batchKey)
}

async function readSerialsOf(db: Db, job: Pick<JobRow, 'id' | 'work_order_id' | 'phase_id'>, batchKey: string): Promise<BatchSerials> {
  const batch = await db.selectFrom('batches').select(['id', 'qt_total']).where('id', '=', batchKey).executeTakeFirstOrThrow()
  const steps = await db.selectFrom('batch_steps').select(['step_key', 'position']).where('batch_id', '=', batchKey).execute()
  return readBatchSerials(db, await batchSerialPlace(db, job, batch), serialStepKey(steps))
}

/**
 * `PUT batch/{key}/serial-temp-links`: the job's operator, while the job runs and the batch is
 * open, declares the serials of pieces of the batch (serials service: saveBatchSerials). One
 * transaction: a refusal writes nothing. SERIAL_TEMP_LINKS_SAVED on the job.
 */
export async function saveSerialTempLinks(svc: Svc, actor: Actor, input: SaveSerialTempLinksInput): Promise<BatchSerials> {
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    const { job, batch } = await lockForStep(trx, actor, input.batch_key, { material: false })
    await saveBatchSerials(trx, actor, await batchSerialPlace(trx, job, batch), input.pieces, now)
    await appendEvent(trx, actor, jobEvent(job, 'SERIAL_TEMP_LINKS_SAVED', { batch_key: batch.id, pieces: input.pieces.map((p) => p.piece) }), now)
    return readSerialsOf(trx, job, batch.id)
  })
}

/** `GET component-batch?batch_key=`: the phase's components with the quantities this batch consumes. */
export async function componentBatch(svc: Svc, actor: Actor, batchKey: string): Promise<ComponentBatch> {
  const job = await readableBatchJob(svc, actor, batchKey)
  const batch = await svc.db.selectFrom('batches').select(['id', 'qt_total']).where('id', '=', batchKey).executeTakeFirstOrThrow()
  const first = await isFirstBatch(svc.db, job.id, batch.id)
  const lines = await phaseBomLines(svc.db, job.phase_id)
  return {
    batch_key: batch.id,
    phase_key: job.phase_id,
    qt_total: batch.qt_total,
    components: lines.map((l) => ({ ...l, batch_quantity: batchConsumption(l, batch.qt_total, first) })),
  }
}

/** Everything the work session screen (operator/job/:jobKey) needs, in one call. */
export async function workSession(svc: Svc, actor: Actor, jobKey: string): Promise<WorkSessionView> {
  const head = isUuid(jobKey) ? await workSessionHead(svc.db, jobKey) : undefined
  if (!head) throw jobNotFound()
  assertMayRead(actor, head)
  const now = svc.clock.now()
  const parameters = withPhaseDefaults(head.phase_parameters)
  const material = { released_in_qt: head.released_in_qt, taken_qt: head.taken_qt }
  const job: JobRow = head
  const ws = job.active ? await openWorkSession(svc.db, job.id) : undefined
  const state = jobStateOf(job, material, ws?.id ?? null)
  const batch = job.active_batch_id ? ((await readBatch(svc.db, job.active_batch_id)) ?? null) : null

  const phaseSteps = new Map((head.phase_steps as Step[]).map((s) => [s._key, s]))
  const sequence = job.step_sequence.flatMap((s) => {
    const def = phaseSteps.get(s._key)
    return def ? [def] : []
  })
  const fields = new Map((await fieldDefinitions(svc.db, [...new Set(sequence.flatMap((s) => s.fields))])).map((f) => [f._key, f]))
  const media = new Map((await mediaRows(svc.db, [...new Set(sequence.flatMap((s) => s.media))])).map((m) => [m._key, m]))
  const steps: StepDefinition[] = sequence.map((s) => ({
    _key: s._key,
    type: s.type,
    title: s.title,
    text: s.text,
    print_templates: s.print_templates,
    media: s.media.flatMap((k) => {
      const m = media.get(k)
      return m ? [{ ...m, url: `/media/${m._key}`, step_url: stepMediaUrl(s._key, m.filename) }] : []
    }),
    fields: s.fields.flatMap((k) => {
      const f = fields.get(k)
      return f ? [{ ...f, type: f.type as FieldType }] : []
    }),
  }))

  const mine = job.operator_id === actor.userId
  const settings = await readSettings(svc.db)
  const mayTake = mine || (job.operator_id === null && settings.allow_unassigned_jobs && hasScope(actor.scope, 'operator'))
  const available = state.available_qt
  const newBatchQt = nextBatchQt(parameters.production_batch_qt, job, material)
  return {
    job: {
      ...state,
      notes: job.notes,
      // The job list's rule: open, and an open critical issue on the job or its work order.
      critical: isCritical({ status: job.status, critical: job.critical, work_order_critical: head.wo_critical }),
      started_at: job.started_at?.getTime() ?? null,
      closed_at: job.closed_at?.getTime() ?? null,
      last_heartbeat_at: job.last_heartbeat_at?.getTime() ?? null,
      batches_completed: head.batches_completed,
    },
    work_order: {
      _key: job.work_order_id,
      code: head.wo_code,
      planned_qt: head.wo_planned_qt,
      completed_qt: head.wo_completed_qt,
      status: head.wo_status,
      line: head.wo_line,
      notes: head.wo_notes,
      start_from: head.wo_start_from,
      due_by: head.wo_due_by,
    },
    product: { _key: head.product_key, code: head.product_code, description: head.product_description },
    phase: {
      _key: job.phase_id,
      name: head.phase_name,
      position: head.phases_before + 1,
      phase_count: head.phase_count,
      is_last: head.phases_before + 1 === head.phase_count,
      operation_name: head.operation_name,
      department_key: head.phase_department_key,
      production_notes: head.phase_production_notes,
      parameters,
    },
    material: { ...material, completed_qt: head.phase_completed_qt, released_out_qt: head.released_out_qt, available_qt: available },
    steps,
    batch,
    work_session: ws ? { _key: ws.id, started_at: ws.started_at.getTime(), user_key: ws.user_id } : null,
    timer: {
      display_job_timer: parameters.display_job_timer,
      elapsed_ms: workedMs(job.time_spent_ms, ws?.started_at.getTime() ?? null, now.getTime()),
      expected_ms: expectedMs(parameters.std_processing_time, job.quantity),
      expected_batch_ms: batch ? expectedMs(parameters.std_processing_time, batch.qt_total) : 0,
      session_started_at: ws?.started_at.getTime() ?? null,
      server_time: now.getTime(),
    },
    // An unassigned job someone may take counts the viewer's own running jobs.
    can: allowedActions(job, batch, parameters, newBatchQt, { mine, mayTake, runningElsewhere: mayTake ? await runningElsewhere(svc.db, { ...job, operator_id: actor.userId }) : [] }),
  }
}

