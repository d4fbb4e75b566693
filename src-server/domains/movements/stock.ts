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
    { available, needed: take, position_key: key.position_id, position_code: positionCode ?? null, product_key: key.product_id, serial: key.serial || null },
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
 * `= any(array(...))` of a position and every position below it (from the path index):
 * the stock rows are then fetched by their primary key (position first) for just those positions,
 * whatever the planner thinks of the table's size.
 */
const inSubtreeOf = (positionKey: string) => sql<string>`any(array(${subtreeIds(positionKey)}))`

/**
 * The ids of a position and of every position below it: the paths from the position's own path up
 * to it with its last '/' raised to '0' (paths hold only hex digits, '-' and '/'), a range scan of
 * the path index (`~>=~`/`~<~` compare bytes, as text_pattern_ops orders them).
 */
export const subtreeIds = (positionKey: string) =>
  sql`select sub.id from positions r join positions sub on sub.path ~>=~ r.path and sub.path ~<~ (left(r.path, -1) || '0') where r.id = ${positionKey}`

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
    else q = q.where('s.position_id', '=', inSubtreeOf(opts.positionKey))
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

/** Where a serial is (non-zero stock; positions flagged available first, or only them with `availableOnly`), or null: production asks before linking a serial not in stock (SPEC 5). */
export async function serialInStock(
  db: Db,
  productKey: string,
  serial: string,
  opts: { availableOnly?: boolean } = {},
): Promise<{ position_key: string; position_code: string; quantity: number; owned: boolean; available: boolean } | null> {
  let q = db
    .selectFrom('stock as s')
    .innerJoin('positions as p', 'p.id', 's.position_id')
    .select(['s.position_id as position_key', 'p.code as position_code', 's.quantity', 's.owned', 'p.available'])
    .where('s.product_id', '=', productKey)
    .where('s.serial', '=', serial)
    .where('s.quantity', '>', 0)
  if (opts.availableOnly) q = q.where('p.available', '=', true)
  const row = await q.orderBy('p.available', 'desc').orderBy('s.quantity', 'desc').executeTakeFirst()
  return row ? { ...row, quantity: Number(row.quantity) } : null
}

/**
 * The inventory lines and totals (see InventoryInput), in one statement (one round trip): the
 * subtree's ids from the path index, the matching stock rows fetched by key once, then the first lines and the totals per product over all of them. A position key that
 * names nothing matches nothing.
 */
export async function readInventory(db: Db, input: InventoryInput): Promise<Inventory> {
  const conds = [sql`s.quantity <> 0`]
  if (input.position_key !== undefined) {
    if (!isUuid(input.position_key)) return { lines: [], more: false, totals: [] }
    if (input.subtree === false) conds.push(sql`s.position_id = ${input.position_key}`)
    else {
      conds.push(sql`s.position_id = ${inSubtreeOf(input.position_key)}`)
    }
  }
  if (input.product_key !== undefined) {
    if (!isUuid(input.product_key)) return { lines: [], more: false, totals: [] }
    conds.push(sql`s.product_id = ${input.product_key}`)
  }
  if (input.serial !== undefined) conds.push(sql`s.serial = ${input.serial.trim()}`)
  if (input.owned !== undefined) conds.push(sql`s.owned = ${input.owned}`)
  // Lines and totals travel as arrays of arrays (about half the bytes of keyed objects).
  type LineTuple = [string, string, string, string, string, string | null, boolean, number]
  type TotalTuple = [string, string, string, number]
  const { rows } = await sql<{ lines: LineTuple[]; totals: TotalTuple[] }>`
    with m as (
      select s.position_id, s.product_id, s.serial, s.owned, s.quantity from stock s where ${sql.join(conds, sql` and `)}
    )
    select
      (select coalesce(json_agg(json_build_array(l.position_id, l.position_code, l.product_id, l.product_code, l.product_description, l.serial, l.owned, l.quantity) order by l.n), '[]'::json) from (
        select m.position_id, p.code as position_code, m.product_id, pr.code as product_code,
          pr.description as product_description, nullif(m.serial, '') as serial, m.owned, m.quantity::float8 as quantity,
          row_number() over (order by p.code, pr.code, m.serial, m.owned desc) as n
        from m join positions p on p.id = m.position_id join products pr on pr.id = m.product_id
        order by p.code, pr.code, m.serial, m.owned desc
        limit ${INVENTORY_LIMIT + 1}) l) as lines,
      (select coalesce(json_agg(json_build_array(t.product_id, t.product_code, t.product_description, t.quantity) order by t.product_code), '[]'::json) from (
        select m.product_id, pr.code as product_code, pr.description as product_description, sum(m.quantity)::float8 as quantity
        from m join products pr on pr.id = m.product_id
        group by m.product_id, pr.code, pr.description) t) as totals`.execute(db)
  const lines: InventoryLine[] = rows[0]!.lines.map(([position_key, position_code, product_key, product_code, product_description, serial, owned, quantity]) => ({
    position_key,
    position_code,
    product_key,
    product_code,
    product_description,
    serial,
    owned,
    quantity,
  }))
  const totals = rows[0]!.totals.map(([product_key, product_code, product_description, quantity]) => ({ product_key, product_code, product_description, quantity }))
  return { lines: lines.slice(0, INVENTORY_LIMIT), more: lines.length > INVENTORY_LIMIT, totals }
}

/**
 * Serializes the stock of one serial (one product, one serial code) for the rest of the
 * transaction: two loads of the same serial at once cannot both see it absent.
 */
export async function lockSerialStock(trx: Db, productKey: string, serial: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${SERIAL_STOCK_LOCK_NAMESPACE}, hashtext(${`${productKey}|${serial}`}))`.execute(trx)
}
const SERIAL_STOCK_LOCK_NAMESPACE = 727101

/**
 * One serial is one piece (SPEC 3): after a movement brought it somewhere, all its stock lines
 * together hold at most one piece. Else 409 SERIAL_ALREADY_IN_STOCK naming where it already was
 * (`positions`: code and quantity, the arriving piece left out).
 */
export async function checkOnePieceOfSerial(trx: Db, productKey: string, serial: string, arrived: { position_id: string; quantity: number }): Promise<void> {
  const lines = await trx
    .selectFrom('stock as s')
    .innerJoin('positions as p', 'p.id', 's.position_id')
    .innerJoin('products as pr', 'pr.id', 's.product_id')
    .select(['s.position_id', 'p.code as position_code', 'pr.code as product_code', 's.quantity'])
    .where('s.product_id', '=', productKey)
    .where('s.serial', '=', serial)
    .where('s.quantity', '>', sql<number>`0`)
    .orderBy('p.code')
    .execute()
  const total = lines.reduce((sum, l) => sum + Number(l.quantity), 0)
  if (total <= 1) return
  const before = lines
    .map((l) => ({ position_key: l.position_id, position_code: l.position_code, quantity: Number(l.quantity) - (l.position_id === arrived.position_id ? arrived.quantity : 0) }))
    .filter((l) => l.quantity > 0)
  const where = before.map((l) => l.position_code).join(', ')
  throw conflict('SERIAL_ALREADY_IN_STOCK', `serial ${serial} of ${lines[0]!.product_code} is already in stock in ${where}: a serial is one piece`, {
    serial,
    product_code: lines[0]!.product_code,
    position_code: before[0]?.position_code ?? null,
    positions: before,
  })
}
