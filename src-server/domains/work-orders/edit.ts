/**
 * Changing a work order by hand, quantities apart (quantities.ts): its line, dates and notes,
 * closing and reopening it, archiving and restoring it.
 */
import { sql } from 'kysely'
import { toDbDate, type WorkOrderDetail, type WorkOrderPatchInput } from '../../../src/domains/work-orders/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict } from '../../errors'
import { appendEvent } from '../events/service'
import { readDetail } from './detail'
import { refreshWorkOrderProgress } from './progress'
import { lockWorkOrder } from './queries'
import { archivedRefusal, assertDates, requireWorkOrderId, SUBJECT, todayOf, workOrderNotFound } from './shared'

type Change = { from: unknown; to: unknown }

/**
 * `PATCH work-order/{id}`: line, dates, notes; `status: 'closed'` closes an active work order
 * (refused while a job runs or holds pieces in progress; its open jobs close), `status: 'active'`
 * reopens a closed one (its jobs with pieces left open again). Archived work orders are read-only.
 */
export async function patchWorkOrder(svc: Services, actor: Actor, key: string, patch: WorkOrderPatchInput): Promise<WorkOrderDetail> {
  const now = svc.clock.now()
  const today = todayOf(svc)
  const id = await svc.db.transaction().execute(async (trx) => {
    const id = await requireWorkOrderId(trx, key)
    const wo = await lockWorkOrder(trx, id)
    if (!wo) throw workOrderNotFound()
    if (wo.archived_at) throw archivedRefusal()

    const changes: Record<string, Change> = {}
    const after = {
      line: patch.line ?? wo.line,
      notes: patch.notes ?? wo.notes,
      start_from: patch.start_from === undefined ? wo.start_from : patch.start_from,
      due_by: patch.due_by === undefined ? wo.due_by : patch.due_by,
    }
    assertDates(after.start_from, after.due_by)
    for (const field of ['line', 'notes', 'start_from', 'due_by'] as const) {
      if (after[field] !== wo[field]) changes[field] = { from: wo[field], to: after[field] }
    }
    if (Object.keys(changes).length > 0) {
      await trx
        .updateTable('work_orders')
        .set({
          line: after.line,
          notes: after.notes,
          start_from: toDbDate(after.start_from) ?? null,
          due_by: toDbDate(after.due_by) ?? null,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute()
      await appendEvent(trx, actor, { event_type: 'WORK_ORDER_UPDATED', subject_type: SUBJECT, subject_key: id, data: { code: wo.code, changes } }, now)
    }

    if (patch.status && patch.status !== wo.status) {
      if (wo.status === 'completed') {
        throw conflict('WORK_ORDER_STATUS_CHANGE', 'a completed work order cannot be closed or reopened by hand (change its quantity to produce more)')
      }
      if (patch.status === 'closed') await closeWorkOrder(trx, actor, wo, now)
      else await reopenWorkOrder(trx, actor, wo, now)
    }
    return id
  })
  return readDetail(svc.db, id, today)
}

async function closeWorkOrder(trx: Db, actor: Actor, wo: { id: string; code: string }, now: Date) {
  const jobs = await trx.selectFrom('jobs').select(['id', 'status', 'active', 'active_qt']).where('work_order_id', '=', wo.id).forUpdate().execute()
  const busy = jobs.filter((j) => j.active || j.active_qt > 0)
  if (busy.length) {
    throw conflict('WORK_ORDER_JOBS_RUNNING', 'some jobs are running or hold pieces in progress: pause them or finish their batches first', {
      job_keys: busy.map((j) => j.id),
    })
  }
  const open = jobs.filter((j) => j.status !== 'closed').map((j) => j.id)
  if (open.length) await trx.updateTable('jobs').set({ status: 'closed', closed_at: now, updated_at: now }).where('id', 'in', open).execute()
  await trx.updateTable('work_orders').set({ status: 'closed', closed_at: now, updated_at: now }).where('id', '=', wo.id).execute()
  await appendEvent(trx, actor, { event_type: 'WORK_ORDER_CLOSED', subject_type: SUBJECT, subject_key: wo.id, data: { code: wo.code, jobs_closed: open } }, now)
}

async function reopenWorkOrder(trx: Db, actor: Actor, wo: { id: string; code: string }, now: Date) {
  const reopened = await trx
    .updateTable('jobs')
    .set({ status: sql`case when started_at is null then 'queued' else 'paused' end`, closed_at: null, updated_at: now })
    .where('work_order_id', '=', wo.id)
    .where('status', '=', 'closed')
    .where(sql<boolean>`completed_qt < quantity`)
    .returning('id')
    .execute()
  await trx.updateTable('work_orders').set({ status: 'active', closed_at: null, updated_at: now }).where('id', '=', wo.id).execute()
  await appendEvent(
    trx,
    actor,
    { event_type: 'WORK_ORDER_REOPENED', subject_type: SUBJECT, subject_key: wo.id, data: { code: wo.code, jobs_reopened: reopened.map((j) => j.id) } },
    now,
  )
  // Everything may already be done: then it is completed straight away.
  await refreshWorkOrderProgress(trx, wo.id, { actor, now })
}

/** `POST work-order/{id}/archive`: completed or closed work orders leave the active list (WORK_ORDER_ARCHIVED). */
export async function archiveWorkOrder(svc: Services, actor: Actor, key: string): Promise<WorkOrderDetail> {
  const now = svc.clock.now()
  const id = await svc.db.transaction().execute(async (trx) => {
    const id = await requireWorkOrderId(trx, key)
    const wo = await lockWorkOrder(trx, id)
    if (!wo) throw workOrderNotFound()
    if (wo.archived_at) throw conflict('WORK_ORDER_ARCHIVED', 'the work order is already archived')
    if (wo.status === 'active') throw conflict('WORK_ORDER_NOT_FINISHED', 'only completed or closed work orders can be archived')
    await trx.updateTable('work_orders').set({ archived_at: now, updated_at: now }).where('id', '=', id).execute()
    await appendEvent(trx, actor, { event_type: 'WORK_ORDER_ARCHIVED', subject_type: SUBJECT, subject_key: id, data: { code: wo.code, status: wo.status } }, now)
    return id
  })
  return readDetail(svc.db, id, todayOf(svc))
}

/** `POST work-order/{id}/restore`: back to the active list, at the end of the site queue (WORK_ORDER_RESTORED). */
export async function restoreWorkOrder(svc: Services, actor: Actor, key: string): Promise<WorkOrderDetail> {
  const now = svc.clock.now()
  const id = await svc.db.transaction().execute(async (trx) => {
    const id = await requireWorkOrderId(trx, key)
    const wo = await lockWorkOrder(trx, id)
    if (!wo) throw workOrderNotFound()
    if (!wo.archived_at) throw conflict('WORK_ORDER_NOT_ARCHIVED', 'the work order is not archived')
    await trx
      .updateTable('work_orders')
      .set({ archived_at: null, sequence: sql`nextval('work_order_sequence_seq')`, updated_at: now })
      .where('id', '=', id)
      .execute()
    await appendEvent(trx, actor, { event_type: 'WORK_ORDER_RESTORED', subject_type: SUBJECT, subject_key: id, data: { code: wo.code } }, now)
    return id
  })
  return readDetail(svc.db, id, todayOf(svc))
}
