/**
 * A work order's completed quantity and status follow its last phase. Called by the operator and
 * job sides (execution, jobs) and by the work order changes that move the planned quantity or
 * reopen it, inside their transaction.
 */
import { sql } from 'kysely'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { appendEvent } from '../events/service'
import { SUBJECT, workOrderNotFound } from './shared'

/**
 * Recomputes a work order's completed quantity from its last phase and its status:
 * active -> completed when the last phase completed the planned quantity (WORK_ORDER_COMPLETED),
 * completed -> active when the planned quantity grew past it. Closed work orders keep their status.
 * For the operator side: call it in the transaction that changed work_order_phases.completed_qt,
 * after locking the work order first (lock order: work order, phases, jobs; see lockWorkOrder).
 */
export async function refreshWorkOrderProgress(
  trx: Db,
  woId: string,
  opts: { actor?: Actor | null; now?: Date } = {},
): Promise<{ completed_qt: number; status: 'active' | 'completed' | 'closed'; changed: boolean }> {
  const wo = await trx
    .selectFrom('work_orders')
    .select(['id', 'code', 'planned_qt', 'completed_qt', 'status'])
    .where('id', '=', woId)
    .forUpdate()
    .executeTakeFirst()
  if (!wo) throw workOrderNotFound()
  const last = await trx
    .selectFrom('work_order_phases')
    .select('completed_qt')
    .where('work_order_id', '=', woId)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst()
  const completed = last?.completed_qt ?? 0
  let status = wo.status
  if (wo.status === 'active' && completed >= wo.planned_qt) status = 'completed'
  else if (wo.status === 'completed' && completed < wo.planned_qt) status = 'active'
  const changed = completed !== wo.completed_qt || status !== wo.status
  if (!changed) return { completed_qt: completed, status, changed }
  const now = opts.now
  await trx
    .updateTable('work_orders')
    .set({ completed_qt: completed, status, ...(now ? { updated_at: now } : { updated_at: sql`now()` }) })
    .where('id', '=', woId)
    .execute()
  if (status !== wo.status) {
    await appendEvent(
      trx,
      opts.actor ?? null,
      {
        event_type: status === 'completed' ? 'WORK_ORDER_COMPLETED' : 'WORK_ORDER_REOPENED',
        subject_type: SUBJECT,
        subject_key: woId,
        data: { code: wo.code, completed_qt: completed, planned_qt: wo.planned_qt, ...(status === 'active' ? { reason: 'quantity' } : {}) },
      },
      now,
    )
  }
  return { completed_qt: completed, status, changed }
}
