import * as v from 'valibot'

/** SPEC 3 Bom line: quantity per item / per job / per batch; DOMAIN.md traceability levels. */
export const QUANTITY_PER = ['item', 'job', 'batch'] as const
export const TRACEABILITY_LEVELS = ['none', 'form', 'complete'] as const
export type QuantityPer = (typeof QUANTITY_PER)[number]
export type TraceabilityLevel = (typeof TRACEABILITY_LEVELS)[number]

/** Positivity and "an item cannot repeat in a phase" are service rules with their own codes. */
export const BomLineInput = v.object({
  phase_key: v.pipe(v.string(), v.uuid('phase_key must be a phase key')),
  item_key: v.pipe(v.string(), v.uuid('item_key must be a product key')),
  quantity: v.pipe(v.number('quantity must be a number'), v.maxValue(1_000_000_000)),
  quantity_per: v.picklist(QUANTITY_PER, 'quantity_per must be item, job or batch'),
  traceability: v.optional(v.picklist(TRACEABILITY_LEVELS, 'traceability must be none, form or complete')),
})
export type BomLineInput = v.InferOutput<typeof BomLineInput>

export const BomInput = v.object({ lines: v.pipe(v.array(BomLineInput), v.maxLength(2000)) })

export const BomLine = v.object({
  _key: v.string(),
  phase_key: v.string(),
  item_key: v.string(),
  item_code: v.string(),
  item_description: v.string(),
  quantity: v.number(),
  quantity_per: v.picklist(QUANTITY_PER),
  traceability: v.picklist(TRACEABILITY_LEVELS),
})
export type BomLine = v.InferOutput<typeof BomLine>
export const Bom = v.object({ product_key: v.string(), lines: v.array(BomLine) })

/** Pieces of a component needed for `pieces` parent pieces, in `batches` batches of one job. */
export function componentQuantity(line: Pick<BomLine, 'quantity' | 'quantity_per'>, pieces: number, batches = 1): number {
  if (line.quantity_per === 'item') return line.quantity * pieces
  if (line.quantity_per === 'batch') return line.quantity * batches
  return line.quantity
}
