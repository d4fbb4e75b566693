import { componentQuantity, type QuantityPer } from '../products/bom'

/** Batches a job of `quantity` pieces runs: production_batch_qt pieces each (0 = the whole job in one batch). */
export const batchesOf = (quantity: number, batchQt: number) => (quantity <= 0 ? 0 : batchQt > 0 ? Math.ceil(quantity / batchQt) : 1)

/** Quantities keep 4 decimals (numeric(18, 4)). */
export const round4 = (n: number) => Math.round(n * 10_000) / 10_000

/**
 * What a phase needs of one bom line for a work order: per item times the pieces, per batch
 * times the batches each job runs, per job once per job (DOMAIN.md; as batch completion consumes).
 */
export function phaseNeed(line: { quantity: number; quantity_per: QuantityPer }, jobs: readonly { quantity: number }[], batchQt: number): number {
  return round4(jobs.reduce((sum, j) => sum + componentQuantity(line, j.quantity, batchesOf(j.quantity, batchQt)), 0))
}
