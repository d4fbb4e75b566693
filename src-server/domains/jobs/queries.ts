import { type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import type { JobFilter } from '../../../src/domains/jobs/rules'
import type { JobRow } from '../../../src/domains/jobs/schemas'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import type { Database } from '../../db/schema'

/**
 * Kysely fragments of the job domain. A job row is one query with joins (work order, product,
 * phase, department, operator, the phase's material counters): never a query per row.
 */

type Tables = Database & {
  j: Database['jobs']
  wo: Database['work_orders']
  p: Database['products']
  ph: Database['product_phases']
  d: Database['departments']
  u: Database['users']
  wop: Database['work_order_phases']
}
type Eb = ExpressionBuilder<
  {
    j: Database['jobs']
    wo: Database['work_orders']
    p: Database['products']
    ph: Database['product_phases']
    d: Database['departments']
    u: Database['users']
    wop: Database['work_order_phases']
  },
  'j' | 'wo' | 'p' | 'ph' | 'd' | 'u' | 'wop'
>
export type { Tables }

// The SQL reading of the rules in src/domains/jobs/rules.ts (remainingQt, availableQt, isLate).
const REMAINING = sql<number>`greatest(0, j.quantity - j.completed_qt - j.active_qt)`
const PHASE_POOL = sql<number>`greatest(0, coalesce(wop.released_in_qt, 0) - coalesce(wop.taken_qt, 0))`
const AVAILABLE = sql<number>`case when j.status = 'closed' then 0 else least(${REMAINING}, ${PHASE_POOL}) end`
const READY = sql<boolean>`(j.status <> 'closed' and j.quantity - j.completed_qt - j.active_qt > 0 and coalesce(wop.released_in_qt, 0) - coalesce(wop.taken_qt, 0) > 0)`
const CRITICAL = sql<boolean>`(j.critical or wo.critical)`
const late = (today: string) => sql<boolean>`(j.status <> 'closed' and wo.due_by is not null and wo.due_by < ${today}::date)`
const ms = (col: string) => sql<number | null>`(extract(epoch from ${sql.ref(col)}) * 1000)::float8`

/** jobs with everything a row shows joined; no filter applied. */
export function jobsJoined(db: Db) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
    .innerJoin('products as p', 'p.id', 'wo.product_id')
    .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
    .leftJoin('departments as d', 'd.id', 'ph.department_id')
    .leftJoin('users as u', 'u.id', 'j.operator_id')
    .leftJoin('work_order_phases as wop', (join) => join.onRef('wop.work_order_id', '=', 'j.work_order_id').onRef('wop.phase_id', '=', 'j.phase_id'))
}
type Joined = ReturnType<typeof jobsJoined>

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
      sql<boolean>`coalesce(${READY}, false)`.as('ready'),
      CRITICAL.as('critical'),
      late(today).as('late'),
      'j.operator_id as operator_key',
      'u.username as operator_username',
      sql<string | null>`nullif(trim(coalesce(u.name, '') || ' ' || coalesce(u.surname, '')), '')`.as('operator_name'),
      'wo.id as work_order_key',
      'wo.code as work_order_code',
      'wo.sequence as work_order_sequence',
      'wo.due_by',
      'p.id as product_key',
      'p.code as product_code',
      'ph.id as phase_key',
      'ph.name as phase_name',
      'j.position as phase_position',
      'ph.department_id as department_key',
      'd.name as department_name',
      'j.queue_position',
      'j.time_spent_ms',
      ms('j.started_at').as('started_at'),
      ms('j.closed_at').as('closed_at'),
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
      return sql<SqlBool>`${CRITICAL}`
    case 'not_critical':
      return sql<SqlBool>`not j.critical and not wo.critical`
    case 'late':
      return sql<SqlBool>`${late(today)}`
    case 'on_time':
      return sql<SqlBool>`not ${late(today)}`
    case 'ready':
      return sql<SqlBool>`coalesce(${READY}, false)`
    case 'not_ready':
      return sql<SqlBool>`(j.status <> 'closed' and not coalesce(${READY}, false))`
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

/** The list's WHERE: default scope (open jobs of work orders not archived) plus every filter, ANDed. */
export function applyListFilters(q: Joined, f: JobListFilters, today: string): Joined {
  let out = q
  if (!f.work_order_key) out = out.where('wo.archived_at', 'is', null)
  else out = out.where('j.work_order_id', '=', f.work_order_key)
  if (!f.include_closed && !f.work_order_key) out = out.where('j.status', '<>', 'closed')
  if (f.department_key) out = out.where('ph.department_id', '=', f.department_key)
  if (f.operator_key) out = out.where('j.operator_id', '=', f.operator_key)
  if (f.phase_key) out = out.where('j.phase_id', '=', f.phase_key)
  if (f.product_key) out = out.where('wo.product_id', '=', f.product_key)
  for (const filter of new Set(f.filters ?? [])) out = out.where(filterCondition(filter, today))
  for (const word of (f.search ?? '').split(/\s+/).filter(Boolean)) {
    const pattern = containsPattern(word)
    out = out.where((eb: Eb) =>
      eb.or([
        eb('wo.code', 'ilike', pattern),
        eb('p.code', 'ilike', pattern),
        eb('ph.name', 'ilike', pattern),
        eb('u.username', 'ilike', pattern),
        eb('u.name', 'ilike', pattern),
        eb('u.surname', 'ilike', pattern),
      ]),
    )
  }
  return out
}

/** Site queue order: work order sequence, phase position, then the key (stable, unique). */
export function siteOrder<Q extends Joined>(q: Q): Q {
  return q.orderBy('wo.sequence').orderBy('j.position').orderBy('j.id') as Q
}

/** Rows after a keyset position in site order. */
export function afterCursor(q: Joined, c: { sequence: number; position: number; key: string }): Joined {
  return q
    .where('wo.sequence', '>=', c.sequence)
    .where(sql<SqlBool>`(wo.sequence, j.position, j.id) > (${c.sequence}::bigint, ${c.position}::int, ${c.key}::uuid)`)
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
