import { sql } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import {
  type CorrectionRefusal,
  calendarDate,
  correctionRefusal,
  minimumQuantity,
  releaseDue,
} from '../../../src/domains/jobs/rules'
import {
  type AssignInput,
  JOB_PAGE_SIZE_DEFAULT,
  type JobAssignment,
  type JobDetail,
  type JobListInput,
  type JobPage,
  type JobRow,
  type JobUpdateInput,
  MAX_QUEUE_JOBS,
  type OperatorQueue,
  type OperatorQueueInput,
  type OperatorRow,
  type RebalanceInput,
  type RebalanceResult,
} from '../../../src/domains/jobs/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import type { Selectable } from 'kysely'
import type { JobsTable, WorkOrderPhasesTable } from '../../db/schema'
import { AppError, conflict, forbidden, notFound, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { readSettings } from '../settings/queries'
import { phaseInfo } from '../execution/queries'
import { refreshWorkOrderProgress } from '../work-orders/progress'
import {
  afterCursor,
  applyListFilters,
  eligibleOperators,
  referencedJobs,
  type JobListFilters,
  jobsJoined,
  phaseHasTraceability,
  searchCandidates,
  selectJobRow,
  siteOrder,
} from './queries'
import { invalidField } from '../../input-issues'

/**
 * The job side of production planning (SPEC 4, 5, 7; DOMAIN.md "Work orders and jobs",
 * "Material flow between phases"): the job list with its filters, assignment, rebalancing,
 * operator queues and production corrections. Every change locks what it reads, in one order:
 * work_order_phases rows (by position), then job rows (by key), and writes its event in the
 * same transaction.
 */

type Job = Selectable<JobsTable>
type PhaseRow = Selectable<WorkOrderPhasesTable>

const today = (svc: Pick<Services, 'clock'>) => calendarDate(svc.clock.now())

const unknownJob = () => notFound('UNKNOWN_JOB', 'job not found')
const unknownWorkOrder = () => notFound('UNKNOWN_WORK_ORDER', 'work order not found')
const archived = () => conflict('WORK_ORDER_ARCHIVED', 'the work order is archived')
const jobRunning = () => conflict('JOB_RUNNING', 'the job is running: pause it first')
const jobClosed = () => conflict('JOB_CLOSED', 'the job is closed')
const wrongUser = () => notFound('WRONG_USER_ID', 'wrong user ID')
const notOperator = () => unprocessable('WRONG_OPERATOR', 'the user is not an active operator')
const unassignedRefused = () => unprocessable('UNASSIGNED_JOBS_NOT_ALLOWED', 'the settings do not allow jobs without an operator')

// ---------------------------------------------------------------------------------------------
// Reading

type CursorValue = { sequence: number; position: number; key: string }

function encodeCursor(row: JobRow): string {
  return Buffer.from(JSON.stringify([row.work_order_sequence, row.phase_position, row._key])).toString('base64url')
}

function decodeCursor(cursor: string): CursorValue {
  try {
    const [sequence, position, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Number.isSafeInteger(sequence) && Number.isInteger(position) && Math.abs(position) < 2 ** 31 && typeof key === 'string' && isUuid(key)) {
      return { sequence, position, key }
    }
  } catch {}
  throw invalidField({ path: 'cursor', kind: 'invalid', message: 'not a cursor this list gave' })
}

/**
 * `GET job` / `jobs.list`: one page in site queue order, keyset-paged (the cost of a page does
 * not grow with the number of jobs). Filters combine with AND (rules.ts JOB_FILTERS).
 */
export async function listJobs(svc: Pick<Services, 'db' | 'clock'>, input: JobListInput): Promise<JobPage> {
  const limit = input.limit ?? JOB_PAGE_SIZE_DEFAULT
  const day = today(svc)
  const candidates = input.search ? await searchCandidates(svc.db, input.search) : []
  let q = applyListFilters(jobsJoined(svc.db), input, day, candidates)
  // One operator's jobs page through their own index (jobs.wo_sequence mirrors wo.sequence).
  const byJob = Boolean(input.operator_key) && !input.include_closed
  if (input.cursor) q = afterCursor(q, decodeCursor(input.cursor), byJob)
  const rows = await siteOrder(selectJobRow(q, day), byJob)
    .limit(limit + 1)
    .execute()
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return { rows: page, next_cursor: more ? encodeCursor(page[page.length - 1]!) : null }
}

/** Rows of the given jobs (any state), in site order. */
async function jobRows(db: Db, day: string, keys: readonly string[]): Promise<JobRow[]> {
  if (keys.length === 0) return []
  return siteOrder(selectJobRow(jobsJoined(db).where('j.id', 'in', keys), day)).execute()
}

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

/** Operators jobs can be assigned to (optionally of one department), by surname, name, username. */
export function listOperators(svc: Pick<Services, 'db'>, opts: { department_key?: string } = {}): Promise<OperatorRow[]> {
  let q = eligibleOperators(svc.db)
  if (opts.department_key) q = q.where('u.department_id', '=', opts.department_key)
  return q.orderBy(sql`lower(u.surname)`).orderBy(sql`lower(u.name)`).orderBy(sql`lower(u.username)`).execute()
}

// ---------------------------------------------------------------------------------------------
// Shared checks

/**
 * The operators jobs may be given (one query, rows locked FOR SHARE): each exists (else
 * WRONG_USER_ID), with the operator permission, enabled, not archived; the first failing key
 * (in key order) names the refusal.
 */
async function checkedOperators(db: Db, keys: readonly string[]): Promise<void> {
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

async function lockedWorkOrder(db: Db, key: string) {
  // Lock order (shared with the work order service): work order, phases, jobs.
  const wo = await db.selectFrom('work_orders').select(['id', 'archived_at', 'planned_qt']).where('id', '=', key).forUpdate().executeTakeFirst()
  if (!wo) throw unknownWorkOrder()
  if (wo.archived_at !== null) throw archived()
  return wo
}

/** The phase row of a work order and the one after it (downstream), locked in position order. */
async function lockedPhases(db: Db, workOrderId: string, phaseId: string): Promise<{ phase: PhaseRow; next: PhaseRow | null }> {
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
async function moveReleased(db: Db, phase: PhaseRow, next: PhaseRow | null, qt: number) {
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

// ---------------------------------------------------------------------------------------------
// Assignment

/**
 * `POST job/assign` (production): gives jobs to an eligible operator, or takes them back
 * (operator null) where the settings allow unassigned jobs. A running job keeps its operator
 * (JOB_RUNNING), a closed one is not changed (JOB_CLOSED). All or nothing; one event per job.
 */
export async function assignJobs(svc: Services, actor: Actor, input: AssignInput): Promise<JobRow[]> {
  const keys = [...new Set(input.job_keys)].sort()
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    if (input.operator_key === null) {
      if (!(await readSettings(trx)).allow_unassigned_jobs) throw unassignedRefused()
    } else await checkedOperators(trx, [input.operator_key])
    const jobs = await trx
      .selectFrom('jobs as j')
      .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
      .select(['j.id', 'j.operator_id', 'j.status', 'j.active', 'j.work_order_id', 'j.phase_id', 'wo.archived_at'])
      .where('j.id', 'in', keys)
      .orderBy('j.id')
      .forUpdate('j')
      .execute()
    if (jobs.length !== keys.length) throw unknownJob()
    const changed = jobs.filter((j) => j.operator_id !== input.operator_key)
    for (const j of changed) {
      if (j.archived_at !== null) throw archived()
      if (j.status === 'closed') throw jobClosed()
      if (j.active) throw jobRunning()
    }
    if (changed.length === 0) return
    await trx
      .updateTable('jobs')
      .set({ operator_id: input.operator_key, queue_position: null, updated_at: now })
      .where(
        'id',
        'in',
        changed.map((j) => j.id),
      )
      .execute()
    for (const j of changed) {
      await appendEvent(
        trx,
        actor,
        {
          event_type: input.operator_key ? 'JOB_ASSIGNED' : 'JOB_UNASSIGNED',
          subject_type: 'job',
          subject_key: j.id,
          data: { work_order_key: j.work_order_id, phase_key: j.phase_id, operator_key: input.operator_key, previous_operator_key: j.operator_id },
        },
        now,
      )
    }
  })
  return jobRows(svc.db, today(svc), keys)
}

// ---------------------------------------------------------------------------------------------
// Rebalancing (SPEC 5)

/**
 * `POST job/rebalance`: the new distribution of one phase of a work order among existing and
 * new jobs. Serialised per phase by locking its work_order_phases row, then its jobs.
 */
export async function rebalancePhase(svc: Services, actor: Actor, input: RebalanceInput): Promise<RebalanceResult> {
  const listed = input.jobs.filter((r) => r.job_key !== undefined).map((r) => r.job_key!)
  if (new Set(listed).size !== listed.length) throw invalidField({ path: 'jobs', kind: 'duplicate', message: 'a job is listed twice' })
  const now = svc.clock.now()
  const result = await svc.db.transaction().execute(async (trx) => {
    const settings = await readSettings(trx)
    await lockedWorkOrder(trx, input.work_order_key)
    const { phase, next } = await lockedPhases(trx, input.work_order_key, input.phase_key)
    const jobs = await trx
      .selectFrom('jobs')
      .selectAll()
      .where('work_order_id', '=', input.work_order_key)
      .where('phase_id', '=', input.phase_key)
      .orderBy('id')
      .forUpdate()
      .execute()
    const byKey = new Map(jobs.map((j) => [j.id, j]))
    for (const key of listed) if (!byKey.has(key)) throw unprocessable('UNKNOWN_JOB', 'a job is not one of this phase of the work order', { job_key: key })

    const wanted = new Map(input.jobs.filter((r) => r.job_key).map((r) => [r.job_key!, r]))
    const newRows = input.jobs.filter((r) => r.job_key === undefined && r.quantity > 0)
    if (newRows.some((r) => r.operator_key === null)) {
      throw unprocessable('NEW_JOBS_NEED_OPERATOR', 'assign an operator to the new jobs')
    }
    const total = jobs.reduce((s, j) => s + j.quantity, 0)
    const after = jobs.reduce((s, j) => s + (wanted.get(j.id)?.quantity ?? j.quantity), 0) + newRows.reduce((s, r) => s + r.quantity, 0)
    if (after !== total) throw unprocessable('QUANTITIES_MISMATCH', 'quantities mismatch', { expected: total, actual: after })

    type Change = { job: Job; quantity: number; operator: string | null }
    const changes: Change[] = []
    for (const job of jobs) {
      const w = wanted.get(job.id)
      if (!w) continue
      const operatorChanges = w.operator_key !== job.operator_id
      if (w.quantity === job.quantity && !operatorChanges) continue
      if (job.status === 'closed') throw conflict('JOB_CLOSED', 'a closed job cannot be changed', { job_key: job.id })
      if (w.quantity < minimumQuantity(job)) {
        throw unprocessable('JOB_BELOW_DONE', "a job's done and active pieces cannot be moved away", {
          job_key: job.id,
          minimum: minimumQuantity(job),
        })
      }
      // Taking the last remaining pieces of a running job would close it under the operator.
      if (job.active && (operatorChanges || (w.quantity === job.completed_qt && job.active_qt === 0))) {
        throw conflict('JOB_RUNNING', 'the job is running: pause it first', { job_key: job.id })
      }
      if (operatorChanges && w.operator_key === null && !settings.allow_unassigned_jobs) throw unassignedRefused()
      changes.push({ job, quantity: w.quantity, operator: w.operator_key })
    }
    const operators = new Set<string>()
    for (const c of changes) if (c.operator && c.operator !== c.job.operator_id) operators.add(c.operator)
    for (const r of newRows) operators.add(r.operator_key!)
    await checkedOperators(trx, [...operators])
    if (changes.length === 0 && newRows.length === 0) return null

    const removed: string[] = []
    const closed: string[] = []
    const created: string[] = []
    const { parameters: params } = await phaseInfo(trx, input.phase_key)
    const deletable = (c: Change) => c.quantity === 0 && c.job.completed_qt === 0 && c.job.active_qt === 0 && c.job.status === 'queued'
    const referenced = await referencedJobs(trx, changes.filter(deletable).map((c) => c.job.id))
    for (const change of changes) {
      const { job, quantity, operator } = change
      if (deletable(change) && !referenced.has(job.id)) {
        await trx.deleteFrom('jobs').where('id', '=', job.id).execute()
        removed.push(job.id)
        continue
      }
      const closes = quantity === job.completed_qt && job.active_qt === 0
      const due = closes ? releaseDue(params, { completed_qt: job.completed_qt, released_qt: job.released_qt, closed: true }) : 0
      await trx
        .updateTable('jobs')
        .set({
          quantity,
          operator_id: operator,
          ...(operator !== job.operator_id ? { queue_position: null } : {}),
          ...(closes ? { status: 'closed', closed_at: now, active: false, released_qt: job.released_qt + due } : {}),
          updated_at: now,
        })
        .where('id', '=', job.id)
        .execute()
      if (closes) {
        closed.push(job.id)
        await moveReleased(trx, phase, next, due)
      }
    }
    if (newRows.length) {
      const template = jobs[0]
      const stepSequence = template
        ? JSON.stringify(template.step_sequence)
        : JSON.stringify(
            ((await trx.selectFrom('product_phases').select('steps').where('id', '=', input.phase_key).executeTakeFirstOrThrow()).steps ?? []).map((s) => ({
              _key: s._key,
              type: s.type,
            })),
          )
      const inserted = await trx
        .insertInto('jobs')
        .values(
          newRows.map((r) => ({
            work_order_id: input.work_order_key,
            phase_id: input.phase_key,
            position: template?.position ?? phase.position,
            quantity: r.quantity,
            operator_id: r.operator_key,
            step_sequence: stepSequence,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute()
      created.push(...inserted.map((r) => r.id))
    }
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'JOBS_REBALANCED',
        subject_type: 'work_order',
        subject_key: input.work_order_key,
        data: {
          phase_key: input.phase_key,
          total,
          before: jobs.map((j) => ({ job_key: j.id, quantity: j.quantity, operator_key: j.operator_id })),
          changed: changes.map((c) => ({ job_key: c.job.id, quantity: c.quantity, operator_key: c.operator })),
          created: created.map((key, i) => ({ job_key: key, quantity: newRows[i]!.quantity, operator_key: newRows[i]!.operator_key })),
          removed,
          closed,
        },
      },
      now,
    )
    return { created, removed, closed }
  })
  const rows = await siteOrder(
    selectJobRow(jobsJoined(svc.db), today(svc)).where('j.work_order_id', '=', input.work_order_key).where('j.phase_id', '=', input.phase_key),
  ).execute()
  return { jobs: rows, created: result?.created ?? [], removed: result?.removed ?? [], closed: result?.closed ?? [] }
}

// ---------------------------------------------------------------------------------------------
// Operator queues

/** Queue order: the operator's own order when independent (and the settings allow it), else site order. */
function queueRows(db: Db, day: string, independentAllowed: boolean) {
  const independent = independentAllowed ? sql<boolean>`coalesce(oq.independent, false)` : sql<boolean>`false`
  return selectJobRow(
    jobsJoined(db)
      .leftJoin('operator_queues as oq', 'oq.user_id', 'j.operator_id')
      .where('wo.archived_at', 'is', null)
      .where('j.status', '<>', 'closed'),
    day,
  ).select(
    sql<number>`row_number() over (partition by j.operator_id order by case when ${independent} then j.queue_position end asc nulls last, wo.sequence, j.position, j.id)`.as(
      'rn',
    ),
  )
}

const stripRn = (rows: (JobRow & { rn: number })[]): JobRow[] => rows.map(({ rn: _rn, ...row }) => row)

/**
 * `GET job-assignment` (SPEC 3 Job assignment): each operator's open jobs in queue order and
 * the unassigned ones (in site order, where the settings allow unassigned jobs). Production reads
 * every operator (or the one named by `user_key`); an operator reads only their own queue.
 */
export async function getJobAssignment(svc: Services, actor: Actor, input: { user_key?: string }): Promise<JobAssignment> {
  const production = hasScope(actor.scope, 'production')
  const userKey = input.user_key ?? (production ? undefined : actor.userId)
  if (!production && userKey !== actor.userId) throw forbidden('OWN_QUEUE_ONLY', 'operators read their own queue only')
  const settings = await readSettings(svc.db)
  const day = today(svc)
  let operators: OperatorRow[]
  if (userKey) {
    const one = await svc.db
      .selectFrom('users as u')
      .leftJoin('operator_queues as oq', 'oq.user_id', 'u.id')
      .select([
        'u.id as _key',
        'u.username',
        'u.name',
        'u.surname',
        'u.department_id as department_key',
        sql<boolean>`coalesce(oq.independent, false)`.as('independent'),
      ])
      .where('u.id', '=', userKey)
      .executeTakeFirst()
    if (!one) throw wrongUser()
    operators = [one]
  } else {
    // Eligible operators, and anyone else still holding open jobs (disabled since, say).
    const holders = svc.db
      .selectFrom('jobs as j')
      .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
      .select('j.operator_id')
      .where('j.status', '<>', 'closed')
      .where('wo.archived_at', 'is', null)
      .where('j.operator_id', 'is not', null)
    const eligible = await listOperators(svc)
    const others = await svc.db
      .selectFrom('users as u')
      .leftJoin('operator_queues as oq', 'oq.user_id', 'u.id')
      .select([
        'u.id as _key',
        'u.username',
        'u.name',
        'u.surname',
        'u.department_id as department_key',
        sql<boolean>`coalesce(oq.independent, false)`.as('independent'),
      ])
      .where('u.id', 'in', holders as never)
      .where(
        'u.id',
        'not in',
        eligible.length ? eligible.map((o) => o._key) : ['00000000-0000-0000-0000-000000000000'],
      )
      .execute()
    operators = [...eligible, ...others]
  }
  const inner = queueRows(svc.db, day, settings.independent_queue_reordering)
  const limited = (userKey ? inner.where('j.operator_id', '=', userKey) : inner.where('j.operator_id', 'is not', null)).as('q')
  const assigned = (await svc.db
    .selectFrom(limited)
    .selectAll()
    .where('q.rn', '<=', MAX_QUEUE_JOBS + 1)
    .orderBy('q.operator_key')
    .orderBy('q.rn')
    .execute()) as unknown as (JobRow & { rn: number })[]
  const byOperator = new Map<string, (JobRow & { rn: number })[]>()
  for (const row of assigned) {
    const list = byOperator.get(row.operator_key!) ?? []
    list.push(row)
    byOperator.set(row.operator_key!, list)
  }
  const queues: OperatorQueue[] = operators.map((operator) => {
    const rows = byOperator.get(operator._key) ?? []
    return {
      operator: { ...operator, independent: operator.independent && settings.independent_queue_reordering },
      jobs: stripRn(rows.slice(0, MAX_QUEUE_JOBS)),
      more: rows.length > MAX_QUEUE_JOBS,
    }
  })
  let unassigned: JobRow[] = []
  if (settings.allow_unassigned_jobs || production) {
    unassigned = await siteOrder(
      selectJobRow(jobsJoined(svc.db).where('wo.archived_at', 'is', null).where('j.status', '<>', 'closed').where('j.operator_id', 'is', null), day),
    )
      .limit(MAX_QUEUE_JOBS + 1)
      .execute()
  }
  return {
    assigned_jobs_by_operator: queues,
    unassigned_jobs: unassigned.slice(0, MAX_QUEUE_JOBS),
    unassigned_more: unassigned.length > MAX_QUEUE_JOBS,
  }
}

/**
 * `PUT queue/operator/{key}`: `independent` (production only; turning it on needs the
 * independent_queue_reordering setting, turning it off resets the queue to the site order)
 * and/or `jobs`: the operator's jobs in the wanted order (only while independent and allowed).
 * Listed jobs come first, the operator's other open jobs keep their order after them.
 */
export async function saveOperatorQueue(svc: Services, actor: Actor, userKey: string, input: OperatorQueueInput): Promise<OperatorQueue> {
  const production = hasScope(actor.scope, 'production')
  if (!production) {
    if (userKey !== actor.userId) throw forbidden('OWN_QUEUE_ONLY', 'operators order their own queue only')
    if (input.independent !== undefined) throw forbidden('NOT_AUTHORISED', 'only production turns independent ordering on or off')
  }
  if (input.jobs && new Set(input.jobs).size !== input.jobs.length) throw invalidField({ path: 'jobs', kind: 'duplicate', message: 'a job is listed twice' })
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const settings = await readSettings(trx)
    const user = await trx.selectFrom('users').select(['id', 'scope']).where('id', '=', userKey).executeTakeFirst()
    if (!user) throw wrongUser()
    if (!hasScope(user.scope, 'operator')) throw notOperator()
    await trx.insertInto('operator_queues').values({ user_id: userKey, updated_at: now }).onConflict((oc) => oc.column('user_id').doNothing()).execute()
    const queue = await trx.selectFrom('operator_queues').selectAll().where('user_id', '=', userKey).forUpdate().executeTakeFirstOrThrow()
    const before = queue.independent
    const after = input.independent ?? before
    if (after && !before && !settings.independent_queue_reordering) {
      throw conflict('QUEUE_REORDERING_DISABLED', 'the settings do not allow independent queue reordering')
    }
    if (input.jobs) {
      if (!after) throw conflict('QUEUE_NOT_INDEPENDENT', "the operator's queue follows the site order")
      if (!settings.independent_queue_reordering) throw conflict('QUEUE_REORDERING_DISABLED', 'the settings do not allow independent queue reordering')
    }
    const data: Record<string, unknown> = {}
    if (after !== before) {
      await trx.updateTable('operator_queues').set({ independent: after, updated_at: now }).where('user_id', '=', userKey).execute()
      data.independent = { from: before, to: after }
      if (!after) {
        // Back to the site order: the operator's own positions are forgotten.
        await trx.updateTable('jobs').set({ queue_position: null }).where('operator_id', '=', userKey).where('queue_position', 'is not', null).execute()
      }
    }
    if (after && (after !== before || input.jobs)) {
      // The current queue (own order first, then site order), locked; listed jobs move to the front.
      const open = await trx
        .selectFrom('jobs as j')
        .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
        .select(['j.id'])
        .where('j.operator_id', '=', userKey)
        .where('j.status', '<>', 'closed')
        .where('wo.archived_at', 'is', null)
        .orderBy(sql`j.queue_position asc nulls last`)
        .orderBy('wo.sequence')
        .orderBy('j.position')
        .orderBy('j.id')
        .forUpdate('j')
        .execute()
      const openIds = open.map((r) => r.id)
      const openSet = new Set(openIds)
      const listed = input.jobs ?? []
      for (const key of listed) {
        if (!openSet.has(key)) throw unprocessable('JOB_NOT_IN_QUEUE', "a job is not an open job of this operator's queue", { job_key: key })
      }
      const listedSet = new Set(listed)
      const order = [...listed, ...openIds.filter((id) => !listedSet.has(id))]
      if (order.length) {
        await sql`update jobs set queue_position = o.n
          from unnest(${order}::uuid[]) with ordinality as o(id, n)
          where jobs.id = o.id`.execute(trx)
      }
      if (input.jobs) data.jobs = listed
    }
    if (Object.keys(data).length === 0) return
    await appendEvent(trx, actor, { event_type: 'OPERATOR_QUEUE_UPDATED', subject_type: 'user', subject_key: userKey, data }, now)
  })
  const assignment = await getJobAssignment(svc, { ...actor, scope: `${actor.scope} production` }, { user_key: userKey })
  return assignment.assigned_jobs_by_operator[0]!
}

// ---------------------------------------------------------------------------------------------
// Production corrections (SPEC 4 job actions)

const REFUSALS: Record<CorrectionRefusal, { status: 409 | 422; message: string }> = {
  JOB_RUNNING: { status: 409, message: 'the job is running: pause it first' },
  JOB_HAS_ACTIVE_PIECES: { status: 409, message: 'the job has active pieces: cancel them first' },
  JOB_NO_PROGRESS: { status: 409, message: 'the job has no progress to reset' },
  JOB_NO_ACTIVE_PIECES: { status: 409, message: 'the job has no active pieces' },
  JOB_HAS_TRACEABILITY: { status: 409, message: 'the phase has serial-tracked components: progress cannot be edited by hand' },
  JOB_NOT_STARTED: { status: 409, message: 'the job has not started yet' },
  JOB_NOT_RUNNING: { status: 409, message: 'the job is not running' },
}

/**
 * Closes the job's open work session and marks it paused (SPEC 4 "pause job", also the
 * operator's pause): time_spent_ms grows by the session's length. The caller holds the job lock.
 */
async function pauseLockedJob(
  db: Db,
  actor: Actor | null,
  job: Pick<Job, 'id' | 'time_spent_ms' | 'work_order_id'>,
  now: Date,
  opts: { reason: string; event_type?: string; data?: Record<string, unknown> },
): Promise<void> {
  const session = await db
    .selectFrom('work_sessions')
    .select(['id', 'started_at'])
    .where('job_id', '=', job.id)
    .where('ended_at', 'is', null)
    .forUpdate()
    .executeTakeFirst()
  const elapsed = session ? Math.max(0, now.getTime() - new Date(session.started_at).getTime()) : 0
  if (session) await db.updateTable('work_sessions').set({ ended_at: now, end_reason: opts.reason }).where('id', '=', session.id).execute()
  await db
    .updateTable('jobs')
    .set({ active: false, status: 'paused', time_spent_ms: job.time_spent_ms + elapsed, updated_at: now })
    .where('id', '=', job.id)
    .execute()
  await appendEvent(
    db,
    actor,
    {
      event_type: opts.event_type ?? 'JOB_PAUSED',
      subject_type: 'job',
      subject_key: job.id,
      data: { work_order_key: job.work_order_id, work_session_key: session?.id ?? null, reason: opts.reason, elapsed_ms: elapsed, ...opts.data },
    },
    now,
  )
}

/**
 * `POST job/update` (production): one SPEC 4 correction with its guard (rules.ts
 * correctionRefusal), keeping the phase's material counters consistent, with its event:
 * JOB_PROGRESS_RESET, JOB_ACTIVE_PIECES_CANCELLED, JOB_PROGRESS_UPDATED, JOB_TIMES_UPDATED, JOB_PAUSED.
 */
export async function updateJob(svc: Services, actor: Actor, input: JobUpdateInput): Promise<JobDetail> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const ref = await trx.selectFrom('jobs').select(['work_order_id', 'phase_id']).where('id', '=', input.job_key).executeTakeFirst()
    if (!ref) throw unknownJob()
    await lockedWorkOrder(trx, ref.work_order_id)
    const { phase, next } = await lockedPhases(trx, ref.work_order_id, ref.phase_id)
    const job = await trx.selectFrom('jobs').selectAll().where('id', '=', input.job_key).forUpdate().executeTakeFirstOrThrow()
    const traceability = input.action === 'update_progress' ? await phaseHasTraceability(trx, job.phase_id) : false
    const refusal = correctionRefusal(input.action, job, traceability)
    if (refusal) throw new AppError(REFUSALS[refusal].status, refusal, REFUSALS[refusal].message)
    const event = (event_type: string, data: Record<string, unknown>) =>
      appendEvent(trx, actor, { event_type, subject_type: 'job', subject_key: job.id, data: { work_order_key: job.work_order_id, phase_key: job.phase_id, ...data } }, now)
    const setPhase = (patch: Partial<Pick<PhaseRow, 'taken_qt' | 'completed_qt'>>) =>
      trx
        .updateTable('work_order_phases')
        .set(patch)
        .where('work_order_id', '=', phase.work_order_id)
        .where('phase_id', '=', phase.phase_id)
        .execute()

    switch (input.action) {
      case 'reset_progress': {
        const done = job.completed_qt
        const back = job.released_qt
        await moveReleased(trx, phase, next, -back)
        await setPhase({ taken_qt: phase.taken_qt - done, completed_qt: phase.completed_qt - done })
        await trx
          .updateTable('jobs')
          .set({
            completed_qt: 0,
            released_qt: 0,
            ...(job.status === 'closed' ? { status: 'paused', closed_at: null } : {}),
            updated_at: now,
          })
          .where('id', '=', job.id)
          .execute()
        await refreshWorkOrderProgress(trx, job.work_order_id, { actor, now })
        await event('JOB_PROGRESS_RESET', { completed_qt: { from: done, to: 0 }, released_back: back })
        return
      }
      case 'cancel_active_pieces': {
        const pieces = job.active_qt
        const batch = await trx
          .updateTable('batches')
          .set({ status: 'cancelled' })
          .where('job_id', '=', job.id)
          .where('status', '=', 'open')
          .returning('id')
          .executeTakeFirst()
        await setPhase({ taken_qt: phase.taken_qt - pieces })
        await trx.updateTable('jobs').set({ active_qt: 0, active_batch_id: null, updated_at: now }).where('id', '=', job.id).execute()
        await event('JOB_ACTIVE_PIECES_CANCELLED', { pieces, batch_key: batch?.id ?? job.active_batch_id })
        return
      }
      case 'update_progress': {
        const to = input.completed_qt
        if (to > job.quantity) {
          throw unprocessable('PROGRESS_ABOVE_QUANTITY', 'progress cannot exceed the job quantity', { quantity: job.quantity })
        }
        const delta = to - job.completed_qt
        if (delta === 0) return
        if (delta > 0 && delta > phase.released_in_qt - phase.taken_qt) {
          throw conflict('NOT_ENOUGH_MATERIAL', 'not enough material released to this phase', {
            available: Math.max(0, phase.released_in_qt - phase.taken_qt),
          })
        }
        const back = Math.max(0, job.released_qt - to)
        await moveReleased(trx, phase, next, -back)
        await setPhase({ taken_qt: phase.taken_qt + delta, completed_qt: phase.completed_qt + delta })
        const closes = to === job.quantity
        const released = job.released_qt - back
        const { parameters: params } = await phaseInfo(trx, job.phase_id)
        const due = releaseDue(params, { completed_qt: to, released_qt: released, closed: closes })
        await moveReleased(trx, phase, next, due)
        const status = closes ? 'closed' : job.status === 'closed' || (job.status === 'queued' && to > 0) ? 'paused' : job.status
        await trx
          .updateTable('jobs')
          .set({
            completed_qt: to,
            released_qt: released + due,
            status,
            closed_at: closes ? now : null,
            updated_at: now,
          })
          .where('id', '=', job.id)
          .execute()
        await refreshWorkOrderProgress(trx, job.work_order_id, { actor, now })
        await event('JOB_PROGRESS_UPDATED', { completed_qt: { from: job.completed_qt, to }, released: due, released_back: back, status: { from: job.status, to: status } })
        return
      }
      case 'update_times': {
        if (input.time_spent_ms === job.time_spent_ms) return
        await trx.updateTable('jobs').set({ time_spent_ms: input.time_spent_ms, updated_at: now }).where('id', '=', job.id).execute()
        await event('JOB_TIMES_UPDATED', { time_spent_ms: { from: job.time_spent_ms, to: input.time_spent_ms } })
        return
      }
      case 'pause': {
        await pauseLockedJob(trx, actor, job, now, { reason: 'paused_by_production', data: { phase_key: job.phase_id } })
        return
      }
    }
  })
  return getJob(svc, input.job_key)
}

export type { JobListFilters }
