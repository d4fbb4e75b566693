import { sql } from 'kysely'
import type { BomLine } from '../../../src/domains/products/bom'
import type { Db } from '../../db/connect'

/** Bom lines as the API shows them, with the component's code and state. */
export function selectBomLines(db: Db) {
  return db
    .selectFrom('bom_lines as b')
    .innerJoin('products as i', 'i.id', 'b.item_id')
    .innerJoin('product_phases as p', 'p.id', 'b.phase_id')
    .select([
      'b.id as _key',
      'b.phase_id as phase_key',
      'b.item_id as item_key',
      'i.code as item_code',
      'i.description as item_description',
      sql<boolean>`(i.active and i.trashed_at is null)`.as('item_active'),
      'b.quantity',
      'b.quantity_per',
      'b.traceability',
      'b.declared_serials',
    ])
    .orderBy('p.position')
    .orderBy('b.position')
    .orderBy('b.id')
    .$castTo<BomLine>()
}

/**
 * The components among `items` whose own bill of materials leads back to `productId` (directly
 * or through further components): adding any of them would make the product contain itself.
 * The product's own current lines are left out, since they are being replaced.
 */
export async function componentsLeadingBack(db: Db, productId: string, items: readonly string[]): Promise<string[]> {
  if (items.length === 0) return []
  const rows = await sql<{ origin: string }>`
    with recursive reach(origin, id) as (
      select x, x from unnest(array[${sql.join(items.map((i) => sql`${i}::uuid`))}]) as x
      union
      select r.origin, b.item_id from reach r join bom_lines b on b.product_id = r.id where b.product_id <> ${productId}::uuid and b.revision_id is null
    )
    select distinct origin from reach where id = ${productId}::uuid`.execute(db)
  return rows.rows.map((r) => r.origin)
}

/** Serialises bill-of-materials changes, so two saves cannot close a cycle between them. */
export async function lockBoms(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('mes.bom'))`.execute(db)
}
