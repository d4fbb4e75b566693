import { type SqlBool, sql } from 'kysely'
import { DEFAULT_PHASE_PARAMETERS } from '../../../src/domains/process/phase-parameters'
import type { JobFilter } from '../../../src/domains/jobs/rules'
import type { JobRow } from '../../../src/domains/jobs/schemas'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { msOrNull } from '../../db/epoch'

/**
 * Kysely fragments of the job domain. A page of job rows is one query (work order and material
 * joined, the names as scalar subqueries): never a query per row.
 */

// The SQL reading of the rules in src/domains/jobs/rules.ts (remainingQt, availableQt, isLate).
const REMAINING = sql<number>`greatest(0, j.quantity - j.completed_qt - j.active_qt)`
// The phase's free material (released in, not taken yet), from its work_order_phases row.
const PHASE_POOL = sql<number>`coalesce((select greatest(0, wop.released_in_qt - wop.taken_qt) from work_order_phases wop
  where wop.work_order_id = j.work_order_id and wop.phase_id = j.phase_id), 0)`
const AVAILABLE = sql<number>`case when j.status = 'closed' then 0 else least(${REMAINING}, ${PHASE_POOL}) end`
const READY = sql<boolean>`(j.status <> 'closed' and j.quantity - j.completed_qt - j.active_qt > 0 and ${PHASE_POOL} > 0)`
// Critical: an open critical issue on the job itself or on its work order (not on a sibling job
// of another phase); a closed job is never shown critical (issue 11).
const CRITICAL = sql<boolean>`(j.status <> 'closed' and (j.critical or wo.critical))`
const late = (today: string) => sql<boolean>`(j.status <> 'closed' and wo.due_by is not null and wo.due_by < ${today}::date)`

/**
 * jobs with their work order: what the default scope and the order need. The other columns of a
 * row (material, product, phase, department, operator) are scalar subqueries by primary key,
 * run for the page's rows only (and, for the readiness filters, for the rows they look at).
 * This keeps the planner's work small and lets the site-order scan stop after one page.
 */
export function jobsJoined(db: Db) {
  return db.selectFrom('jobs as j').innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
}
type Joined = ReturnType<typeof jobsJoined>

const PHASE = (col: string) => sql`(select ${sql.ref(`ph.${col}`)} from product_phases ph where ph.id = j.phase_id)`

/** The JobRow columns (`today` = 'YYYY-MM-DD', the plant's day, for `late`). */
export function selectJobRow(q: Joined, today: string) {
  return q
    .select([
      'j.id as _key',
      'j.status',
      'j.active',
      'j.quantity',
      'j.completed_qt',
      'j.active_qt',
      REMAINING.as('remaining_qt'),
      AVAILABLE.as('available_qt'),
      READY.as('ready'),
      CRITICAL.as('critical'),
      sql<boolean>`coalesce((${PHASE('parameters')}->>'parallel_job_allowed')::boolean, ${DEFAULT_PHASE_PARAMETERS.parallel_job_allowed})`.as('parallel_job_allowed'),
      late(today).as('late'),
      'j.operator_id as operator_key',
      sql<string | null>`(select u.username from users u where u.id = j.operator_id)`.as('operator_username'),
      sql<string | null>`(select nullif(trim(u.name || ' ' || u.surname), '') from users u where u.id = j.operator_id)`.as('operator_name'),
      'wo.id as work_order_key',
      'wo.code as work_order_code',
      'wo.sequence as work_order_sequence',
      'wo.due_by',
      'wo.product_id as product_key',
      sql<string>`(select p.code from products p where p.id = wo.product_id)`.as('product_code'),
      sql<number>`(select r.number from product_revisions r where r.id = wo.revision_id)`.as('revision_number'),
      'j.phase_id as phase_key',
      sql<string>`${PHASE('name')}`.as('phase_name'),
      'j.position as phase_position',
      sql<string | null>`${PHASE('department_id')}`.as('department_key'),
      sql<string | null>`(select d.name from product_phases ph join departments d on d.id = ph.department_id where ph.id = j.phase_id)`.as('department_name'),
      'j.queue_position',
      'j.time_spent_ms',
      msOrNull('j.started_at').as('started_at'),
      msOrNull('j.closed_at').as('closed_at'),
    ])
    .$castTo<JobRow>()
}

/** One SPEC 4 filter as a WHERE condition (the same reading as `matchesFilter` in rules.ts). */
export function filterCondition(filter: JobFilter, today: string) {
  switch (filter) {
    case 'active':
      return sql<SqlBool>`j.active`
    case 'idle':
      return sql<SqlBool>`(j.status <> 'closed' and not j.active)`
    case 'queued':
      return sql<SqlBool>`j.status = 'queued'`
    case 'started':
      return sql<SqlBool>`j.status in ('started', 'paused')`
    case 'assigned':
      return sql<SqlBool>`j.operator_id is not null`
    case 'unassigned':
      return sql<SqlBool>`j.operator_id is null`
    case 'critical':
      // Critical jobs are few (open critical issues): written so both arms can use their partial
      // indexes (jobs_critical, work_orders_critical) instead of scanning the queue for them.
      return sql<SqlBool>`(j.status <> 'closed' and (j.critical or j.work_order_id = any(array(select cw.id from work_orders cw where cw.critical))))`
    case 'not_critical':
      return sql<SqlBool>`not ${CRITICAL}`
    case 'late':
      return sql<SqlBool>`${late(today)}`
    case 'on_time':
      return sql<SqlBool>`not ${late(today)}`
    case 'ready':
      return sql<SqlBool>`${READY}`
    case 'not_ready':
      return sql<SqlBool>`(j.status <> 'closed' and not ${READY})`
  }
}

export type JobListFilters = {
  filters?: readonly JobFilter[]
  department_key?: string
  operator_key?: string
  work_order_key?: string
  phase_key?: string
  product_key?: string
  search?: string
  include_closed?: boolean
}

/** What one search word matches: work orders by code, phases by name or product code, operators by name. */
export type SearchCandidates = { work_orders: string[]; phases: string[]; operators: string[] }

/** Matches kept per kind: a word matching more is too vague to narrow by it anyway. */
const SEARCH_CAP = 2000

/**
 * Resolves each search word to the keys it matches, so that the job query filters by key lists
 * the planner can see and serve from jobs' own indexes (jobs_work_order, jobs_phase, jobs_operator).
 * "Contains" on work order codes is answered by work_orders_code_trgm (a trigram index: a scan of
 * every code took hundreds of ms at 100,000 work orders).
 */
export async function searchCandidates(db: Db, search: string | undefined): Promise<SearchCandidates[]> {
  const out: SearchCandidates[] = []
  for (const word of (search ?? '').split(/\s+/).filter(Boolean)) {
    const pattern = containsPattern(word)
    const row = await sql<SearchCandidates>`select
        array(select w.id from work_orders w where w.code ilike ${pattern} limit ${SEARCH_CAP}) as work_orders,
        array(select ph.id from product_phases ph join products p on p.id = ph.product_id
              where ph.name ilike ${pattern} or p.code ilike ${pattern} limit ${SEARCH_CAP}) as phases,
        array(select u.id from users u where u.username ilike ${pattern} or u.name ilike ${pattern} or u.surname ilike ${pattern}
              limit ${SEARCH_CAP}) as operators`.execute(db)
    out.push(row.rows[0]!)
  }
  return out
}

/** The list's WHERE: default scope (open jobs of work orders not archived) plus every filter, ANDed. */
export function applyListFilters(q: Joined, f: JobListFilters, today: string, search: readonly SearchCandidates[] = []): Joined {
  let out = q
  if (!f.work_order_key) out = out.where('wo.archived_at', 'is', null)
  else out = out.where('j.work_order_id', '=', f.work_order_key)
  if (!f.include_closed && !f.work_order_key) out = out.where('j.status', '<>', 'closed')
  // Per row (a primary-key probe) rather than a semi-join: the site-order scan stays and stops after one page.
  if (f.department_key) out = out.where(sql<SqlBool>`${PHASE('department_id')} = ${f.department_key}::uuid`)
  if (f.operator_key) out = out.where('j.operator_id', '=', f.operator_key)
  if (f.phase_key) {
    // Also its product (a phase belongs to one): the scan then follows work_orders_product_queue.
    out = out
      .where('j.phase_id', '=', f.phase_key)
      .where(sql<SqlBool>`wo.product_id = (select pp.product_id from product_phases pp where pp.id = ${f.phase_key}::uuid)`)
  }
  if (f.product_key) out = out.where('wo.product_id', '=', f.product_key)
  for (const filter of new Set(f.filters ?? [])) out = out.where(filterCondition(filter, today))
  for (const c of search) {
    const any = (col: string, keys: string[]) => sql<SqlBool>`${sql.ref(col)} = any(${keys}::uuid[])`
    const parts = [
      c.work_orders.length ? any('j.work_order_id', c.work_orders) : null,
      c.phases.length ? any('j.phase_id', c.phases) : null,
      c.operators.length ? any('j.operator_id', c.operators) : null,
    ].filter((x): x is NonNullable<typeof x> => x !== null)
    out = out.where(parts.length ? sql<SqlBool>`(${sql.join(parts, sql` or `)})` : sql<SqlBool>`false`)
  }
  return out
}

/**
 * Site queue order: work order sequence, phase position, then the key (stable, unique).
 * `byJob` orders by the jobs' own copy of the sequence (jobs.wo_sequence, the same values): for
 * one operator's jobs, jobs_open_by_operator_queue then yields a page without a sort.
 */
export function siteOrder<Q extends Joined>(q: Q, byJob = false): Q {
  return (byJob ? q.orderBy('j.wo_sequence') : q.orderBy('wo.sequence')).orderBy('j.position').orderBy('j.id') as Q
}

/** Rows after a keyset position in site order. */
export function afterCursor(q: Joined, c: { sequence: number; position: number; key: string }, byJob = false): Joined {
  const seq = byJob ? sql.ref('j.wo_sequence') : sql.ref('wo.sequence')
  return q
    .where(sql<SqlBool>`${seq} >= ${c.sequence}::bigint`)
    .where(sql<SqlBool>`(${seq}, j.position, j.id) > (${c.sequence}::bigint, ${c.position}::int, ${c.key}::uuid)`)
}

/** The phase of a job consumes serial-tracked components (traceability form or complete). */
export function phaseHasTraceability(db: Db, phaseId: string) {
  return db
    .selectFrom('bom_lines')
    .select('id')
    .where('phase_id', '=', phaseId)
    .where('traceability', '<>', 'none')
    .limit(1)
    .executeTakeFirst()
    .then(Boolean)
}

/** Users jobs can be assigned to: the operator permission, enabled and not archived. */
export function eligibleOperators(db: Db) {
  return db
    .selectFrom('users as u')
    .leftJoin('operator_queues as oq', 'oq.user_id', 'u.id')
    .where(sql<SqlBool>`(' ' || u.scope || ' ') like '% operator %'`)
    .where('u.enabled', '=', true)
    .where('u.archived_at', 'is', null)
    .select([
      'u.id as _key',
      'u.username',
      'u.name',
      'u.surname',
      'u.department_id as department_key',
      sql<boolean>`coalesce(oq.independent, false)`.as('independent'),
    ])
}

/**
 * The jobs among `jobIds` that something else refers to (quality issues, a message thread), in
 * one query: such a job is never deleted when planning takes its whole quantity away; it closes
 * instead and keeps its records.
 */
export async function referencedJobs(db: Db, jobIds: readonly string[]): Promise<Set<string>> {
  if (jobIds.length === 0) return new Set()
  const ids = [...new Set(jobIds)]
  const rows = await db
    .selectFrom('issues')
    .select(sql<string>`job_id`.as('id'))
    .where('job_id', 'in', ids)
    .union(db.selectFrom('messages').select(sql<string>`context_key`.as('id')).where('context_type', '=', 'job').where('context_key', 'in', ids))
    .execute()
  return new Set(rows.map((r) => r.id))
}
