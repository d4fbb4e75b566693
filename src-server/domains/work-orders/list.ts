/**
 * The work order list and what its screens ask while filtering or creating: one page of the
 * active list or the archive, the values of the filter autocompletes and the products a new work
 * order can be made for.
 */
import { sql } from 'kysely'
import {
  type ProductChoice,
  type SearchOpts,
  type WorkOrderListInput,
  type WorkOrderPage,
  WORK_ORDER_PAGE_SIZE_MAX,
  AUTOCOMPLETE_MIN_CHARS,
  OPTIONS_LIMIT,
} from '../../../src/domains/work-orders/schemas'
import type { Services } from '../../context'
import { containsPattern } from '../../db/like'
import { filteredWorkOrders, orderList, searchWords, selectListItems } from './queries'
import { todayOf } from './shared'

export const DEFAULT_PAGE_SIZE = 50

/** The active list (site queue order) or the archive (most recently archived first), one page. */
export async function listWorkOrders(svc: Services, input: WorkOrderListInput = {}): Promise<WorkOrderPage> {
  const today = todayOf(svc)
  const pageSize = Math.min(input.page_size ?? DEFAULT_PAGE_SIZE, WORK_ORDER_PAGE_SIZE_MAX)
  const page = input.page ?? 1
  const sort = input.sort ?? (input.archived ? 'archived_at' : 'queue')
  const dir = input.dir ?? (sort === 'archived_at' ? 'desc' : 'asc')
  const words = await searchWords(svc.db, input.search)
  const filtered = filteredWorkOrders(svc.db, input, today, words)
  const rowsQuery = orderList(selectListItems(filtered, today), sort, dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
  // The whole view (no filter) is counted by triggers: its count would grow with the plant.
  const whole = !words.length && !input.status && !input.product_key && input.critical === undefined && input.late === undefined && !input.date_from && !input.date_to
  const countQuery = whole
    ? svc.db.selectFrom('work_order_counts').select('n').where('archived', '=', input.archived ?? false)
    : filtered.select((eb) => eb.fn.countAll<number>().as('n'))
  const [rows, counted] = await Promise.all([rowsQuery.execute(), countQuery.executeTakeFirstOrThrow()])
  return { rows, total: Number(counted.n) }
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
 * active, not in the trash, with at least one phase (in the draft or a revision); with the revision a
 * new work order takes and its phases for the operator choice.
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
  const products = await q
    .select(sql<number | null>`(select max(r.number) from product_revisions r where r.product_id = p.id)`.as('revision'))
    .orderBy(sql`lower(p.code)`)
    .limit(OPTIONS_LIMIT)
    .execute()
  if (products.length === 0) return []
  // The latest revision's phases, the draft's for a product not released yet.
  const phases = await svc.db
    .selectFrom('product_phases as pp')
    .select(['pp.id', 'pp.product_id', 'pp.name', 'pp.position'])
    .where(
      'pp.product_id',
      'in',
      products.map((p) => p._key),
    )
    .where(
      sql<boolean>`pp.revision_id is not distinct from (select r.id from product_revisions r where r.product_id = pp.product_id order by r.number desc limit 1)`,
    )
    .orderBy('pp.product_id')
    .orderBy('pp.position')
    .execute()
  return products.map((p) => ({
    ...p,
    phases: phases.filter((ph) => ph.product_id === p._key).map((ph, i) => ({ _key: ph.id, name: ph.name, position: i + 1 })),
  }))
}
