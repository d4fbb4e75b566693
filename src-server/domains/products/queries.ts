import { type Expression, sql } from 'kysely'
import { productDocUrl } from '../../../src/domains/products/files'
import type { MetadataItem, ProductListInput, ProductRow, ProductState, Tag } from '../../../src/domains/products/schemas'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { ms } from '../../db/epoch'


/** The tags of one product, by name: `[{_key, name}]` (one index lookup per product). */
export function productTags(productId: Expression<string>) {
  return sql<Tag[]>`coalesce((
    select json_agg(json_build_object('_key', t.id, 'name', t.name) order by lower(t.name), t.id)
    from tag_links tl join tags t on t.id = tl.tag_id
    where tl.context = 'product' and tl.context_key = ${productId}::text
  ), '[]'::json)`
}

const imageUrl = sql<string | null>`case when p.image_path is null then null else '/media/' || p.image_path end`

type DocRow = { name: string; content_type: string; size: number; uploaded_at: number }

/** One product with its tags, documents and phase count; `url`s are added by `withDocUrls`. */
export function selectProductRows(db: Db) {
  return db.selectFrom('products as p').select((eb) => [
    'p.id as _key',
    'p.code',
    'p.description',
    'p.active',
    sql<boolean>`p.trashed_at is not null`.as('trash'),
    'p.notes',
    'p.minimum_order',
    'p.technical_batch',
    imageUrl.as('image_url'),
    sql<MetadataItem[]>`p.metadata`.as('metadata'),
    productTags(eb.ref('p.id')).as('tags'),
    sql<DocRow[]>`coalesce((
      select json_agg(json_build_object(
        'name', d.name, 'content_type', d.content_type, 'size', d.size,
        'uploaded_at', (extract(epoch from d.uploaded_at) * 1000)::float8
      ) order by lower(d.name), d.name)
      from product_docs d where d.product_id = p.id
    ), '[]'::json)`.as('docs'),
    sql<string[]>`p.print_templates`.as('print_templates'),
    sql<number>`(select count(*)::int from product_phases ph where ph.product_id = p.id)`.as('phase_count'),
    ms('p.created_at').as('created_at'),
    ms('p.updated_at').as('updated_at'),
  ])
}

export function withDocUrls(row: Omit<ProductRow, 'docs'> & { docs: DocRow[] }): ProductRow {
  return { ...row, docs: row.docs.map((d) => ({ ...d, url: productDocUrl(row._key, d.name) })) }
}

/** State filter: none = everything not in the trash. Written to match the products_state_code index. */
function stateCondition(state: ProductState | undefined) {
  if (state === 'trash') return sql<boolean>`(p.trashed_at is null) = false`
  if (state === 'active') return sql<boolean>`(p.trashed_at is null) = true and p.active = true`
  if (state === 'inactive') return sql<boolean>`(p.trashed_at is null) = true and p.active = false`
  return sql<boolean>`(p.trashed_at is null) = true`
}

/** The list filters (state, search on code and description, every chosen tag) as one condition. */
function listCondition(opts: ProductListInput) {
  const parts = [stateCondition(opts.state)]
  const search = opts.search?.trim()
  if (search) {
    const pattern = containsPattern(search)
    parts.push(sql<boolean>`(p.code ilike ${pattern} or p.description ilike ${pattern})`)
  }
  const tags = [...new Set(opts.tags ?? [])]
  if (tags.length) {
    // The products carrying every chosen tag, joined on the primary key (tag links hold product keys as text).
    parts.push(sql<boolean>`p.id in (
      select tl.context_key::uuid from tag_links tl
      where tl.context = 'product' and tl.tag_id in (${sql.join(tags.map((t) => sql`${t}::uuid`))})
      group by tl.context_key having count(*) = ${tags.length}
    )`)
  }
  return sql<boolean>`${sql.join(parts, sql` and `)}`
}

export const DEFAULT_PAGE_SIZE = 25

/**
 * One page of the product list in ONE query. Inside: the filtered rows, sorted, limited and
 * offset, with `count(*) over ()` for the total. Outside: the page's rows (only those) get their
 * tags from a correlated aggregate and are put back in the same order.
 * 10,000+ products: see products-scale.test.ts and bench/RESULTS.md.
 */
export function productListQuery(db: Db, opts: ProductListInput) {
  const pageSize = opts.page_size ?? DEFAULT_PAGE_SIZE
  const page = opts.page ?? 1
  const dir = opts.dir ?? 'asc'
  const primary =
    opts.sort === 'description'
      ? sql`lower(p.description)`
      : opts.sort === 'updated_at'
        ? sql`p.updated_at`
        : opts.sort === 'created_at'
          ? sql`p.created_at`
          : sql`lower(p.code)`
  const codeDir = !opts.sort || opts.sort === 'code' ? dir : 'asc'
  const inner = db
    .selectFrom('products as p')
    .where(listCondition(opts))
    .select([
      'p.id',
      'p.code',
      'p.description',
      'p.active',
      sql<boolean>`p.trashed_at is not null`.as('trash'),
      'p.image_path',
      ms('p.updated_at').as('updated_at'),
      sql<number>`count(*) over ()`.as('total'),
      primary.as('sort_1'),
      sql`lower(p.code)`.as('sort_2'),
    ])
    .orderBy(primary, dir)
    .orderBy(sql`lower(p.code)`, codeDir)
    .orderBy('p.id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
  return db
    .selectFrom(inner.as('pg'))
    .select((eb) => [
      'pg.id as _key',
      'pg.code',
      'pg.description',
      'pg.active',
      'pg.trash',
      sql<string | null>`case when pg.image_path is null then null else '/media/' || pg.image_path end`.as('image_url'),
      productTags(eb.ref('pg.id')).as('tags'),
      'pg.updated_at',
      'pg.total',
    ])
    .orderBy('pg.sort_1', dir)
    .orderBy('pg.sort_2', codeDir)
    .orderBy('pg.id')
}

/** The total alone (a page past the end has no row to carry `count(*) over ()`). */
export function productCountQuery(db: Db, opts: ProductListInput) {
  return db.selectFrom('products as p').where(listCondition(opts)).select(sql<number>`count(*)::int`.as('n'))
}

