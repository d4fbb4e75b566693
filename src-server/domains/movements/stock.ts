import { sql } from 'kysely'
import {
  INVENTORY_LIMIT,
  type Inventory,
  type InventoryInput,
  type InventoryLine,
} from '../../../src/domains/movements/schemas'
import { isUuid } from '../../../src/uuid'
import type { Db } from '../../db/connect'
import { conflict } from '../../errors'
import { escapeLike } from '../positions/queries'

/**
 * The stock table: one row per position, product, serial ('' = none) and owned flag. Only
 * `changeStock` writes it, called when a movement is confirmed, in that movement's transaction.
 */
export type StockKey = { position_id: string; product_id: string; serial: string; owned: boolean }

/**
 * Adds `delta` (> 0) or takes `-delta` to/from one stock line. Taking is one conditional UPDATE
 * (`quantity >= q`): PostgreSQL re-checks the condition on the locked row after any concurrent
 * change, so two movements never both take the same pieces and no update is lost. When the line
 * has too little and negative stock is not allowed: 409 INSUFFICIENT_STOCK with what is there.
 */
export async function changeStock(trx: Db, key: StockKey, delta: number, allowNegative: boolean, now: Date, positionCode?: string): Promise<void> {
  if (delta > 0 || allowNegative) {
    await trx
      .insertInto('stock')
      .values({ ...key, quantity: delta, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['position_id', 'product_id', 'serial', 'owned']).doUpdateSet({ quantity: sql`stock.quantity + excluded.quantity`, updated_at: now }),
      )
      .execute()
    return
  }
  const take = -delta
  const updated = await trx
    .updateTable('stock')
    .set({ quantity: sql`quantity - ${take}::numeric`, updated_at: now })
    .where('position_id', '=', key.position_id)
    .where('product_id', '=', key.product_id)
    .where('serial', '=', key.serial)
    .where('owned', '=', key.owned)
    .where('quantity', '>=', sql<number>`${take}::numeric`)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 1) return
  const available = await quantityAt(trx, key)
  throw conflict(
    'INSUFFICIENT_STOCK',
    `not enough stock in position ${positionCode ?? key.position_id}${key.serial ? ` for serial ${key.serial}` : ''}: ${available} there, ${take} needed`,
    { available, needed: take, position_key: key.position_id, product_key: key.product_id, serial: key.serial || null },
  )
}

export async function quantityAt(db: Db, key: StockKey): Promise<number> {
  const row = await db
    .selectFrom('stock')
    .select('quantity')
    .where('position_id', '=', key.position_id)
    .where('product_id', '=', key.product_id)
    .where('serial', '=', key.serial)
    .where('owned', '=', key.owned)
    .executeTakeFirst()
  return Number(row?.quantity ?? 0)
}

/**
 * `= any(array(...))` of the ids below a path: the stock rows are then fetched by their primary key
 * (position first) for just those positions, whatever the planner thinks of the table's size.
 */
const inSubtree = (path: string) => sql<string>`any(array(select sub.id from positions sub where sub.path like ${`${escapeLike(path)}%`}))`

/** True when the position itself holds any non-zero stock. */
export async function stockHeldIn(db: Db, positionId: string): Promise<boolean> {
  const row = await db.selectFrom('stock').select('product_id').where('position_id', '=', positionId).where('quantity', '<>', 0).limit(1).executeTakeFirst()
  return Boolean(row)
}

/**
 * The stock of one product: everywhere, or in one position (`subtree`: with everything below it).
 * For production screens (Materiale tab, readiness) and checks; `availableOnly` skips positions
 * not flagged available.
 */
export async function stockOfProduct(
  db: Db,
  productKey: string,
  opts: { positionKey?: string; subtree?: boolean; availableOnly?: boolean; ownedOnly?: boolean } = {},
): Promise<number> {
  const totals = await stockForProducts(db, [productKey], opts)
  return totals.get(productKey) ?? 0
}

/** The stock of several products at once (same options as stockOfProduct); missing products are 0. */
export async function stockForProducts(
  db: Db,
  productKeys: string[],
  opts: { positionKey?: string; subtree?: boolean; availableOnly?: boolean; ownedOnly?: boolean } = {},
): Promise<Map<string, number>> {
  const out = new Map<string, number>(productKeys.map((k) => [k, 0]))
  if (productKeys.length === 0 || !productKeys.every(isUuid) || (opts.positionKey !== undefined && !isUuid(opts.positionKey))) return out
  let q = db
    .selectFrom('stock as s')
    .innerJoin('positions as p', 'p.id', 's.position_id')
    .select(['s.product_id', sql<number>`sum(s.quantity)`.as('quantity')])
    .where('s.product_id', 'in', productKeys)
    .groupBy('s.product_id')
  if (opts.positionKey) {
    if (opts.subtree === false) q = q.where('s.position_id', '=', opts.positionKey)
    else {
      const root = await db.selectFrom('positions').select('path').where('id', '=', opts.positionKey).executeTakeFirst()
      if (!root) return out
      q = q.where('s.position_id', '=', inSubtree(root.path))
    }
  }
  if (opts.availableOnly) q = q.where('p.available', '=', true)
  if (opts.ownedOnly) q = q.where('s.owned', '=', true)
  for (const row of await q.execute()) out.set(row.product_id, Number(row.quantity))
  return out
}

/** Where one product is: one row per position/serial/owned with non-zero stock, by position code. */
export async function stockByPosition(db: Db, productKey: string): Promise<InventoryLine[]> {
  return (await readInventory(db, { product_key: productKey })).lines
}

/** Where a serial is (non-zero stock), or null: production asks before linking a serial not in stock (SPEC 5). */
export async function serialInStock(db: Db, productKey: string, serial: string): Promise<{ position_key: string; position_code: string; quantity: number; owned: boolean } | null> {
  const row = await db
    .selectFrom('stock as s')
    .innerJoin('positions as p', 'p.id', 's.position_id')
    .select(['s.position_id as position_key', 'p.code as position_code', 's.quantity', 's.owned'])
    .where('s.product_id', '=', productKey)
    .where('s.serial', '=', serial)
    .where('s.quantity', '>', 0)
    .orderBy('s.quantity', 'desc')
    .executeTakeFirst()
  return row ? { ...row, quantity: Number(row.quantity) } : null
}

/** The inventory lines and totals (see InventoryInput). A position key that names nothing matches nothing. */
export async function readInventory(db: Db, input: InventoryInput): Promise<Inventory> {
  let path: string | null = null
  if (input.position_key) {
    const pos = await db.selectFrom('positions').select('path').where('id', '=', input.position_key).executeTakeFirst()
    if (!pos) return { lines: [], more: false, totals: [] }
    path = pos.path
  }
  let base = db.selectFrom('stock as s').innerJoin('positions as p', 'p.id', 's.position_id').innerJoin('products as pr', 'pr.id', 's.product_id').where('s.quantity', '<>', 0)
  if (input.position_key && path) {
    base = input.subtree === false ? base.where('s.position_id', '=', input.position_key) : base.where('s.position_id', '=', inSubtree(path))
  }
  if (input.product_key) base = base.where('s.product_id', '=', input.product_key)
  if (input.serial !== undefined) base = base.where('s.serial', '=', input.serial.trim())
  if (input.owned !== undefined) base = base.where('s.owned', '=', input.owned)
  const [lines, totals] = await Promise.all([
    base
      .select([
        's.position_id as position_key',
        'p.code as position_code',
        's.product_id as product_key',
        'pr.code as product_code',
        'pr.description as product_description',
        sql<string | null>`nullif(s.serial, '')`.as('serial'),
        's.owned',
        's.quantity',
      ])
      .orderBy('p.code')
      .orderBy('pr.code')
      .orderBy('s.serial')
      .orderBy('s.owned', 'desc')
      .limit(INVENTORY_LIMIT + 1)
      .execute(),
    base
      .select(['s.product_id as product_key', 'pr.code as product_code', 'pr.description as product_description', sql<number>`sum(s.quantity)`.as('quantity')])
      .groupBy(['s.product_id', 'pr.code', 'pr.description'])
      .orderBy('pr.code')
      .execute(),
  ])
  return {
    lines: lines.slice(0, INVENTORY_LIMIT).map((l) => ({ ...l, quantity: Number(l.quantity) })),
    more: lines.length > INVENTORY_LIMIT,
    totals: totals.map((t) => ({ ...t, quantity: Number(t.quantity) })),
  }
}
