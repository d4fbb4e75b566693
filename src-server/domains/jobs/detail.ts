/**
 * One job as `GET job/{key}` shows it: its list row with the phase parameters, step sequence,
 * work order, product and material. Corrections answer with the same reading.
 */
import { sql } from 'kysely'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import type { JobDetail, JobRow } from '../../../src/domains/jobs/schemas'
import type { Services } from '../../context'
import { jobsJoined, selectJobRow } from './queries'
import { today, unknownJob } from './shared'

/** `GET job/{id}`: the row plus phase parameters, step sequence, work order, product and material. */
export async function getJob(svc: Pick<Services, 'db' | 'clock'>, key: string): Promise<JobDetail> {
  const row = await selectJobRow(jobsJoined(svc.db), today(svc))
    .select([
      'j.step_sequence',
      'j.notes',
      'j.active_batch_id as active_batch_key',
      sql<unknown>`(select ph.parameters from product_phases ph where ph.id = j.phase_id)`.as('phase_parameters'),
      sql<string>`(select ph.production_notes from product_phases ph where ph.id = j.phase_id)`.as('phase_production_notes'),
      'wo.planned_qt as wo_planned_qt',
      'wo.completed_qt as wo_completed_qt',
      'wo.start_from as wo_start_from',
      'wo.line as wo_line',
      'wo.status as wo_status',
      'wo.critical as wo_critical',
      'wo.notes as wo_notes',
      sql<string>`(select p.description from products p where p.id = wo.product_id)`.as('product_description'),
      sql<boolean>`exists (select 1 from bom_lines b where b.phase_id = j.phase_id and b.traceability <> 'none')`.as('has_traceability'),
    ])
    .where('j.id', '=', key)
    .executeTakeFirst()
  if (!row) throw unknownJob()
  const r = row as typeof row & JobRow
  const wop = await svc.db
    .selectFrom('work_order_phases')
    .select(['released_in_qt', 'taken_qt', 'completed_qt', 'released_out_qt'])
    .where('work_order_id', '=', r.work_order_key)
    .where('phase_id', '=', r.phase_key)
    .executeTakeFirst()
  const base: JobRow = Object.fromEntries(Object.keys(JOB_ROW_KEYS).map((k) => [k, (r as Record<string, unknown>)[k]])) as JobRow
  return {
    ...base,
    step_sequence: row.step_sequence,
    notes: row.notes,
    active_batch_key: row.active_batch_key,
    has_traceability: row.has_traceability,
    phase: {
      _key: r.phase_key,
      name: r.phase_name,
      position: r.phase_position,
      department_key: r.department_key,
      parameters: withPhaseDefaults(row.phase_parameters),
      production_notes: row.phase_production_notes,
    },
    work_order: {
      _key: r.work_order_key,
      code: r.work_order_code,
      planned_qt: row.wo_planned_qt,
      completed_qt: row.wo_completed_qt,
      start_from: row.wo_start_from,
      due_by: r.due_by,
      line: row.wo_line,
      status: row.wo_status,
      critical: row.wo_critical,
      notes: row.wo_notes,
    },
    product: { _key: r.product_key, code: r.product_code, description: row.product_description },
    material: {
      released_in_qt: wop?.released_in_qt ?? 0,
      taken_qt: wop?.taken_qt ?? 0,
      completed_qt: wop?.completed_qt ?? 0,
      released_out_qt: wop?.released_out_qt ?? 0,
      available_qt: r.available_qt,
    },
  }
}

/** The JobRow keys, to cut a detail row back to a list row. */
const JOB_ROW_KEYS: Record<keyof JobRow, true> = {
  _key: true,
  status: true,
  active: true,
  quantity: true,
  completed_qt: true,
  active_qt: true,
  remaining_qt: true,
  available_qt: true,
  ready: true,
  critical: true,
  parallel_job_allowed: true,
  late: true,
  operator_key: true,
  operator_username: true,
  operator_name: true,
  work_order_key: true,
  work_order_code: true,
  work_order_sequence: true,
  due_by: true,
  product_key: true,
  product_code: true,
  revision_number: true,
  phase_key: true,
  phase_name: true,
  phase_position: true,
  department_key: true,
  department_name: true,
  queue_position: true,
  time_spent_ms: true,
  started_at: true,
  closed_at: true,
}
