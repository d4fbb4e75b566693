/**
 * What a job looks like to its operator: its state, the buttons the work session offers
 * (allowedActions, one rule for the view and for every write's answer) and the outcome every
 * operator write answers with.
 */
import { nextBatchQt, startBlocker } from '../../../src/domains/execution/rules'
import type { Batch, CompletedBatch, ExecutionOutcome, JobActions, JobState, NextStep } from '../../../src/domains/execution/schemas'
import { availableQt, remainingQt } from '../../../src/domains/jobs/rules'
import { type PhaseParameters, withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import type { Db } from '../../db/connect'
import { type JobRow, type MaterialRow, openWorkSession, otherRunningPhases, phaseInfo, readBatch } from './queries'

export async function jobState(db: Db, job: JobRow, material: Pick<MaterialRow, 'released_in_qt' | 'taken_qt'>): Promise<JobState> {
  const ws = job.active ? await openWorkSession(db, job.id) : undefined
  return jobStateOf(job, material, ws?.id ?? null)
}

export function jobStateOf(job: JobRow, material: Pick<MaterialRow, 'released_in_qt' | 'taken_qt'>, workSessionKey: string | null): JobState {
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

export async function outcome(
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
export async function runningElsewhere(db: Db, job: Pick<JobRow, 'id' | 'operator_id' | 'status' | 'active'>): Promise<PhaseParameters[]> {
  if (job.status === 'closed' || job.active || job.operator_id === null) return []
  const rows = await otherRunningPhases(db, job.operator_id, job.id)
  return rows.map((r) => withPhaseDefaults(r.parameters))
}

/** The buttons of the work session: one rule for the view and for the answer of every write. */
export function allowedActions(
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
