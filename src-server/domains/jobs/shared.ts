/**
 * What the job use cases share: the plant's today, the refusals several of them give, and the
 * locked checks and writes of the changes (operators jobs may be given, the work order and phase
 * rows in lock order, moving released pieces downstream). Kept apart so each use case file
 * imports only this for these, never another use case.
 */
import type { Selectable } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import { calendarDate } from '../../../src/domains/jobs/rules'
import { JOB_REASON_MAX } from '../../../src/domains/jobs/schemas'
import type { Services } from '../../context'
import type { Db } from '../../db/connect'
import type { JobsTable, WorkOrderPhasesTable } from '../../db/schema'
import { conflict, notFound, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'

/**
 * The job side of production planning (SPEC 4, 5, 7; DOMAIN.md "Work orders and jobs",
 * "Material flow between phases"): the job list with its filters, assignment, rebalancing,
 * operator queues and production corrections. Every change locks what it reads, in one order:
 * work_order_phases rows (by position), then job rows (by key), and writes its event in the
 * same transaction.
 */

export type Job = Selectable<JobsTable>
export type PhaseRow = Selectable<WorkOrderPhasesTable>

export const today = (svc: Pick<Services, 'clock'>) => calendarDate(svc.clock.now())

export const unknownJob = () => notFound('UNKNOWN_JOB', 'job not found')
const unknownWorkOrder = () => notFound('UNKNOWN_WORK_ORDER', 'work order not found')
export const archived = () => conflict('WORK_ORDER_ARCHIVED', 'the work order is archived')
export const jobRunning = () => conflict('JOB_RUNNING', 'the job is running: pause it first')
export const jobClosed = () => conflict('JOB_CLOSED', 'the job is closed')
export const wrongUser = () => notFound('WRONG_USER_ID', 'wrong user ID')
export const notOperator = () => unprocessable('WRONG_OPERATOR', 'the user is not an active operator')
export const unassignedRefused = () => unprocessable('UNASSIGNED_JOBS_NOT_ALLOWED', 'the settings do not allow jobs without an operator')

/**
 * Why production paused or reassigned a job, as the event records it and the operator reads it
 * (work-session view `interruption`): trimmed, null when blank, at most JOB_REASON_MAX characters
 * (400 INVALID_INPUT naming `reason`). Checked before anything is written.
 */
export function jobReason(text: string | null | undefined): string | null {
  const reason = text?.trim() ?? ''
  if (reason.length > JOB_REASON_MAX) {
    throw invalidField({ path: 'reason', kind: 'max_length', limit: JOB_REASON_MAX, message: `a reason may have at most ${JOB_REASON_MAX} characters` })
  }
  return reason === '' ? null : reason
}

/**
 * The operators jobs may be given (one query, rows locked FOR SHARE): each exists (else
 * WRONG_USER_ID), with the operator permission, enabled, not archived; the first failing key
 * (in key order) names the refusal.
 */
export async function checkedOperators(db: Db, keys: readonly string[]): Promise<void> {
  const wanted = [...new Set(keys)].sort()
  if (wanted.length === 0) return
  const users = await db.selectFrom('users').select(['id', 'scope', 'enabled', 'archived_at']).where('id', 'in', wanted).orderBy('id').forShare().execute()
  const byId = new Map(users.map((u) => [u.id, u]))
  for (const key of wanted) {
    const user = byId.get(key)
    if (!user) throw wrongUser()
    if (!hasScope(user.scope, 'operator') || !user.enabled || user.archived_at !== null) throw notOperator()
  }
}

export async function lockedWorkOrder(db: Db, key: string) {
  // Lock order (shared with the work order service): work order, phases, jobs.
  const wo = await db.selectFrom('work_orders').select(['id', 'archived_at', 'planned_qt']).where('id', '=', key).forUpdate().executeTakeFirst()
  if (!wo) throw unknownWorkOrder()
  if (wo.archived_at !== null) throw archived()
  return wo
}

/** The phase row of a work order and the one after it (downstream), locked in position order. */
export async function lockedPhases(db: Db, workOrderId: string, phaseId: string): Promise<{ phase: PhaseRow; next: PhaseRow | null }> {
  const phase = await db
    .selectFrom('work_order_phases')
    .selectAll()
    .where('work_order_id', '=', workOrderId)
    .where('phase_id', '=', phaseId)
    .forUpdate()
    .executeTakeFirst()
  if (!phase) throw unprocessable('UNKNOWN_PHASE', 'the phase is not part of the work order')
  const next = await db
    .selectFrom('work_order_phases')
    .selectAll()
    .where('work_order_id', '=', workOrderId)
    .where('position', '>', phase.position)
    .orderBy('position')
    .limit(1)
    .forUpdate()
    .executeTakeFirst()
  return { phase, next: next ?? null }
}

/**
 * Moves `qt` pieces of a phase downstream (qt < 0 pulls released pieces back, refused with
 * DOWNSTREAM_CONSUMED when the next phase already took them). Updates the in-memory rows too.
 */
export async function moveReleased(db: Db, phase: PhaseRow, next: PhaseRow | null, qt: number) {
  if (qt === 0) return
  if (next && qt < 0 && next.released_in_qt + qt < next.taken_qt) {
    throw conflict('DOWNSTREAM_CONSUMED', 'released pieces were already taken by the next phase', {
      released_back: -qt,
      still_free_downstream: next.released_in_qt - next.taken_qt,
    })
  }
  phase.released_out_qt += qt
  await db
    .updateTable('work_order_phases')
    .set({ released_out_qt: phase.released_out_qt })
    .where('work_order_id', '=', phase.work_order_id)
    .where('phase_id', '=', phase.phase_id)
    .execute()
  if (next) {
    next.released_in_qt += qt
    await db
      .updateTable('work_order_phases')
      .set({ released_in_qt: next.released_in_qt })
      .where('work_order_id', '=', next.work_order_id)
      .where('phase_id', '=', next.phase_id)
      .execute()
  }
}
