import { sql } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import { isReady } from '../../../src/domains/jobs/rules'
import { referencedJobs } from '../jobs/queries'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import {
  type HistoryEntry,
  type ProductChoice,
  type QuantityChangeInput,
  type QueueMoveInput,
  type QueueMoveResult,
  type QueueSaveInput,
  type SearchOpts,
  type SiteQueue,
  toDbDate,
  type WorkOrderCreateInput,
  type WorkOrderDetail,
  type WorkOrderListInput,
  type WorkOrderPage,
  type WorkOrderPatchInput,
  WORK_ORDER_PAGE_SIZE_MAX,
  AUTOCOMPLETE_MIN_CHARS,
  OPTIONS_LIMIT,
} from '../../../src/domains/work-orders/schemas'
import {
  ASSIGNMENT_EVENTS,
  CORRECTION_EVENTS,
  HISTORY_PAGE_SIZE_DEFAULT,
  type HistoryCategory,
  type HistoryFilter,
  PRODUCTION_PAUSE_REASON,
} from '../../../src/domains/work-orders/history'
import { ISSUE_EVENTS } from '../../../src/domains/issues/schemas'
import { isUuid } from '../../../src/uuid'
import { dayOf, type DistributionPhase, distributionProblems, mergeQueue } from '../../../src/domains/work-orders/rules'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { badRequest, conflict, notFound, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { ms, msOrNull } from '../../db/epoch'
import { readSettings } from '../settings/queries'
import {
  edgeDate,
  filteredWorkOrders,
  findWorkOrderId,
  lockWorkOrder,
  orderList,
  selectListItems,
  userDisplayName,
  workOrderJobs,
  workOrderPhases,
} from './queries'
import { invalidField } from '../../input-issues'

export const DEFAULT_PAGE_SIZE = 50
const SUBJECT = 'work_order'

const workOrderNotFound = () => notFound('NOT_FOUND', 'work order not found')
const archivedRefusal = () => conflict('WORK_ORDER_ARCHIVED', 'the work order is archived: restore it first')

/** Today as the plant sees it (the server's local calendar), YYYY/MM/DD. */
export const todayOf = (svc: Pick<Services, 'clock'>) => dayOf(svc.clock.now())

/** Code shown to people: 'WO' and at least six digits from work_order_code_seq. */
export const formatWorkOrderCode = (n: number) => `WO${String(n).padStart(6, '0')}`

async function requireWorkOrderId(db: Db, key: string): Promise<string> {
  const id = await findWorkOrderId(db, key)
  if (!id) throw workOrderNotFound()
  return id
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The active list (site queue order) or the archive (most recently archived first), one page. */
export async function listWorkOrders(svc: Services, input: WorkOrderListInput = {}): Promise<WorkOrderPage> {
  const today = todayOf(svc)
  const pageSize = Math.min(input.page_size ?? DEFAULT_PAGE_SIZE, WORK_ORDER_PAGE_SIZE_MAX)
  const page = input.page ?? 1
  const sort = input.sort ?? (input.archived ? 'archived_at' : 'queue')
  const dir = input.dir ?? (sort === 'archived_at' ? 'desc' : 'asc')
  const filtered = filteredWorkOrders(svc.db, input, today)
  const rowsQuery = orderList(selectListItems(filtered, today), sort, dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
  const countQuery = filtered.select((eb) => eb.fn.countAll<number>().as('n'))
  const [rows, counted] = await Promise.all([rowsQuery.execute(), countQuery.executeTakeFirstOrThrow()])
  return { rows, total: Number(counted.n) }
}

/** `GET work-order/{id}`: by key or by code, archived ones too; with its phases and jobs. */
export async function getWorkOrder(svc: Pick<Services, 'db' | 'clock'>, key: string): Promise<WorkOrderDetail> {
  const id = await requireWorkOrderId(svc.db, key)
  return readDetail(svc.db, id, todayOf(svc))
}

async function readDetail(db: Db, id: string, today: string): Promise<WorkOrderDetail> {
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

/** `GET queue/site/0`: every work order not archived, in queue order. */
export async function getSiteQueue(svc: Pick<Services, 'db'>, siteKey = '0'): Promise<SiteQueue> {
  if (siteKey !== '0') throw notFound('NOT_FOUND', 'site not found: the site queue is 0')
  const rows = await svc.db
    .selectFrom('work_orders as w')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .select(['w.id as _key', 'w.code', 'p.code as product_code', 'w.status', 'w.planned_qt', 'w.completed_qt', edgeDate('w.due_by').as('due_by'), 'w.sequence'])
    .where(sql<boolean>`(w.archived_at is null)`, '=', true)
    .orderBy('w.sequence')
    .orderBy('w.id')
    .execute()
  return { type: 's', site_key: '0', work_orders: rows }
}

/** `GET work-order-search-opts`: the first 100 products, codes and phase names for the filter autocompletes. */
export async function searchOpts(svc: Services, input: { search?: string; archived?: boolean }): Promise<SearchOpts> {
  const archived = input.archived ?? false
  const pattern = input.search?.trim() ? containsPattern(input.search) : undefined
  const inView = sql<boolean>`(w.archived_at is null) = ${!archived}`
  let products = svc.db
    .selectFrom('products as p')
    .select(['p.id as _key', 'p.code', 'p.description'])
    .where(({ exists, selectFrom }) => exists(selectFrom('work_orders as w').select('w.id').whereRef('w.product_id', '=', 'p.id').where(inView)))
  let codes = svc.db.selectFrom('work_orders as w').select('w.code').where(inView)
  let phases = svc.db
    .selectFrom('product_phases as pp')
    .select('pp.name')
    .distinct()
    .where(({ exists, selectFrom }) => exists(selectFrom('work_orders as w').select('w.id').whereRef('w.product_id', '=', 'pp.product_id').where(inView)))
  if (pattern) {
    products = products.where((eb) => eb.or([eb('p.code', 'ilike', pattern), eb('p.description', 'ilike', pattern)]))
    codes = codes.where('w.code', 'ilike', pattern)
    phases = phases.where('pp.name', 'ilike', pattern)
  }
  const [p, c, ph] = await Promise.all([
    products.orderBy(sql`lower(p.code)`).limit(OPTIONS_LIMIT).execute(),
    codes.orderBy('w.code').limit(OPTIONS_LIMIT).execute(),
    phases.orderBy('pp.name').limit(OPTIONS_LIMIT).execute(),
  ])
  return { products: p, wo_codes: c.map((r) => r.code), phases: ph.map((r) => r.name) }
}

/**
 * Products a work order can be made for (SPEC 5 autocomplete: from 3 characters, first 100):
 * active, not in the trash, with at least one phase; with their phases for the operator choice.
 */
export async function productChoices(svc: Services, search: string): Promise<ProductChoice[]> {
  const words = search.trim().split(/\s+/).filter(Boolean)
  if (search.trim().length < AUTOCOMPLETE_MIN_CHARS) return []
  let q = svc.db
    .selectFrom('products as p')
    .select(['p.id as _key', 'p.code', 'p.description'])
    .where('p.active', '=', true)
    .where('p.trashed_at', 'is', null)
    .where(({ exists, selectFrom }) => exists(selectFrom('product_phases as pp').select('pp.id').whereRef('pp.product_id', '=', 'p.id')))
  for (const word of words) {
    const pattern = containsPattern(word)
    q = q.where((eb) => eb.or([eb('p.code', 'ilike', pattern), eb('p.description', 'ilike', pattern)]))
  }
  const products = await q.orderBy(sql`lower(p.code)`).limit(OPTIONS_LIMIT).execute()
  if (products.length === 0) return []
  const phases = await svc.db
    .selectFrom('product_phases')
    .select(['id', 'product_id', 'name', 'position'])
    .where(
      'product_id',
      'in',
      products.map((p) => p._key),
    )
    .orderBy('product_id')
    .orderBy('position')
    .execute()
  return products.map((p) => ({
    ...p,
    phases: phases.filter((ph) => ph.product_id === p._key).map((ph, i) => ({ _key: ph.id, name: ph.name, position: i + 1 })),
  }))
}

/**
 * The history tab (`GET work-order/{id}/history`): the events of the work order, of its jobs and
 * of the issues and message threads of either, newest first, one keyset page (`cursor` = the
 * last row's `_key`). `phase_key` keeps what concerns that phase's jobs (and rebalancing of that
 * phase); `category` one kind of event (src/domains/work-orders/history.ts). One query, driven by
 * the events_subject index; the users and steps the data names by key come back as `names`.
 */
export async function workOrderHistory(svc: Pick<Services, 'db'>, key: string, filter: HistoryFilter = {}): Promise<HistoryEntry[]> {
  const id = await requireWorkOrderId(svc.db, key)
  const limit = filter.limit ?? HISTORY_PAGE_SIZE_DEFAULT
  const phase = filter.phase_key ?? null
  const category = filter.category ?? null
  const assignment = sql.join(ASSIGNMENT_EVENTS.map((t) => sql.lit(t)))
  const corrections = sql.join(CORRECTION_EVENTS.map((t) => sql.lit(t)))
  const byCategory: Record<HistoryCategory, ReturnType<typeof sql>> = {
    issues: sql`e.subject_type = 'issue'`,
    messages: sql`e.subject_type = 'message'`,
    assignment: sql`e.event_type in (${assignment})`,
    corrections: sql`(e.event_type in (${corrections}) or (e.event_type = 'JOB_PAUSED' and e.data->>'reason' = ${PRODUCTION_PAUSE_REASON}))`,
    execution: sql`(e.subject_type = 'job' and e.event_type not in (${assignment}) and e.event_type not in (${corrections})
      and not (e.event_type = 'JOB_PAUSED' and coalesce(e.data->>'reason', '') = ${PRODUCTION_PAUSE_REASON}))`,
    work_order: sql`(e.subject_type = 'work_order' and e.event_type not in (${assignment}))`,
  }
  const rows = await sql<Omit<HistoryEntry, 'names'>>`
    with wo_jobs as (
      select id::text as k from jobs where work_order_id = ${id} and (${phase}::uuid is null or phase_id = ${phase}::uuid)
    ), wo_issues as (
      select id::text as k from issues
       where (${phase}::uuid is null and work_order_id = ${id} and job_id is null) or job_id::text in (select k from wo_jobs)
      union
      select subject_key from events
       where event_type = ${ISSUE_EVENTS.deleted} and subject_type = 'issue'
         and ((${phase}::uuid is null and data->>'work_order_key' = ${id}::text and data->>'job_key' is null) or data->>'job_key' in (select k from wo_jobs))
    ), wo_messages as (
      select id::text as k from messages
       where (${phase}::uuid is null and context_type = 'work_order' and context_key = ${id}::uuid)
          or (context_type = 'job' and context_key in (select k::uuid from wo_jobs))
    )
    select e.id::text as _key, e.event_type, ${ms('e.created_at')} as "timestamp", e.user_id as user_key,
           case when u.id is null then null else ${userDisplayName} end as user_name,
           e.subject_type, e.subject_key, e.data,
           x.job_key, coalesce(j.phase_id::text, e.data->>'phase_key') as phase_key,
           case when e.subject_type = 'issue' and i.id is not null then json_build_object('code', i.code, 'title', i.title, 'state', i.state) end as issue,
           case when e.subject_type = 'message' then m.context_type end as thread
      from events e
      left join users u on u.id = e.user_id
      left join issues i on e.subject_type = 'issue' and i.id::text = e.subject_key
      left join messages m on e.subject_type = 'message' and m.id::text = e.subject_key
      cross join lateral (select case e.subject_type
          when 'job' then e.subject_key
          when 'issue' then coalesce(i.job_id::text, e.data->>'job_key')
          when 'message' then case when m.context_type = 'job' then m.context_key::text end
        end as job_key) x
      left join jobs j on j.id::text = x.job_key
     where ((e.subject_type = 'work_order' and e.subject_key = ${id}::text and (${phase}::uuid is null or e.data->>'phase_key' = ${phase}::text))
         or (e.subject_type = 'job' and e.subject_key in (select k from wo_jobs))
         or (e.subject_type = 'issue' and e.subject_key in (select k from wo_issues))
         or (e.subject_type = 'message' and e.subject_key in (select k from wo_messages)))
       and ${category ? byCategory[category] : sql`true`}
       and (${filter.cursor ?? null}::int8 is null or e.id < ${filter.cursor ?? null}::int8)
     order by e.id desc
     limit ${limit}`.execute(svc.db)
  const names = await referencedNames(svc.db, rows.rows)
  return rows.rows.map((r) => ({ ...r, names: names(r) }))
}

/** Operators named by key in event data (assignment, rebalancing) and steps (step events). */
async function referencedNames(db: Db, rows: { data: Record<string, unknown>; phase_key: string | null }[]) {
  const userKeys = new Set<string>()
  const phaseKeys = new Set<string>()
  const userKeysOf = (d: Record<string, unknown>): string[] => {
    const keys = [d.operator_key, d.previous_operator_key]
    for (const list of [d.before, d.changed, d.created]) if (Array.isArray(list)) for (const j of list) keys.push((j as Record<string, unknown>)?.operator_key)
    return keys.filter((k): k is string => typeof k === 'string' && isUuid(k))
  }
  for (const r of rows) {
    for (const k of userKeysOf(r.data)) userKeys.add(k)
    if (typeof r.data.step_key === 'string' && r.phase_key && isUuid(r.phase_key)) phaseKeys.add(r.phase_key)
  }
  const users = userKeys.size
    ? await db
        .selectFrom('users as u')
        .select(['u.id', userDisplayName.as('name')])
        .where('u.id', 'in', [...userKeys])
        .execute()
    : []
  const phases = phaseKeys.size ? await db.selectFrom('product_phases').select(['id', 'steps']).where('id', 'in', [...phaseKeys]).execute() : []
  const userName = new Map(users.map((u) => [u.id, u.name]))
  const stepTitles = new Map(phases.map((p) => [p.id, new Map(p.steps.map((st) => [st._key, st.title]))]))
  return (r: { data: Record<string, unknown>; phase_key: string | null }): Record<string, string> => {
    const out: Record<string, string> = {}
    for (const k of userKeysOf(r.data)) {
      const name = userName.get(k)
      if (name) out[k] = name
    }
    const step = typeof r.data.step_key === 'string' && r.phase_key ? stepTitles.get(r.phase_key)?.get(r.data.step_key) : undefined
    if (step !== undefined) out[r.data.step_key as string] = step
    return out
  }
}

// ---------------------------------------------------------------------------------------------
// Operators

/**
 * The operators among `keys` (enabled, not archived, holding the operator permission);
 * any other key is 400 WRONG_OPERATOR.
 */
export async function assertOperators(db: Db, keys: readonly string[]): Promise<void> {
  const wanted = [...new Set(keys)]
  if (wanted.length === 0) return
  const rows = await db.selectFrom('users').select(['id', 'scope', 'enabled', 'archived_at']).where('id', 'in', wanted).execute()
  const ok = new Set(rows.filter((u) => u.enabled && !u.archived_at && hasScope(u.scope, 'operator')).map((u) => u.id))
  const wrong = wanted.filter((k) => !ok.has(k))
  if (wrong.length) throw badRequest('WRONG_OPERATOR', 'not an active operator: choose users with the operator permission', { operator_keys: wrong })
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * `POST work-order`: product active, not in the trash, with a process; quantity > 0; due_by not
 * before start_from. In one transaction: the work order (code WO000123, at the end of the site
 * queue), one work_order_phases row per phase (phase 1 released_in_qt = the whole quantity) and
 * one job per phase with the whole quantity and the phase's steps; event WORK_ORDER_CREATED.
 */
export async function createWorkOrder(svc: Services, actor: Actor, input: WorkOrderCreateInput): Promise<WorkOrderDetail> {
  assertDates(input.start_from ?? null, input.due_by ?? null)
  const now = svc.clock.now()
  const today = todayOf(svc)
  // Inside a caller's transaction (an import: all rows or none) it runs in that transaction.
  const inTransaction = <T>(fn: (trx: Db) => Promise<T>) => (svc.db.isTransaction ? fn(svc.db) : svc.db.transaction().execute(fn))
  const id = await inTransaction(async (trx) => {
    // FOR SHARE: a process change on this product waits until the work order holds its phases.
    const product = await trx
      .selectFrom('products')
      .select(['id', 'code', 'active', 'trashed_at'])
      .where('id', '=', input.product_key)
      .forShare()
      .executeTakeFirst()
    if (!product) throw badRequest('UNKNOWN_PRODUCT', 'product not found')
    if (!product.active || product.trashed_at) throw unprocessable('WORK_ORDER_PRODUCT_INACTIVE', 'the product is not active or is in the trash')
    const phases = await trx
      .selectFrom('product_phases')
      .select(['id', 'name', 'steps'])
      .where('product_id', '=', product.id)
      .orderBy('position')
      .orderBy('id')
      .execute()
    if (phases.length === 0) throw unprocessable('WORK_ORDER_PRODUCT_NO_PROCESS', 'the product has no process: add at least one phase')

    // Who runs each phase's job.
    const perPhase = new Map<string, string>()
    for (const po of input.phase_operators ?? []) {
      if (!phases.some((p) => p.id === po.phase_key)) throw badRequest('UNKNOWN_PHASE', 'phase_operators names a phase of another product', { phase_key: po.phase_key })
      if (perPhase.has(po.phase_key)) throw invalidField({ path: 'phase_operators', kind: 'duplicate', message: 'a phase is repeated' }, { phase_key: po.phase_key })
      perPhase.set(po.phase_key, po.operator_key)
    }
    const operators = phases.map((p) => perPhase.get(p.id) ?? input.operator_key ?? null)
    await assertOperators(trx, operators.filter((o): o is string => o !== null))
    const { allow_unassigned_jobs } = await readSettings(trx)
    const missing = phases.findIndex((_, i) => operators[i] === null)
    if (!allow_unassigned_jobs && missing >= 0) {
      const phase = phases[missing]!
      throw unprocessable('OPERATOR_REQUIRED', `unassigned jobs are not allowed: choose an operator for phase ${missing + 1} (${phase.name})`, {
        phase_key: phase.id,
        phase_name: phase.name,
        position: missing + 1,
      })
    }

    const { n } = await sql<{ n: number }>`select nextval('work_order_code_seq')::int8 as n`.execute(trx).then((r) => r.rows[0]!)
    const code = formatWorkOrderCode(Number(n))
    const { id } = await trx
      .insertInto('work_orders')
      .values({
        code,
        product_id: product.id,
        planned_qt: input.quantity,
        line: input.line ?? '',
        start_from: toDbDate(input.start_from ?? null) ?? null,
        due_by: toDbDate(input.due_by ?? null) ?? null,
        // The day the work order was released to the shop floor.
        release_date: toDbDate(today)!,
        notes: input.notes ?? '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('work_order_phases')
      .values(phases.map((p, i) => ({ work_order_id: id, phase_id: p.id, position: i + 1, released_in_qt: i === 0 ? input.quantity : 0 })))
      .execute()
    const jobs = await trx
      .insertInto('jobs')
      .values(
        phases.map((p, i) => ({
          work_order_id: id,
          phase_id: p.id,
          position: i + 1,
          quantity: input.quantity,
          operator_id: operators[i],
          step_sequence: JSON.stringify(p.steps.map((s) => ({ _key: s._key, type: s.type }))),
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(['id', 'phase_id', 'operator_id'])
      .execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'WORK_ORDER_CREATED',
        subject_type: SUBJECT,
        subject_key: id,
        data: {
          code,
          product_key: product.id,
          product_code: product.code,
          quantity: input.quantity,
          start_from: input.start_from ?? null,
          due_by: input.due_by ?? null,
          line: input.line ?? '',
          jobs: jobs.map((j) => ({ job_key: j.id, phase_key: j.phase_id, operator_key: j.operator_id })),
        },
      },
      now,
    )
    return id
  })
  return readDetail(svc.db, id, today)
}

function assertDates(startFrom: string | null, dueBy: string | null) {
  if (startFrom && dueBy && dueBy < startFrom) {
    throw badRequest('DUE_BEFORE_START', 'due_by must not be before start_from', { start_from: startFrom, due_by: dueBy })
  }
}

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

/**
 * `PATCH work-order/{id}/update-quantities`: the new planned quantity and its distribution among
 * the jobs of every phase (SPEC 5). Listed jobs take the given quantity (never below their done
 * and active pieces), jobs left out keep theirs, new jobs are added (with an operator where
 * unassigned jobs are not allowed); every phase must add up to the new quantity
 * (422 WORKLOAD_NOT_DISTRIBUTED naming the phase). Phase 1's released material follows the new
 * quantity. Jobs left with nothing to do close (or go, if they never started). One event with
 * before and after; nothing is written on a refusal.
 */
export async function changeQuantities(svc: Services, actor: Actor, key: string, input: QuantityChangeInput): Promise<WorkOrderDetail> {
  const now = svc.clock.now()
  const today = todayOf(svc)
  const id = await svc.db.transaction().execute(async (trx) => {
    const id = await requireWorkOrderId(trx, key)
    const wo = await lockWorkOrder(trx, id)
    if (!wo) throw workOrderNotFound()
    if (wo.archived_at) throw archivedRefusal()
    if (wo.status === 'closed') throw conflict('WORK_ORDER_CLOSED', 'the work order is closed: reopen it before changing its quantity')

    const phases = await workOrderPhases(trx, id).forUpdate('wp').execute()
    const jobs = await trx
      .selectFrom('jobs')
      .select(['id', 'phase_id', 'position', 'quantity', 'completed_qt', 'active_qt', 'status', 'active', 'operator_id', 'started_at', 'created_at'])
      .where('work_order_id', '=', id)
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .forUpdate()
      .execute()

    const byPhase = new Map<string, QuantityChangeInput['phases'][number]>()
    for (const p of input.phases) {
      if (!phases.some((ph) => ph.phase_id === p.phase_key)) {
        throw badRequest('UNKNOWN_PHASE', 'the distribution names a phase that is not one of this work order', { phase_key: p.phase_key })
      }
      if (byPhase.has(p.phase_key)) throw invalidField({ path: 'phases', kind: 'duplicate', message: 'a phase is listed twice' }, { phase_key: p.phase_key })
      byPhase.set(p.phase_key, p)
    }
    const distribution: DistributionPhase[] = phases.map((ph) => {
      const asked = byPhase.get(ph.phase_id)
      const phaseJobs = jobs.filter((j) => j.phase_id === ph.phase_id)
      const newQuantity = new Map<string, number>()
      for (const j of asked?.jobs ?? []) {
        if (!phaseJobs.some((pj) => pj.id === j.job_key)) {
          throw badRequest('UNKNOWN_JOB', `job ${j.job_key} is not a job of phase ${ph.position} (${ph.name})`, { job_key: j.job_key, phase_key: ph.phase_id })
        }
        if (newQuantity.has(j.job_key)) throw invalidField({ path: 'jobs', kind: 'duplicate', message: 'a job is listed twice' }, { job_key: j.job_key })
        newQuantity.set(j.job_key, j.quantity)
      }
      return {
        phase_key: ph.phase_id,
        name: ph.name,
        position: ph.position,
        jobs: phaseJobs.map((j) => ({
          job_key: j.id,
          quantity: j.quantity,
          completed_qt: j.completed_qt,
          active_qt: j.active_qt,
          new_quantity: newQuantity.get(j.id) ?? j.quantity,
        })),
        new_jobs: (asked?.new_jobs ?? []).map((n) => ({ operator_key: n.operator_key ?? null, quantity: n.quantity })),
      }
    })

    const newOperators = distribution.flatMap((p) => p.new_jobs.map((n) => n.operator_key)).filter((o): o is string => o !== null)
    await assertOperators(trx, newOperators)
    const { allow_unassigned_jobs } = await readSettings(trx)
    const problem = distributionProblems(input.quantity, distribution, allow_unassigned_jobs)[0]
    if (problem) {
      const phase = distribution.find((p) => p.phase_key === problem.phase_key)!
      const where = { phase_key: phase.phase_key, phase_name: phase.name, position: phase.position }
      if (problem.code === 'JOB_BELOW_DONE') {
        throw unprocessable(
          'JOB_BELOW_DONE',
          `phase ${phase.position} (${phase.name}): a job cannot go below its ${problem.minimum} done or active pieces`,
          { ...where, job_key: problem.job_key, minimum: problem.minimum },
        )
      }
      if (problem.code === 'WORKLOAD_NOT_DISTRIBUTED') {
        throw unprocessable(
          'WORKLOAD_NOT_DISTRIBUTED',
          `the whole workload must be distributed: phase ${phase.position} (${phase.name}) has ${problem.distributed} of ${problem.quantity} pieces`,
          { ...where, distributed: problem.distributed, quantity: problem.quantity },
        )
      }
      throw unprocessable('OPERATOR_REQUIRED', `assign an operator to the new jobs (phase ${phase.position}, ${phase.name})`, where)
    }
    const first = phases[0]
    if (first && input.quantity < first.taken_qt) {
      throw unprocessable('JOB_BELOW_DONE', `phase 1 (${first.name}) already took ${first.taken_qt} pieces into production`, {
        phase_key: first.phase_id,
        phase_name: first.name,
        position: 1,
        minimum: first.taken_qt,
      })
    }

    const before = { quantity: wo.planned_qt, jobs: jobs.map((j) => ({ job_key: j.id, phase_key: j.phase_id, quantity: j.quantity, operator_key: j.operator_id })) }
    const removed: string[] = []
    const closed: string[] = []
    const reopened: string[] = []
    const jobById = new Map(jobs.map((j) => [j.id, j]))
    // A job left with nothing that never started goes, unless something refers to it.
    const deletable = (dj: { job_key: string; new_quantity: number }) => {
      const job = jobById.get(dj.job_key)!
      return dj.new_quantity === 0 && job.completed_qt === 0 && job.active_qt === 0 && !job.active && !job.started_at && job.status === 'queued'
    }
    const referenced = await referencedJobs(
      trx,
      distribution.flatMap((p) => p.jobs.filter(deletable).map((dj) => dj.job_key)),
    )
    for (const phase of distribution) {
      for (const dj of phase.jobs) {
        const job = jobById.get(dj.job_key)!
        const remaining = dj.new_quantity - job.completed_qt - job.active_qt
        if (deletable(dj) && !referenced.has(job.id)) {
          await trx.deleteFrom('jobs').where('id', '=', job.id).execute()
          removed.push(job.id)
          continue
        }
        let status = job.status
        let closedAt: Date | null | undefined
        if (remaining === 0 && job.active_qt === 0 && !job.active && job.status !== 'closed') {
          status = 'closed'
          closedAt = now
          closed.push(job.id)
        } else if (remaining > 0 && job.status === 'closed') {
          status = job.started_at ? 'paused' : 'queued'
          closedAt = null
          reopened.push(job.id)
        }
        if (dj.new_quantity === job.quantity && status === job.status) continue
        await trx
          .updateTable('jobs')
          .set({ quantity: dj.new_quantity, status, ...(closedAt !== undefined ? { closed_at: closedAt } : {}), updated_at: now })
          .where('id', '=', job.id)
          .execute()
      }
    }
    // New jobs list after the existing ones (jobs of a phase are shown in creation order).
    const latest = Math.max(now.getTime(), ...jobs.map((j) => new Date(j.created_at).getTime() + 1))
    let ordinal = 0
    const newJobs = distribution.flatMap((p) => {
      const ph = phases.find((x) => x.phase_id === p.phase_key)!
      return p.new_jobs.map((n) => ({
        work_order_id: id,
        phase_id: ph.phase_id,
        position: ph.position,
        quantity: n.quantity,
        operator_id: n.operator_key,
        step_sequence: JSON.stringify(ph.steps.map((s) => ({ _key: s._key, type: s.type }))),
        created_at: new Date(latest + ordinal++),
        updated_at: now,
      }))
    })
    const inserted = newJobs.length ? await trx.insertInto('jobs').values(newJobs).returning(['id', 'phase_id', 'quantity', 'operator_id']).execute() : []
    if (first) await trx.updateTable('work_order_phases').set({ released_in_qt: input.quantity }).where('work_order_id', '=', id).where('phase_id', '=', first.phase_id).execute()
    await trx.updateTable('work_orders').set({ planned_qt: input.quantity, updated_at: now }).where('id', '=', id).execute()

    const afterJobs = [
      ...distribution.flatMap((p) =>
        p.jobs
          .filter((j) => !removed.includes(j.job_key))
          .map((j) => ({ job_key: j.job_key, phase_key: p.phase_key, quantity: j.new_quantity, operator_key: jobById.get(j.job_key)!.operator_id })),
      ),
      ...inserted.map((j) => ({ job_key: j.id, phase_key: j.phase_id, quantity: j.quantity, operator_key: j.operator_id, new: true })),
    ]
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'WORK_ORDER_QUANTITY_CHANGED',
        subject_type: SUBJECT,
        subject_key: id,
        data: { code: wo.code, before, after: { quantity: input.quantity, jobs: afterJobs }, jobs_removed: removed, jobs_closed: closed, jobs_reopened: reopened },
      },
      now,
    )
    await refreshWorkOrderProgress(trx, id, { actor, now })
    return id
  })
  return readDetail(svc.db, id, today)
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

/**
 * `PUT queue` with the SPEC payload {type: 's', site_key: '0', work_orders: [keys]}. Last writer
 * wins without losing work orders: saves are serialised (advisory lock); the listed work orders
 * take the front of the queue in the given order and every other one not archived (created or
 * restored meanwhile, or simply left out) follows in its previous relative order. Unknown keys
 * are 400 UNKNOWN_WORK_ORDER; archived ones are ignored. The queue reuses its own sequence
 * numbers, so a work order created during the save still lands at the end.
 */
export async function saveSiteQueue(svc: Services, actor: Actor, input: QueueSaveInput): Promise<SiteQueue> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSiteQueue(trx)
    if (input.work_orders.length) {
      const known = await trx
        .selectFrom('work_orders')
        .select('id')
        .where(sql<boolean>`id = any(${input.work_orders}::uuid[])`)
        .execute()
      const knownIds = new Set(known.map((r) => r.id))
      const unknown = input.work_orders.filter((k) => !knownIds.has(k))
      if (unknown.length) {
        throw badRequest('UNKNOWN_WORK_ORDER', `unknown work order: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' ...' : ''}`, {
          keys: unknown.slice(0, 50),
        })
      }
    }
    const current = await currentQueue(trx)
    const order = mergeQueue(
      current.map((r) => r.id),
      input.work_orders,
    )
    const moves = await writeQueueOrder(trx, current, order, now)
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'SITE_QUEUE_SAVED',
        subject_type: 'queue',
        subject_key: 's:0',
        data: { work_orders: order.length, listed: input.work_orders.length, moved: moves.length, moved_keys: moves.slice(0, 100).map((m) => m.id) },
      },
      now,
    )
  })
  return getSiteQueue(svc)
}

/**
 * `POST queue/move` / `workOrders.moveInQueue`: one work order to an absolute place of the whole
 * site queue (not only of the page a screen shows). Serialised with every other queue save, so
 * the place is counted on the queue as it is when the move runs (WORK_ORDER_QUEUE_MOVED).
 */
export async function moveInSiteQueue(svc: Services, actor: Actor, input: QueueMoveInput): Promise<QueueMoveResult> {
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    await lockSiteQueue(trx)
    const wo = await trx.selectFrom('work_orders').select(['id', 'code', 'archived_at']).where('id', '=', input.work_order_key).executeTakeFirst()
    if (!wo) throw notFound('UNKNOWN_WORK_ORDER', 'work order not found')
    if (wo.archived_at !== null) throw archivedRefusal()
    const current = await currentQueue(trx)
    const ids = current.map((r) => r.id)
    const from = ids.indexOf(wo.id)
    const to = input.position === 'last' ? ids.length - 1 : input.position - 1
    if (to >= ids.length) {
      throw unprocessable('QUEUE_POSITION_OUT_OF_RANGE', `position ${input.position} is beyond the end of the queue (${ids.length} work orders)`, {
        total: ids.length,
      })
    }
    if (from !== to) {
      const order = ids.filter((id) => id !== wo.id)
      order.splice(to, 0, wo.id)
      await writeQueueOrder(trx, current, order, now)
      await appendEvent(
        trx,
        actor,
        { event_type: 'WORK_ORDER_QUEUE_MOVED', subject_type: SUBJECT, subject_key: wo.id, data: { code: wo.code, position: { from: from + 1, to: to + 1 }, total: ids.length } },
        now,
      )
    }
    return { _key: wo.id, from: from + 1, to: to + 1, total: ids.length }
  })
}

/** Every queue change holds this lock for its transaction: saves and moves never interleave. */
const lockSiteQueue = (trx: Db) => sql`select pg_advisory_xact_lock(hashtext('mes.site_queue'))`.execute(trx)

/** The work orders not archived, in queue order, with their sequence numbers. */
const currentQueue = (trx: Db) =>
  trx
    .selectFrom('work_orders')
    .select(['id', 'sequence'])
    .where(sql<boolean>`(archived_at is null)`, '=', true)
    .orderBy('sequence')
    .orderBy('id')
    .execute()

/**
 * Gives `order` the queue's own sequence numbers (so a work order created meanwhile still lands
 * at the end) and writes only the rows whose number changes.
 */
async function writeQueueOrder(trx: Db, current: { id: string; sequence: number }[], order: string[], now: Date) {
  const sequences = current.map((r) => r.sequence)
  const was = new Map(current.map((r) => [r.id, r.sequence]))
  const moves = order.map((id, i) => ({ id, sequence: sequences[i]! })).filter((m) => was.get(m.id) !== m.sequence)
  for (let i = 0; i < moves.length; i += 2000) {
    const chunk = moves.slice(i, i + 2000)
    await sql`
      update work_orders as w set sequence = v.sequence, updated_at = ${now}
      from (values ${sql.join(chunk.map((m) => sql`(${m.id}::uuid, ${m.sequence}::int8)`))}) as v(id, sequence)
      where w.id = v.id`.execute(trx)
  }
  return moves
}
