import type { MovementRow } from '../../../src/domains/movements/schemas'
import type { Db } from '../../db/connect'
import { selectMovementRows } from '../movements/service'

/**
 * Reads production-stock needs from the production and traceability tables (read only: every
 * write goes through the owning service). Stock and movements are read through the warehouse
 * service, never here.
 */

/** The work order's product (what its last phase makes). */
export function workOrderProduct(db: Db, workOrderId: string) {
  return db
    .selectFrom('work_orders as w')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .select(['w.id', 'w.code', 'w.product_id', 'p.code as product_code'])
    .where('w.id', '=', workOrderId)
    .executeTakeFirstOrThrow()
}

/** Serials made in the batch (any state: they turn final in the same transaction). */
export function batchSerials(db: Db, batchId: string) {
  return db.selectFrom('serials').select(['id', 'code', 'product_id']).where('batch_id', '=', batchId).orderBy('code').execute()
}

/** Component serials linked in the batch (the children of its links), with their product. */
export function batchComponentSerials(db: Db, batchId: string) {
  return db
    .selectFrom('serial_links as l')
    .innerJoin('serials as c', 'c.id', 'l.child_serial_id')
    .select(['c.id', 'c.code', 'c.product_id'])
    .where('l.batch_id', '=', batchId)
    .orderBy('c.code')
    .execute()
}

/** A work order's phases (in order) with their jobs' quantities and batch size, and its bom lines. */
export async function workOrderNeeds(db: Db, workOrderId: string) {
  const wo = await db
    .selectFrom('work_orders')
    .select(['id', 'code', 'product_id', 'planned_qt'])
    .where('id', '=', workOrderId)
    .executeTakeFirst()
  if (!wo) return null
  const phases = await db
    .selectFrom('work_order_phases as wp')
    .innerJoin('product_phases as pp', 'pp.id', 'wp.phase_id')
    .select(['wp.phase_id', 'wp.position', 'pp.name', 'pp.parameters'])
    .where('wp.work_order_id', '=', workOrderId)
    .orderBy('wp.position')
    .execute()
  const jobs = await db
    .selectFrom('jobs')
    .select(['id', 'phase_id', 'quantity', 'completed_qt'])
    .where('work_order_id', '=', workOrderId)
    .execute()
  const lines = phases.length
    ? await db
        .selectFrom('bom_lines as b')
        .innerJoin('products as i', 'i.id', 'b.item_id')
        .select(['b.id', 'b.phase_id', 'b.item_id', 'i.code as item_code', 'i.description as item_description', 'b.quantity', 'b.quantity_per', 'b.position'])
        .where(
          'b.phase_id',
          'in',
          phases.map((p) => p.phase_id),
        )
        .orderBy('b.position')
        .execute()
    : []
  return { wo, phases, jobs, lines }
}

/** Movements by key, in one query (the warehouse's own row shape and joins). */
export async function movementsByKeys(db: Db, keys: readonly string[]): Promise<Map<string, MovementRow>> {
  if (keys.length === 0) return new Map()
  const rows = await selectMovementRows(db).where('m.id', 'in', [...keys]).execute()
  return new Map(rows.map((r) => [r._key, r]))
}
