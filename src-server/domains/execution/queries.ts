import { type Selectable, sql } from 'kysely'
import type { Batch, FormDataEntry, StepData } from '../../../src/domains/execution/schemas'
import { type PhaseParameters, withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import type { Step } from '../../../src/domains/process/steps'
import type { RevisionField } from '../../../src/domains/revisions/schemas'
import type { Db } from '../../db/connect'
import type { JobsTable, WorkOrderPhasesTable } from '../../db/schema'
import { ms, msOrNull } from '../../db/epoch'

/** Kysely fragments of the execution engine: reads and row locks, no rules. */

export type JobRow = Selectable<JobsTable>
export type MaterialRow = Selectable<WorkOrderPhasesTable>


/** The job's work order and phase, unlocked: what to lock next (material rows come before job rows). */
export function jobPlace(db: Db, jobId: string) {
  return db.selectFrom('jobs').select(['id', 'work_order_id', 'phase_id']).where('id', '=', jobId).executeTakeFirst()
}

/** The work order and phase of several jobs, unlocked (one query). */
export function jobPlaces(db: Db, jobIds: readonly string[]) {
  return db.selectFrom('jobs').select(['id', 'work_order_id', 'phase_id']).where('id', 'in', [...jobIds]).execute()
}

/** The job a batch belongs to, unlocked. */
export function batchPlace(db: Db, batchId: string) {
  return db
    .selectFrom('batches as b')
    .innerJoin('jobs as j', 'j.id', 'b.job_id')
    .select(['b.id', 'b.job_id', 'j.work_order_id', 'j.phase_id'])
    .where('b.id', '=', batchId)
    .executeTakeFirst()
}

/**
 * Locks the work order row, then the material rows of a job's phase and of the next phase (by
 * position): the lock order of every production writer (work order, phases by position, jobs;
 * work-orders/progress.ts refreshWorkOrderProgress, src/domains/jobs/rules.ts).
 * Returns [this phase, next phase | undefined].
 */
export async function lockMaterial(db: Db, workOrderId: string, phaseId: string): Promise<[MaterialRow, MaterialRow | undefined]> {
  await db.selectFrom('work_orders').select('id').where('id', '=', workOrderId).forUpdate().executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom('work_order_phases')
    .selectAll()
    .where('work_order_id', '=', workOrderId)
    .where('position', '>=', (eb) =>
      eb.selectFrom('work_order_phases').select('position').where('work_order_id', '=', workOrderId).where('phase_id', '=', phaseId),
    )
    .orderBy('position')
    .limit(2)
    .forUpdate()
    .execute()
  const own = rows[0]
  if (!own || own.phase_id !== phaseId) throw new Error(`work order ${workOrderId} has no material row for phase ${phaseId}`)
  return [own, rows[1]]
}

/** Locks the work order row and all its material rows (by position): for actions on several phases at once. */
export async function lockAllMaterial(db: Db, workOrderId: string) {
  const workOrder = await db.selectFrom('work_orders').select(['status', 'archived_at']).where('id', '=', workOrderId).forUpdate().executeTakeFirstOrThrow()
  const rows = await db.selectFrom('work_order_phases').selectAll().where('work_order_id', '=', workOrderId).orderBy('position').forUpdate().execute()
  return { workOrder, rows }
}

/** The material row of a job's phase, unlocked (reads). */
export function materialOf(db: Db, workOrderId: string, phaseId: string) {
  return db.selectFrom('work_order_phases').selectAll().where('work_order_id', '=', workOrderId).where('phase_id', '=', phaseId).executeTakeFirst()
}

export function lockJob(db: Db, jobId: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', jobId).forUpdate().executeTakeFirst()
}

export function lockJobs(db: Db, jobIds: readonly string[]) {
  return db.selectFrom('jobs').selectAll().where('id', 'in', [...jobIds]).orderBy('id').forUpdate().execute()
}

export type PhaseInfo = { id: string; product_id: string; position: number; parameters: PhaseParameters; steps: Step[] }

export async function phaseInfo(db: Db, phaseId: string): Promise<PhaseInfo> {
  const row = await db
    .selectFrom('product_phases')
    .select(['id', 'product_id', 'position', 'parameters', 'steps'])
    .where('id', '=', phaseId)
    .executeTakeFirstOrThrow()
  return { ...row, parameters: withPhaseDefaults(row.parameters) }
}

export async function phaseInfos(db: Db, phaseIds: readonly string[]): Promise<Map<string, PhaseInfo>> {
  if (phaseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('product_phases')
    .select(['id', 'product_id', 'position', 'parameters', 'steps'])
    .where('id', 'in', [...new Set(phaseIds)])
    .execute()
  return new Map(rows.map((r) => [r.id, { ...r, parameters: withPhaseDefaults(r.parameters) }]))
}

/** The phase parameters of the jobs an operator runs now, but one. */
export function otherRunningPhases(db: Db, operatorId: string, exceptJobId: string) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
    .select('ph.parameters')
    .where('j.operator_id', '=', operatorId)
    .where('j.active', '=', true)
    .where('j.id', '<>', exceptJobId)
    .execute()
}

export function openWorkSession(db: Db, jobId: string) {
  return db.selectFrom('work_sessions').selectAll().where('job_id', '=', jobId).where('ended_at', 'is', null).executeTakeFirst()
}

/** A batch with its step data, as the API shows it. */
export async function readBatch(db: Db, batchId: string): Promise<Batch | undefined> {
  const batch = await db
    .selectFrom('batches as b')
    .select(['b.id as _key', 'b.job_id as job_key', 'b.number', 'b.qt_total', 'b.status', ms('b.opened_at').as('opened_at'), msOrNull('b.completed_at').as('completed_at')])
    .where('b.id', '=', batchId)
    .executeTakeFirst()
  if (!batch) return undefined
  const steps = await db
    .selectFrom('batch_steps')
    .select([
      'step_key as _key',
      'type',
      'position',
      'done',
      'critical',
      'form_data',
      'execution_record_key',
      'done_by',
      msOrNull('done_at').as('done_at'),
    ])
    .where('batch_id', '=', batchId)
    .orderBy('position')
    .execute()
  return { ...batch, step_data: steps.map((s) => ({ ...s, form_data: s.form_data as FormDataEntry[] })) as StepData[] }
}

/** Step rows of a batch, locked, in order. */
export function lockBatchSteps(db: Db, batchId: string) {
  return db.selectFrom('batch_steps').selectAll().where('batch_id', '=', batchId).orderBy('position').forUpdate().execute()
}

export function lockBatch(db: Db, batchId: string) {
  return db.selectFrom('batches').selectAll().where('id', '=', batchId).forUpdate().executeTakeFirst()
}

/** Bom lines of a phase with their component's code. */
export function phaseBomLines(db: Db, phaseId: string) {
  return db
    .selectFrom('bom_lines as l')
    .innerJoin('products as p', 'p.id', 'l.item_id')
    .select(['l.id as _key', 'l.item_id as item_key', 'p.code as item_code', 'p.description as item_description', 'l.quantity', 'l.quantity_per', 'l.traceability', 'l.declared_serials'])
    .where('l.phase_id', '=', phaseId)
    .orderBy('l.position')
    .orderBy('l.id')
    .execute()
}

/**
 * Form field definitions by key as the phase's revision released them (docs/revisions.md): a
 * later change in the field library does not reach running work. A field the snapshot lacks
 * (a phase outside any revision) is read from the library, archived ones included.
 */
export async function fieldDefinitions(db: Db, phaseId: string, keys: readonly string[]): Promise<RevisionField[]> {
  if (keys.length === 0) return []
  const row = await db
    .selectFrom('product_phases as ph')
    .innerJoin('product_revisions as r', 'r.id', 'ph.revision_id')
    .select('r.form_fields')
    .where('ph.id', '=', phaseId)
    .executeTakeFirst()
  const released = row?.form_fields ?? {}
  const missing = keys.filter((k) => !released[k])
  const library = missing.length
    ? await db.selectFrom('form_fields').select(['id as _key', 'name', 'type', 'options', 'multiple', 'mandatory', 'help_text']).where('id', 'in', missing).execute()
    : []
  return [...keys.flatMap((k) => (released[k] ? [released[k]] : [])), ...library]
}

export function mediaRows(db: Db, keys: readonly string[]) {
  if (keys.length === 0) return Promise.resolve([])
  return db.selectFrom('media').select(['id as _key', 'filename', 'content_type']).where('id', 'in', [...keys]).execute()
}

/** Everything the work session screen shows about a job's place: work order, product, phase. */
export function workSessionHead(db: Db, jobId: string) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('work_orders as w', 'w.id', 'j.work_order_id')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .innerJoin('product_revisions as r', 'r.id', 'w.revision_id')
    .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
    .innerJoin('operations as o', 'o.id', 'ph.operation_id')
    .innerJoin('work_order_phases as m', (join) => join.onRef('m.work_order_id', '=', 'j.work_order_id').onRef('m.phase_id', '=', 'j.phase_id'))
    .selectAll('j')
    .select([
      'w.code as wo_code',
      'w.planned_qt as wo_planned_qt',
      'w.completed_qt as wo_completed_qt',
      'w.status as wo_status',
      'w.line as wo_line',
      'w.notes as wo_notes',
      'w.critical as wo_critical',
      'w.revision_id as wo_revision_key',
      'r.number as wo_revision_number',
      sql<string | null>`to_char(w.start_from, 'YYYY/MM/DD')`.as('wo_start_from'),
      sql<string | null>`to_char(w.due_by, 'YYYY/MM/DD')`.as('wo_due_by'),
      'p.id as product_key',
      'p.code as product_code',
      'p.description as product_description',
      'ph.name as phase_name',
      'ph.department_id as phase_department_key',
      'ph.production_notes as phase_production_notes',
      'ph.parameters as phase_parameters',
      'ph.steps as phase_steps',
      'o.name as operation_name',
      'm.position as phase_position',
      'm.released_in_qt',
      'm.taken_qt',
      'm.completed_qt as phase_completed_qt',
      'm.released_out_qt',
      sql<number>`(select count(*)::int from work_order_phases m2 where m2.work_order_id = j.work_order_id)`.as('phase_count'),
      sql<number>`(select count(*)::int from work_order_phases m2 where m2.work_order_id = j.work_order_id and m2.position < m.position)`.as('phases_before'),
      sql<number>`(select count(*)::int from batches b where b.job_id = j.id and b.status = 'completed')`.as('batches_completed'),
    ])
    .where('j.id', '=', jobId)
    .executeTakeFirst()
}
