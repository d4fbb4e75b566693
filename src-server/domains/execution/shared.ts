/**
 * What the execution use cases share: the refusals several of them give, the job event shape,
 * who may read or act on a job, the row writes inside a locked transaction (job, material
 * counters, the end of a work session) and the first-batch rule. Kept apart so each use case
 * file imports only this for these, never another use case. (The locks a step or batch write
 * takes, and whether it may act on the job, are client-time.ts's: lockForStep, admitWrite.)
 */
import type { Updateable } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import type { JobsTable } from '../../db/schema'
import { conflict, forbidden, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { batchPlace, type JobRow, type MaterialRow } from './queries'

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

export type Svc = Pick<Services, 'db' | 'clock'>

export const jobNotFound = () => notFound('NOT_FOUND', 'job not found')
export const batchNotFound = () => notFound('NOT_FOUND', 'batch not found')
export const notYours = (extra?: Record<string, unknown>) => forbidden('JOB_NOT_YOURS', 'this job is assigned to another operator', extra)
export const notRunning = () => conflict('JOB_NOT_RUNNING', 'the job is not running: start or resume it first')
export const jobClosed = () => conflict('JOB_CLOSED', 'job closed: redirecting')

const JOB = 'job'

export function jobEvent(job: Pick<JobRow, 'id' | 'work_order_id' | 'phase_id'>, event_type: string, data: Record<string, unknown>) {
  return { event_type, subject_type: JOB, subject_key: job.id, data: { work_order_key: job.work_order_id, phase_key: job.phase_id, ...data } }
}

// ---------------------------------------------------------------------------------------------
// Access

const mayReadAll = (actor: Actor) => hasScope(actor.scope, 'production')

/** Operators read their own jobs and unassigned ones; production reads everything. */
export const mayRead = (actor: Actor, job: Pick<JobRow, 'operator_id'>) => mayReadAll(actor) || job.operator_id === null || job.operator_id === actor.userId

export function assertMayRead(actor: Actor, job: Pick<JobRow, 'operator_id'>) {
  if (!mayRead(actor, job)) throw notYours()
}

/** Only the job's operator, while the job runs. */
export function assertRunningOperator(actor: Actor, job: JobRow) {
  if (job.operator_id !== actor.userId) throw notYours()
  if (job.status === 'closed') throw jobClosed()
  if (!job.active) throw notRunning()
}

export async function readableBatchJob(svc: Svc, actor: Actor, batchKey: string) {
  const place = isUuid(batchKey) ? await batchPlace(svc.db, batchKey) : undefined
  if (!place) throw batchNotFound()
  const job = await svc.db.selectFrom('jobs').select(['id', 'operator_id', 'phase_id', 'work_order_id']).where('id', '=', place.job_id).executeTakeFirstOrThrow()
  assertMayRead(actor, job)
  return job
}

// ---------------------------------------------------------------------------------------------
// Building blocks (inside a transaction, rows already locked)

export function updateJob(db: Db, id: string, patch: Updateable<JobsTable>, now: Date): Promise<JobRow> {
  return db
    .updateTable('jobs')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function addMaterial(db: Db, row: MaterialRow, delta: Partial<Record<'released_in_qt' | 'taken_qt' | 'completed_qt' | 'released_out_qt', number>>) {
  return db
    .updateTable('work_order_phases')
    .set((eb) => Object.fromEntries(Object.entries(delta).map(([k, d]) => [k, eb(eb.ref(k as 'taken_qt'), '+', d)])))
    .where('work_order_id', '=', row.work_order_id)
    .where('phase_id', '=', row.phase_id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Ends the job's open work session (its time counts into time_spent_ms) and stops the job. */
export async function stopWork(
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

/** True when no batch of the job before this one was completed (per-job bom quantities fall on it). */
export async function isFirstBatch(db: Db, jobId: string, batchId: string): Promise<boolean> {
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
