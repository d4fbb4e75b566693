import type { Consumption } from '../../../src/domains/execution/schemas'
import { round4, phaseNeed } from '../../../src/domains/missions/material'
import type { WorkOrderMaterial } from '../../../src/domains/missions/schemas'
import type { MovementListInput, MovementRow } from '../../../src/domains/movements/schemas'
import type { PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, conflict, notFound } from '../../errors'
import { listMovements } from '../movements/list'
import { createMovementInTrx } from '../movements/service'
import { readWarehouseSettings } from '../movements/settings'
import { serialInStock, stockForProducts } from '../movements/stock'
import { findPosition } from '../positions/service'
import { batchComponentSerials, batchSerials, workOrderNeeds, workOrderProduct } from './queries'

/**
 * Stock follows production (issue 14, DOMAIN.md "Running a job"): with inventory management on,
 * a completed batch consumes its phase's bom from the default consumption position and, in the
 * work order's last phase, loads the pieces it made into the default production position, in
 * BATCH_COMPLETED's own transaction (execution calls `moveStockForCompletedBatch`). Every move
 * is a confirmed movement of the warehouse service (type consumption / production, with the
 * work order and batch), so a refused completion leaves the stock as it was.
 * - Serial-tracked pieces move by serial: each component serial linked in the batch is consumed
 *   from where it is in stock; one not in stock anywhere moves nothing (SPEC 5: the operator
 *   confirmed linking it without inventory movements). The rest of the quantity moves without serial.
 *   Each serial made in the batch of the work order's product is loaded by its code.
 * - A shortfall follows the warehouse's negative-stock setting: allowed, the stock goes below 0;
 *   not allowed, the completion is refused with 409 PRODUCTION_STOCK_SHORTFALL naming the
 *   component, the position, what is needed and what is there.
 * - Inventory management on without the default position needed: 409 WAREHOUSE_POSITION_NOT_SET.
 */

export type CompletedBatchStock = {
  batchId: string
  workOrderId: string
  /** Pieces completed in the batch less the scrapped ones: what the last phase loads. */
  goodQt: number
  /** The phase's bom as the batch consumed it (execution's batchConsumption). */
  consumed: readonly Pick<Consumption, 'item_key' | 'item_code' | 'quantity'>[]
  /** The work order's last phase: its pieces are finished goods. */
  lastPhase: boolean
}

export type StockMoves = { consumed: MovementRow[]; produced: MovementRow[] }

const positionNotSet = (which: 'production' | 'consumption') =>
  conflict(
    'WAREHOUSE_POSITION_NOT_SET',
    `inventory management is on but no default ${which} position is set (admin, warehouse settings): the batch cannot move its stock`,
    { position: which },
  )

/** In the caller's (BATCH_COMPLETED's) transaction. Null when inventory management is off. */
export async function moveStockForCompletedBatch(trx: Db, actor: Actor | null, input: CompletedBatchStock, now: Date): Promise<StockMoves | null> {
  const ws = await readWarehouseSettings(trx)
  if (!ws.inventory_management) return null
  const toConsume = input.consumed.filter((c) => c.quantity > 0)
  const from = ws.default_consumption_position_key
  const to = ws.default_production_position_key
  if (toConsume.length && !from) throw positionNotSet('consumption')
  if (input.lastPhase && input.goodQt > 0 && !to) throw positionNotSet('production')
  const common = { work_order_key: input.workOrderId, batch_key: input.batchId, origin_type: 'batch', origin_key: input.batchId }
  const moves: StockMoves = { consumed: [], produced: [] }

  if (toConsume.length && from) {
    const componentSerials = await batchComponentSerials(trx, input.batchId)
    const consumptionPosition = await findPosition(trx, from)
    for (const c of toConsume) {
      let rest = c.quantity
      for (const s of componentSerials.filter((x) => x.product_id === c.item_key)) {
        if (rest <= 0) break
        rest = round4(rest - 1)
        const where = await serialInStock(trx, c.item_key, s.code)
        // Not in stock anywhere: linked without inventory movements (SPEC 5).
        if (!where || where.quantity <= 0) continue
        // Only in positions not flagged available (quarantine, ...): production may not take it.
        if (!where.available) throw notAvailable({ product_key: c.item_key, product_code: c.item_code, position_key: where.position_key, position_code: where.position_code, needed: 1, serial: s.code })
        moves.consumed.push(
          await consume(trx, actor, { ...common, product_key: c.item_key, product_code: c.item_code, from_position_key: where.position_key, quantity: 1, serial: s.code }, now),
        )
      }
      if (rest > 0) {
        if (consumptionPosition && !consumptionPosition.available) {
          throw notAvailable({ product_key: c.item_key, product_code: c.item_code, position_key: from, position_code: consumptionPosition?.code ?? null, needed: rest })
        }
        moves.consumed.push(await consume(trx, actor, { ...common, product_key: c.item_key, product_code: c.item_code, from_position_key: from, quantity: rest }, now))
      }
    }
  }

  if (input.lastPhase && input.goodQt > 0 && to) {
    const wo = await workOrderProduct(trx, input.workOrderId)
    const made = (await batchSerials(trx, input.batchId)).filter((s) => s.product_id === wo.product_id).slice(0, input.goodQt)
    const load = (quantity: number, serial?: string) =>
      createMovementInTrx(trx, actor, { ...common, type: 'production', product_key: wo.product_id, to_position_key: to, quantity, serial: serial ?? null }, now)
    for (const s of made) moves.produced.push(await load(1, s.code))
    const rest = input.goodQt - made.length
    if (rest > 0) moves.produced.push(await load(rest))
  }
  return moves
}

/**
 * Stock in a position not flagged available (SPEC 3 position flags: quarantine, reserved ...) is
 * never consumed by production, even with negative stock allowed: 409 PRODUCTION_STOCK_SHORTFALL
 * with `position_available: false` and nothing usable (`available: 0`).
 */
function notAvailable(x: { product_key: string; product_code: string; position_key: string; position_code: string | null; needed: number; serial?: string }) {
  const where = x.position_code ?? 'the consumption position'
  return conflict(
    'PRODUCTION_STOCK_SHORTFALL',
    `${x.product_code}${x.serial ? ` (serial ${x.serial})` : ''} cannot be consumed from ${where}: the position is flagged not available; needs ${x.needed}, usable 0`,
    { ...x, serial: x.serial ?? null, available: 0, position_available: false },
  )
}

/** One consumption movement; the warehouse's INSUFFICIENT_STOCK becomes the operator's PRODUCTION_STOCK_SHORTFALL. */
async function consume(
  trx: Db,
  actor: Actor | null,
  input: { product_key: string; product_code: string; from_position_key: string; quantity: number; serial?: string } & Record<string, unknown>,
  now: Date,
): Promise<MovementRow> {
  const { product_code, ...movement } = input
  try {
    return await createMovementInTrx(trx, actor, { ...movement, type: 'consumption', serial: input.serial ?? null } as Parameters<typeof createMovementInTrx>[2], now)
  } catch (e) {
    if (!(e instanceof AppError) || e.appCode !== 'INSUFFICIENT_STOCK') throw e
    const position = await findPosition(trx, input.from_position_key)
    const available = Number(e.extra?.available ?? 0)
    throw conflict(
      'PRODUCTION_STOCK_SHORTFALL',
      `not enough ${product_code}${input.serial ? ` (serial ${input.serial})` : ''} at ${position?.code ?? 'the consumption position'} to complete the batch: needs ${input.quantity}, has ${available}`,
      { product_key: input.product_key, product_code, position_key: input.from_position_key, position_code: position?.code ?? null, needed: input.quantity, available, serial: input.serial ?? null },
    )
  }
}

// ---------------------------------------------------------------------------------------------
// The work order's material (production work order page, "Materiale" tab)

/** Every movement matching the filters (page by page; a work order has a few per batch). */
export async function allMovements(svc: Pick<Services, 'db'>, filters: Omit<MovementListInput, 'page' | 'page_size'>): Promise<MovementRow[]> {
  const rows: MovementRow[] = []
  for (let page = 1; page <= 500; page++) {
    const list = await listMovements(svc as Services, { ...filters, page, page_size: 200 })
    rows.push(...list.rows)
    if (list.rows.length < 200) break
  }
  return rows
}

/** Confirmed quantity per product of the movements that still count (not reverted). */
function confirmedByProduct(rows: readonly MovementRow[]): Map<string, number> {
  const by = new Map<string, number>()
  for (const m of rows) {
    if (m.status !== 'confirmed' || m.reverted_by_key || m.reverts_key) continue
    by.set(m.product_key, round4((by.get(m.product_key) ?? 0) + (m.confirmed_quantity ?? 0)))
  }
  return by
}

/**
 * Per component of the work order's bom (phase by phase): what the work order needs, what its
 * completed batches consumed, what is at the consumption position and anywhere, and what its
 * missions are still bringing.
 */
export async function getWorkOrderMaterial(svc: Pick<Services, 'db'>, workOrderKey: string): Promise<WorkOrderMaterial> {
  const needs = isUuid(workOrderKey) ? await workOrderNeeds(svc.db, workOrderKey) : null
  if (!needs) throw notFound('NOT_FOUND', 'work order not found')
  const ws = await readWarehouseSettings(svc.db)
  const items = [...new Set(needs.lines.map((l) => l.item_id))]
  const [consumption, production, planned] = await Promise.all([
    allMovements(svc, { work_order_key: workOrderKey, type: 'consumption' }),
    allMovements(svc, { work_order_key: workOrderKey, type: 'production' }),
    allMovements(svc, { work_order_key: workOrderKey, status: 'planned', origin_type: 'mission' }),
  ])
  const consumed = confirmedByProduct(consumption)
  const plannedBy = new Map<string, number>()
  for (const m of planned) {
    if (ws.default_consumption_position_key && m.to_position_key !== ws.default_consumption_position_key) continue
    plannedBy.set(m.product_key, round4((plannedBy.get(m.product_key) ?? 0) + m.planned_quantity))
  }
  const anywhere = items.length ? await stockForProducts(svc.db, items, { availableOnly: true }) : new Map<string, number>()
  const atLine =
    items.length && ws.default_consumption_position_key
      ? await stockForProducts(svc.db, items, { positionKey: ws.default_consumption_position_key, subtree: true })
      : null
  const positionCode = async (key: string | null) => (await findPosition(svc.db, key))?.code ?? null
  const phaseName = new Map(needs.phases.map((p) => [p.phase_id, p.name]))
  const phaseOrder = new Map(needs.phases.map((p) => [p.phase_id, p.position]))
  const lines = [...needs.lines]
    .sort((a, b) => (phaseOrder.get(a.phase_id) ?? 0) - (phaseOrder.get(b.phase_id) ?? 0) || a.position - b.position)
    .map((l) => {
      const phase = needs.phases.find((p) => p.phase_id === l.phase_id)!
      const params = phase.parameters as PhaseParameters
      const jobs = needs.jobs.filter((j) => j.phase_id === l.phase_id)
      return {
        phase_key: l.phase_id,
        phase_name: phaseName.get(l.phase_id) ?? '',
        item_key: l.item_id,
        item_code: l.item_code,
        item_description: l.item_description,
        quantity: l.quantity,
        quantity_per: l.quantity_per,
        required: phaseNeed(l, jobs.length ? jobs : [{ quantity: needs.wo.planned_qt }], params.production_batch_qt ?? 0),
        consumed: consumed.get(l.item_id) ?? 0,
        available_at_line: atLine ? (atLine.get(l.item_id) ?? 0) : null,
        available: anywhere.get(l.item_id) ?? 0,
        planned_to_line: plannedBy.get(l.item_id) ?? 0,
      }
    })
  return {
    work_order_key: workOrderKey,
    inventory_management: ws.inventory_management,
    consumption_position_key: ws.default_consumption_position_key,
    consumption_position_code: await positionCode(ws.default_consumption_position_key),
    production_position_code: await positionCode(ws.default_production_position_key),
    produced: confirmedByProduct(production).get(needs.wo.product_id) ?? 0,
    lines,
  }
}

// ---------------------------------------------------------------------------------------------
// SPEC 5: "a serial not in stock asks confirmation to link without inventory movements"

/**
 * For the serial declaration of a batch (traceability calls it before linking component serials):
 * with inventory management on, the component serials (product and code) that are in no stock
 * position. Unless the operator confirmed (`confirmed`), any of them refuses the declaration with
 * 409 SERIAL_NOT_IN_STOCK naming them (`serials`), so the client can ask and send it again
 * confirmed; confirmed, batch completion links them without inventory movements. Inventory
 * management off: nothing is checked.
 */
export async function assertComponentSerialsInStock(
  db: Db,
  serials: readonly { product_key: string; code: string }[],
  confirmed: boolean,
): Promise<string[]> {
  if (serials.length === 0) return []
  const ws = await readWarehouseSettings(db)
  if (!ws.inventory_management) return []
  const missing: string[] = []
  for (const s of serials) if (!(await serialInStock(db, s.product_key, s.code))) missing.push(s.code)
  if (missing.length && !confirmed) {
    throw conflict('SERIAL_NOT_IN_STOCK', `serial ${missing.join(', ')} is not in stock: confirm to link it without inventory movements`, { serials: missing })
  }
  return missing
}
