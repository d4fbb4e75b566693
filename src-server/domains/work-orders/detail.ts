/**
 * One work order as `GET work-order/{id}` shows it: its list row, notes and dates, its phases
 * (material flow) and their jobs. The use cases that change a work order answer with the same
 * reading (readDetail), after their transaction.
 */
import { isReady } from '../../../src/domains/jobs/rules'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import type { WorkOrderDetail } from '../../../src/domains/work-orders/schemas'
import type { Services } from '../../context'
import type { Db } from '../../db/connect'
import { ms, msOrNull } from '../../db/epoch'
import { edgeDate, filteredWorkOrders, selectListItems, workOrderJobs, workOrderPhases } from './queries'
import { requireWorkOrderId, todayOf, workOrderNotFound } from './shared'

/** `GET work-order/{id}`: by key or by code, archived ones too; with its phases and jobs. */
export async function getWorkOrder(svc: Pick<Services, 'db' | 'clock'>, key: string): Promise<WorkOrderDetail> {
  const id = await requireWorkOrderId(svc.db, key)
  return readDetail(svc.db, id, todayOf(svc))
}

export async function readDetail(db: Db, id: string, today: string): Promise<WorkOrderDetail> {
  const base = filteredWorkOrders(db, {}, today).clearWhere().where('w.id', '=', id)
  const [item, extra, phases, jobs] = await Promise.all([
    selectListItems(base, today).executeTakeFirst(),
    db
      .selectFrom('work_orders as w')
      .select([
        'w.notes',
        edgeDate('w.release_date').as('release_date'),
        msOrNull('w.closed_at').as('closed_at'),
        ms('w.created_at').as('created_at'),
        ms('w.updated_at').as('updated_at'),
      ])
      .where('w.id', '=', id)
      .executeTakeFirst(),
    workOrderPhases(db, id).execute(),
    workOrderJobs(db, id).execute(),
  ])
  if (!item || !extra) throw workOrderNotFound()
  return {
    ...item,
    ...extra,
    phases: phases.map((ph) => ({
      _key: ph.phase_id,
      position: ph.position,
      name: ph.name,
      department_key: ph.department_id,
      production_batch_qt: withPhaseDefaults(ph.parameters).production_batch_qt,
      released_in_qt: ph.released_in_qt,
      taken_qt: ph.taken_qt,
      completed_qt: ph.completed_qt,
      released_out_qt: ph.released_out_qt,
      jobs: jobs
        .filter((j) => j.phase_id === ph.phase_id)
        .map((j) => ({
          _key: j.id,
          phase_key: j.phase_id,
          operator_key: j.operator_id,
          operator_name: j.operator_name,
          quantity: j.quantity,
          completed_qt: j.completed_qt,
          active_qt: j.active_qt,
          status: j.status,
          active: j.active,
          ready: isReady(j, ph),
          critical: j.critical && j.status !== 'closed',
        })),
    })),
  }
}
