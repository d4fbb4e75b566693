import { sql } from 'kysely'
import type { WorkOrderListItem, WorkOrderSort } from '../../../src/domains/work-orders/schemas'
import { toDbDate } from '../../../src/domains/work-orders/schemas'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { isUuid } from '../../../src/uuid'
import { msOrNull } from '../../db/epoch'
import type { RevisionRef } from '../../../src/domains/revisions/schemas'

/** DATE columns leave the API as YYYY/MM/DD (SPEC 5). */
const edgeDate = (column: string) => sql<string | null>`to_char(${sql.ref(column)}, 'YYYY/MM/DD')`

/** The list's filters but its search, which comes resolved (searchWords). */
export type WorkOrderFilters = {
  status?: 'active' | 'completed' | 'closed'
  product_key?: string
  date_field?: 'due_by' | 'start_from'
  date_from?: string
  date_to?: string
  late?: boolean
  critical?: boolean
  archived?: boolean
}

/** One of the work order's open jobs is marked critical (an issue on that job; critical-marks.ts). */
const hasCriticalJob = sql<boolean>`exists (select 1 from jobs cj where cj.work_order_id = w.id and cj.critical and cj.status <> 'closed')`

/** Late = a due date before today and still active (src/domains/work-orders/rules.ts isLate). */
const lateExpr = (today: string) => sql<boolean>`(w.status = 'active' and w.due_by is not null and w.due_by < ${toDbDate(today)}::date)`

/** One search word of the work order list: its ILIKE pattern and the products whose code or description match it. */
export type SearchWord = { pattern: string; products: string[] }

/** Resolves the list's search words (one query each, on products only). */
export async function searchWords(db: Db, search: string | undefined): Promise<SearchWord[]> {
  const out: SearchWord[] = []
  for (const word of (search ?? '').split(/\s+/).filter(Boolean)) {
    const pattern = containsPattern(word)
    const rows = await db
      .selectFrom('products')
      .select('id')
      .where((eb) => eb.or([eb('code', 'ilike', pattern), eb('description', 'ilike', pattern)]))
      .execute()
    out.push({ pattern, products: rows.map((r) => r.id) })
  }
  return out
}

/** `work_orders as w` joined to its product, with the list filters applied; rows and count share it. */
export function filteredWorkOrders(db: Db, f: WorkOrderFilters, today: string, words: readonly SearchWord[] = []) {
  let q = db.selectFrom('work_orders as w').innerJoin('products as p', 'p.id', 'w.product_id')
  // The active list and the archive are separate views (index work_orders_queue leads with this).
  q = q.where(sql<boolean>`(w.archived_at is null)`, '=', !f.archived)
  if (f.status) q = q.where('w.status', '=', f.status)
  if (f.product_key) q = q.where('w.product_id', '=', f.product_key)
  // "Critical" in the list: the work order's own mark or a critical job of it.
  if (f.critical !== undefined) q = q.where(sql<boolean>`(w.critical or ${hasCriticalJob})`, '=', f.critical)
  if (f.late !== undefined) q = q.where(f.late ? lateExpr(today) : sql<boolean>`not ${lateExpr(today)}`)
  const dateColumn = f.date_field === 'start_from' ? 'w.start_from' : 'w.due_by'
  if (f.date_from) q = q.where(sql.ref(dateColumn), '>=', sql<string>`${toDbDate(f.date_from)}::date`)
  if (f.date_to) q = q.where(sql.ref(dateColumn), '<=', sql<string>`${toDbDate(f.date_to)}::date`)
  // Each word: the work order's code or line, or its product's code or description. Written on
  // work_orders' own columns with the products as a key list known when planning (searchWords), so
  // that the trigram indexes on code and line and work_orders_product combine into one bitmap scan
  // instead of a walk of the whole queue.
  for (const { pattern, products } of words) {
    const byProduct = products.length ? sql<boolean>` or w.product_id = any(${products}::uuid[])` : sql<boolean>``
    q = q.where(sql<boolean>`(w.code ilike ${pattern} or w.line ilike ${pattern}${byProduct})`)
  }
  return q
}

/** The list columns (SPEC 2 work order list) of a filtered query. */
export function selectListItems(q: ReturnType<typeof filteredWorkOrders>, today: string) {
  return q
    .select([
      'w.id as _key',
      'w.code',
      'w.product_id as product_key',
      'p.code as product_code',
      'p.description as product_description',
      'w.planned_qt',
      'w.completed_qt',
      sql<number>`greatest(w.planned_qt - w.completed_qt, 0)`.as('remaining_qt'),
      sql<number>`least(100, greatest(0, floor(w.completed_qt * 100.0 / w.planned_qt)))::int`.as('progress'),
      edgeDate('w.start_from').as('start_from'),
      edgeDate('w.due_by').as('due_by'),
      'w.line',
      'w.status',
      lateExpr(today).as('late'),
      'w.critical',
      hasCriticalJob.as('has_critical_job'),
      'w.sequence',
      msOrNull('w.archived_at').as('archived_at'),
      sql<RevisionRef>`(select json_build_object('_key', r.id, 'number', r.number) from product_revisions r where r.id = w.revision_id)`.as('revision'),
      sql<number | null>`(select nullif(max(r.number), (select number from product_revisions c where c.id = w.revision_id)) from product_revisions r where r.product_id = w.product_id)`.as('newer_revision'),
    ])
    .$castTo<WorkOrderListItem>()
}

/** Sort columns; every order ends on the queue position and the key so pages never overlap. */
export function orderList(q: ReturnType<typeof selectListItems>, sort: WorkOrderSort, dir: 'asc' | 'desc') {
  const nulls = dir === 'asc' ? sql`nulls last` : sql`nulls first`
  switch (sort) {
    case 'code':
      q = q.orderBy('w.code', dir)
      break
    case 'product':
      q = q.orderBy(sql`lower(p.code)`, dir)
      break
    case 'due_by':
      q = q.orderBy(sql`w.due_by ${sql.raw(dir)} ${nulls}`)
      break
    case 'start_from':
      q = q.orderBy(sql`w.start_from ${sql.raw(dir)} ${nulls}`)
      break
    case 'progress':
      q = q.orderBy(sql`w.completed_qt::float8 / w.planned_qt`, dir)
      break
    case 'created_at':
      q = q.orderBy('w.created_at', dir)
      break
    case 'archived_at':
      q = q.orderBy(sql`w.archived_at ${sql.raw(dir)} ${nulls}`)
      break
    case 'queue':
      return q.orderBy('w.sequence', dir).orderBy('w.id', dir)
  }
  return q.orderBy('w.sequence').orderBy('w.id')
}

/** A work order key (uuid) or its code ('WO000123') to the row id; undefined when none. */
export async function findWorkOrderId(db: Db, key: string): Promise<string | undefined> {
  const byId = isUuid(key)
  if (!byId && !/^WO\d{1,18}$/i.test(key)) return undefined
  const row = await db
    .selectFrom('work_orders')
    .select('id')
    .where(byId ? 'id' : 'code', '=', byId ? key : key.toUpperCase())
    .executeTakeFirst()
  return row?.id
}

/**
 * Locks a work order row for a change. Lock order for every writer of production state:
 * the work order first, then its work_order_phases rows, then its jobs (deadlock-free).
 */
export function lockWorkOrder(db: Db, id: string) {
  return db
    .selectFrom('work_orders')
    .select(['id', 'code', 'product_id', 'planned_qt', 'completed_qt', 'status', 'archived_at', 'line', 'notes', 'critical'])
    .select([edgeDate('start_from').as('start_from'), edgeDate('due_by').as('due_by')])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** The phases of a work order with their names and steps, in process order. */
export function workOrderPhases(db: Db, woId: string) {
  return db
    .selectFrom('work_order_phases as wp')
    .innerJoin('product_phases as pp', 'pp.id', 'wp.phase_id')
    .select([
      'wp.phase_id',
      'wp.position',
      'pp.name',
      'pp.department_id',
      'pp.steps',
      'pp.parameters',
      'wp.released_in_qt',
      'wp.taken_qt',
      'wp.completed_qt',
      'wp.released_out_qt',
    ])
    .where('wp.work_order_id', '=', woId)
    .orderBy('wp.position')
}

/** The jobs of a work order with their operator's name, in phase order. */
export function workOrderJobs(db: Db, woId: string) {
  return db
    .selectFrom('jobs as j')
    .leftJoin('users as u', 'u.id', 'j.operator_id')
    .select([
      'j.id',
      'j.phase_id',
      'j.position',
      'j.quantity',
      'j.completed_qt',
      'j.active_qt',
      'j.status',
      'j.active',
      'j.critical',
      'j.operator_id',
      'j.started_at',
      sql<string | null>`case when u.id is null then null else coalesce(nullif(trim(u.name || ' ' || u.surname), ''), u.username) end`.as('operator_name'),
    ])
    .where('j.work_order_id', '=', woId)
    .orderBy('j.position')
    .orderBy('j.created_at')
    .orderBy('j.id')
}

/** A display name for a user: name and surname, else the username. */
export const userDisplayName = sql<string>`coalesce(nullif(trim(u.name || ' ' || u.surname), ''), u.username)`

export { edgeDate, msOrNull }
