import { sql } from 'kysely'
import { DEFAULT_PHASE_PARAMETERS, type PhaseParameters } from '../../../src/domains/process/phase-parameters'
import type { Db } from '../../db/connect'
import type { JobStatus } from '../../db/schema'
import { draftFromRevision, newTestRevision, testRevisionOf } from '../../test/revisions'

/**
 * Production data written straight into the tables for the job tests: departments, operators,
 * products with a process, work orders with their material rows and jobs shaped like the work
 * order service makes them (phase positions 1..n, phase 1 released_in_qt = the quantity, one
 * job per phase with the whole quantity), and helpers to put jobs in any state.
 */

let counter = 0
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`

export async function makeDepartment(db: Db, code = unique('D')): Promise<string> {
  const { id } = await db.insertInto('departments').values({ code, name: `Reparto ${code}` }).returning('id').executeTakeFirstOrThrow()
  return id
}

/** A user that never signs in (no usable password): operator by default. */
export async function makeUser(
  db: Db,
  opts: { username?: string; scope?: string; department_id?: string | null; enabled?: boolean; archived?: boolean; name?: string; surname?: string } = {},
): Promise<string> {
  const { id } = await db
    .insertInto('users')
    .values({
      username: opts.username ?? unique('op'),
      name: opts.name ?? 'Nome',
      surname: opts.surname ?? 'Cognome',
      email: null,
      department_id: opts.department_id ?? null,
      hourly_cost: null,
      scope: opts.scope ?? 'operator',
      enabled: opts.enabled ?? true,
      archived_at: opts.archived ? new Date() : null,
      password_hash: 'x',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

export type PhaseSpec = {
  name?: string
  department_id?: string | null
  parameters?: Partial<PhaseParameters>
  /** A bom line with serial traceability in this phase. */
  traceability?: boolean
}

export async function makeProduct(db: Db, opts: { code?: string; phases: PhaseSpec[] }): Promise<{ id: string; code: string; phases: string[] }> {
  const code = opts.code ?? unique('P')
  const operation =
    (await db.selectFrom('operations').select('id').where('name', '=', 'Jobs test operation').executeTakeFirst())?.id ??
    (await db.insertInto('operations').values({ name: 'Jobs test operation', default_phase_steps: '[]' }).returning('id').executeTakeFirstOrThrow()).id
  const { id } = await db.insertInto('products').values({ code, metadata: '[]', print_templates: '[]' }).returning('id').executeTakeFirstOrThrow()
  const phases: string[] = []
  const revision = await newTestRevision(db, id)
  for (const [i, spec] of opts.phases.entries()) {
    const steps = [
      { _key: unique('s'), type: 'instruction', title: 'Leggi', text: '', media: [], fields: [], print_templates: [] },
      { _key: unique('s'), type: 'form', title: 'Compila', text: '', media: [], fields: [crypto.randomUUID()], print_templates: [] },
    ]
    const phase = await db
      .insertInto('product_phases')
      .values({
        product_id: id,
        position: i + 1,
        name: spec.name ?? `Fase ${i + 1}`,
        operation_id: operation,
        department_id: spec.department_id ?? null,
        parameters: JSON.stringify({ ...DEFAULT_PHASE_PARAMETERS, ...spec.parameters }),
        steps: JSON.stringify(steps),
        print_templates: '[]',
        revision_id: revision,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    phases.push(phase.id)
    if (spec.traceability) {
      const item = await db.insertInto('products').values({ code: unique('C'), metadata: '[]', print_templates: '[]' }).returning('id').executeTakeFirstOrThrow()
      await db
        .insertInto('bom_lines')
        .values({ product_id: id, phase_id: phase.id, item_id: item.id, position: 1, quantity: 1, quantity_per: 'item', traceability: 'complete', revision_id: revision })
        .execute()
    }
  }
  await draftFromRevision(db, revision)
  return { id, code, phases }
}

export type MadeWorkOrder = { id: string; code: string; productId: string; phases: string[]; jobs: string[] }

/** A work order as the work order service creates it: one job per phase with the whole quantity. */
export async function makeWorkOrder(
  db: Db,
  product: { id: string; phases: string[] },
  opts: { quantity?: number; code?: string; due_by?: string | null; critical?: boolean; archived?: boolean; operator?: string | null } = {},
): Promise<MadeWorkOrder> {
  const quantity = opts.quantity ?? 10
  const code = opts.code ?? unique('WO')
  const { id } = await db
    .insertInto('work_orders')
    .values({
      code,
      product_id: product.id,
      planned_qt: quantity,
      revision_id: await testRevisionOf(db, product.id),
      due_by: opts.due_by ?? null,
      critical: opts.critical ?? false,
      archived_at: opts.archived ? new Date() : null,
      status: opts.archived ? 'completed' : 'active',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('work_order_phases')
    .values(product.phases.map((phase_id, i) => ({ work_order_id: id, phase_id, position: i + 1, released_in_qt: i === 0 ? quantity : 0 })))
    .execute()
  const steps = await db.selectFrom('product_phases').select(['id', 'steps']).where('id', 'in', product.phases).execute()
  const stepsOf = new Map(steps.map((s) => [s.id, s.steps.map((x) => ({ _key: x._key, type: x.type }))]))
  const jobs = await db
    .insertInto('jobs')
    .values(
      product.phases.map((phase_id, i) => ({
        work_order_id: id,
        phase_id,
        position: i + 1,
        quantity,
        operator_id: opts.operator ?? null,
        step_sequence: JSON.stringify(stepsOf.get(phase_id) ?? []),
      })),
    )
    .returning(['id', 'position'])
    .execute()
  return { id, code, productId: product.id, phases: product.phases, jobs: jobs.sort((a, b) => a.position - b.position).map((j) => j.id) }
}

/** Adds a job to a phase of a work order (quantities are not rebalanced: keep the sums right yourself). */
export async function addJob(db: Db, wo: MadeWorkOrder, phaseIndex: number, quantity: number, operator: string | null = null): Promise<string> {
  const template = await db.selectFrom('jobs').select(['step_sequence', 'position']).where('id', '=', wo.jobs[phaseIndex]!).executeTakeFirstOrThrow()
  const { id } = await db
    .insertInto('jobs')
    .values({
      work_order_id: wo.id,
      phase_id: wo.phases[phaseIndex]!,
      position: template.position,
      quantity,
      operator_id: operator,
      step_sequence: JSON.stringify(template.step_sequence),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

export type JobStateSpec = {
  status?: JobStatus
  operator?: string | null
  quantity?: number
  critical?: boolean
  /** Done pieces: also counted as taken and completed in the phase row. */
  completed?: number
  /** Pieces in an open batch: counted as taken in the phase row. */
  active_qt?: number
  /** Running: an open work session started `runningFor` ms ago (default 10 min). */
  running?: boolean
  released?: number
  time_spent_ms?: number
}

/**
 * Puts a job in a state the way the operator side would have left it: job columns, an open
 * batch for active pieces, an open work session when running, and the phase's material
 * counters (taken, completed, released out and the next phase's released in).
 */
export async function setJobState(db: Db, jobId: string, spec: JobStateSpec, now = new Date()): Promise<void> {
  const job = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow()
  const completed = spec.completed ?? job.completed_qt
  const active = spec.active_qt ?? job.active_qt
  const released = spec.released ?? job.released_qt
  let batchId: string | null = job.active_batch_id
  if (active > 0 && job.active_qt === 0) {
    const batch = await db.insertInto('batches').values({ job_id: jobId, qt_total: active, opened_at: now }).returning('id').executeTakeFirstOrThrow()
    batchId = batch.id
  }
  if (spec.running && !job.active) {
    await db.insertInto('work_sessions').values({ job_id: jobId, user_id: spec.operator ?? job.operator_id ?? (await anyUser(db)), started_at: new Date(now.getTime() - 600_000) }).execute()
  }
  await db
    .updateTable('jobs')
    .set({
      status: spec.status ?? (spec.running ? 'started' : job.status),
      operator_id: spec.operator === undefined ? job.operator_id : spec.operator,
      quantity: spec.quantity ?? job.quantity,
      critical: spec.critical ?? job.critical,
      completed_qt: completed,
      active_qt: active,
      released_qt: released,
      active: spec.running ?? job.active,
      active_batch_id: active > 0 ? batchId : null,
      time_spent_ms: spec.time_spent_ms ?? job.time_spent_ms,
      started_at: spec.status === 'queued' ? null : (job.started_at ?? (completed || active || spec.running ? now : null)),
      closed_at: spec.status === 'closed' ? now : null,
    })
    .where('id', '=', jobId)
    .execute()
  const dTaken = completed + active - (job.completed_qt + job.active_qt)
  const dCompleted = completed - job.completed_qt
  const dReleased = released - job.released_qt
  await db
    .updateTable('work_order_phases')
    .set({
      taken_qt: sql`taken_qt + ${dTaken}`,
      completed_qt: sql`completed_qt + ${dCompleted}`,
      released_out_qt: sql`released_out_qt + ${dReleased}`,
    })
    .where('work_order_id', '=', job.work_order_id)
    .where('phase_id', '=', job.phase_id)
    .execute()
  if (dReleased !== 0) {
    const here = await db.selectFrom('work_order_phases').select('position').where('work_order_id', '=', job.work_order_id).where('phase_id', '=', job.phase_id).executeTakeFirstOrThrow()
    await db
      .updateTable('work_order_phases')
      .set({ released_in_qt: sql`released_in_qt + ${dReleased}` })
      .where('work_order_id', '=', job.work_order_id)
      .where('position', '=', here.position + 1)
      .execute()
  }
}

async function anyUser(db: Db): Promise<string> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirstOrThrow()).id
}

export const phaseRow = (db: Db, woId: string, phaseId: string) =>
  db.selectFrom('work_order_phases').selectAll().where('work_order_id', '=', woId).where('phase_id', '=', phaseId).executeTakeFirstOrThrow()

export const jobRow = (db: Db, id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

export const eventsOf = (db: Db, type: string) => db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id').execute()

export async function setSettings(db: Db, values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
      .execute()
  }
}
