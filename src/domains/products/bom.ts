import * as v from 'valibot'

/** SPEC 3 Bom line: quantity per item / per job / per batch; DOMAIN.md traceability levels. */
export const QUANTITY_PER = ['item', 'job', 'batch'] as const
export const TRACEABILITY_LEVELS = ['none', 'form', 'complete'] as const
export type QuantityPer = (typeof QUANTITY_PER)[number]
export type TraceabilityLevel = (typeof TRACEABILITY_LEVELS)[number]

export const BOM_QUANTITY_MAX = 1_000_000_000

/** Positivity and "an item cannot repeat in a phase" are service rules with their own codes. */
export const BomLineInput = v.object({
  phase_key: v.pipe(v.string(), v.uuid('phase_key must be a phase key')),
  item_key: v.pipe(v.string(), v.uuid('item_key must be a product key')),
  quantity: v.pipe(v.number('quantity must be a number'), v.maxValue(BOM_QUANTITY_MAX)),
  quantity_per: v.picklist(QUANTITY_PER, 'quantity_per must be item, job or batch'),
  traceability: v.optional(v.picklist(TRACEABILITY_LEVELS, 'traceability must be none, form or complete')),
  /** The component is serial-tracked: its serials must be declared when it is used (default false). */
  declared_serials: v.optional(v.boolean()),
})
export type BomLineInput = v.InferOutput<typeof BomLineInput>

export const MAX_BOM_LINES = 2000
export const BomInput = v.object({ lines: v.pipe(v.array(BomLineInput), v.maxLength(MAX_BOM_LINES, `at most ${MAX_BOM_LINES} lines`)) })
export type BomInput = v.InferOutput<typeof BomInput>

export const BomLine = v.object({
  _key: v.string(),
  phase_key: v.string(),
  item_key: v.string(),
  item_code: v.string(),
  item_description: v.string(),
  /** False for an inactive or trashed component: kept lines stay, new lines need an active product. */
  item_active: v.boolean(),
  quantity: v.number(),
  quantity_per: v.picklist(QUANTITY_PER),
  traceability: v.picklist(TRACEABILITY_LEVELS),
  declared_serials: v.boolean(),
})
export type BomLine = v.InferOutput<typeof BomLine>
export const Bom = v.object({ product_key: v.string(), lines: v.array(BomLine) })
export type Bom = v.InferOutput<typeof Bom>

/** Pieces of a component needed for `pieces` parent pieces, in `batches` batches of one job. */
export function componentQuantity(line: Pick<BomLine, 'quantity' | 'quantity_per'>, pieces: number, batches = 1): number {
  if (line.quantity_per === 'item') return line.quantity * pieces
  if (line.quantity_per === 'batch') return line.quantity * batches
  return line.quantity
}

/** Quantities are stored with 4 decimals (numeric(14, 4)); more are refused, never rounded. */
export const BOM_QUANTITY_DECIMALS = 4

export type BomLineProblem = { index: number; code: 'BOM_QUANTITY_NOT_POSITIVE' | 'BOM_ITEM_REPEATED' }

/**
 * The rules of SPEC 5 a list of lines breaks, line by line (client forms and the server agree):
 * the quantity must be positive and an item cannot repeat in
 * a phase (the later occurrences are the ones in error). Lines without an item yet are skipped
 * for the repetition rule.
 */
export function bomLineProblems(lines: readonly { phase_key: string; item_key: string; quantity: number | null }[]): BomLineProblem[] {
  const problems: BomLineProblem[] = []
  const seen = new Set<string>()
  for (const [index, line] of lines.entries()) {
    if (line.quantity === null || !Number.isFinite(line.quantity) || !(line.quantity > 0)) {
      problems.push({ index, code: 'BOM_QUANTITY_NOT_POSITIVE' })
    }
    if (!line.item_key) continue
    const key = `${line.phase_key}\u0000${line.item_key}`
    if (seen.has(key)) problems.push({ index, code: 'BOM_ITEM_REPEATED' })
    seen.add(key)
  }
  return problems
}
