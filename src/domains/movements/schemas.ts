import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'
import { SignatureInput } from '../signatures/schemas'

/**
 * Movements, stock and inventory counts (SPEC 3, 4, 7; issue 14). A movement carries a product
 * (and optionally a serial) from one position to another: `load` and `production` only arrive
 * (to), `unload` and `consumption` only leave (from), `transfer` does both, `adjustment` does one
 * of them (a count difference). A planned movement changes nothing until it is confirmed;
 * confirming changes the stock in the same transaction. A confirmed movement is undone by a
 * revert: the opposite movement, with a reason, the original marked as reverted by it.
 */
export const MOVEMENT_TYPES = ['load', 'unload', 'transfer', 'production', 'consumption', 'adjustment'] as const
export type MovementType = (typeof MOVEMENT_TYPES)[number]
export const MOVEMENT_STATUSES = ['planned', 'confirmed', 'cancelled'] as const
export type MovementStatus = (typeof MOVEMENT_STATUSES)[number]

/** Which side(s) each type needs: 'to' arrives only, 'from' leaves only, 'both', 'one' (either, not both). */
export const MOVEMENT_SIDES: Record<MovementType, 'to' | 'from' | 'both' | 'one'> = {
  load: 'to',
  production: 'to',
  unload: 'from',
  consumption: 'from',
  transfer: 'both',
  adjustment: 'one',
}

/** What `from`/`to` a movement of this type must have, or the problem (null when fine). */
export function movementSidesProblem(type: MovementType, from: unknown, to: unknown): string | null {
  const side = MOVEMENT_SIDES[type]
  if (side === 'to' && (!to || from)) return `a ${type} movement has a destination (to) and no origin (from)`
  if (side === 'from' && (!from || to)) return `a ${type} movement has an origin (from) and no destination (to)`
  if (side === 'both' && (!from || !to)) return 'a transfer has both an origin (from) and a destination (to)'
  if (side === 'one' && Boolean(from) === Boolean(to)) return 'an adjustment has either an origin (less stock) or a destination (more stock)'
  if (from && from === to) return 'origin and destination must differ'
  return null
}

export const QUANTITY_MAX = 1_000_000_000
/** Stock and movement quantities keep 4 decimals (numeric(18, 4), as bom quantities). */
export const QUANTITY_DECIMALS = 4
export const SERIAL_MAX = 200
export const REASON_MAX = 1000
export const ORIGIN_MAX = 100
export const MOVEMENT_PAGE_SIZE_MAX = 200
/** Lists count their total up to this many rows (`total_capped` beyond). */
export const LIST_TOTAL_CAP = 10_000
export const INVENTORY_LIMIT = 500

const Uuid = (what: string) => v.pipe(v.string(), v.uuid(`${what} must be a key (uuid)`))
export const Quantity = v.pipe(
  v.number('quantity must be a number'),
  v.finite('quantity must be a finite number'),
  v.gtValue(0, 'quantity must be greater than 0'),
  v.maxValue(QUANTITY_MAX, `quantity may be at most ${QUANTITY_MAX}`),
)
/** Counted quantities may be 0 (nothing there). */
export const CountedQuantity = v.pipe(
  v.number('quantity must be a number'),
  v.finite('quantity must be a finite number'),
  v.minValue(0, 'a counted quantity cannot be negative'),
  v.maxValue(QUANTITY_MAX, `quantity may be at most ${QUANTITY_MAX}`),
)
export const Serial = v.pipe(v.string(), StorableText, v.maxLength(SERIAL_MAX, `a serial may have at most ${SERIAL_MAX} characters`))
export const Reason = v.pipe(v.string(), StorableText, v.maxLength(REASON_MAX, `a reason may have at most ${REASON_MAX} characters`))
const OriginText = v.pipe(v.string(), StorableText, v.maxLength(ORIGIN_MAX))

/** `POST movement`: planned (confirm=false) or confirmed at once (the default). */
export const MovementCreateInput = v.object({
  product_key: Uuid('product_key'),
  type: v.picklist(MOVEMENT_TYPES, `type must be one of ${MOVEMENT_TYPES.join(', ')}`),
  from_position_key: v.optional(v.nullable(Uuid('from_position_key'))),
  to_position_key: v.optional(v.nullable(Uuid('to_position_key'))),
  quantity: Quantity,
  serial: v.optional(v.nullable(Serial)),
  owned: v.optional(v.boolean()),
  reason: v.optional(Reason),
  confirm: v.optional(v.boolean()),
  work_order_key: v.optional(v.nullable(Uuid('work_order_key'))),
  batch_key: v.optional(v.nullable(Uuid('batch_key'))),
  origin_type: v.optional(v.nullable(OriginText)),
  origin_key: v.optional(v.nullable(OriginText)),
})
export type MovementCreateInput = v.InferOutput<typeof MovementCreateInput>

/** `POST movement/{key}/confirm`: the confirmed quantity (default: the planned one). */
export const MovementConfirmInput = v.object({ quantity: v.optional(Quantity) })
/** `POST movement/{key}/revert`: the reason is required (SPEC 4). */
export const MovementRevertInput = v.object({
  reason: Reason,
  /** When the settings require reverts to be signed (signature_movement_revert). */
  signature: v.optional(SignatureInput),
})

export const MovementRow = v.object({
  _key: v.string(),
  number: v.number(),
  product_key: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  serial: v.nullable(v.string()),
  owned: v.boolean(),
  from_position_key: v.nullable(v.string()),
  from_position_code: v.nullable(v.string()),
  to_position_key: v.nullable(v.string()),
  to_position_code: v.nullable(v.string()),
  type: v.picklist(MOVEMENT_TYPES),
  status: v.picklist(MOVEMENT_STATUSES),
  planned_quantity: v.number(),
  confirmed_quantity: v.nullable(v.number()),
  reason: v.string(),
  started_at: v.number(),
  ended_at: v.nullable(v.number()),
  user_key: v.nullable(v.string()),
  user_name: v.nullable(v.string()),
  reverts_key: v.nullable(v.string()),
  /** The number of the movement this one reverts (shown as M-n, like the key's movement). */
  reverts_number: v.nullable(v.number()),
  reverted_by_key: v.nullable(v.string()),
  reverted_by_number: v.nullable(v.number()),
  revert_reason: v.nullable(v.string()),
  work_order_key: v.nullable(v.string()),
  batch_key: v.nullable(v.string()),
  origin_type: v.nullable(v.string()),
  origin_key: v.nullable(v.string()),
})
export type MovementRow = v.InferOutput<typeof MovementRow>

/**
 * `GET movement` with params: product, position (from or to; `subtree` includes everything
 * below it), type, status, serial, work order, batch, origin; newest first, `page` (1-based) of
 * `page_size`, the total counted up to LIST_TOTAL_CAP.
 */
export const MovementListInput = v.object({
  product_key: v.optional(Uuid('product_key')),
  position_key: v.optional(Uuid('position_key')),
  type: v.optional(v.picklist(MOVEMENT_TYPES, `type must be one of ${MOVEMENT_TYPES.join(', ')}`)),
  status: v.optional(v.picklist(MOVEMENT_STATUSES, `status must be one of ${MOVEMENT_STATUSES.join(', ')}`)),
  serial: v.optional(Serial),
  work_order_key: v.optional(Uuid('work_order_key')),
  batch_key: v.optional(Uuid('batch_key')),
  origin_type: v.optional(OriginText),
  origin_key: v.optional(OriginText),
  subtree: v.optional(v.boolean()),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MOVEMENT_PAGE_SIZE_MAX))),
})
export type MovementListInput = v.InferOutput<typeof MovementListInput>
export const MovementList = v.object({ rows: v.array(MovementRow), total: v.number(), total_capped: v.boolean() })
export type MovementList = v.InferOutput<typeof MovementList>

export const RevertResult = v.object({ original: MovementRow, revert: MovementRow })

/** An inventory line (SPEC 3): position, product, quantity, serial, owned. */
export const InventoryLine = v.object({
  position_key: v.string(),
  position_code: v.string(),
  product_key: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  serial: v.nullable(v.string()),
  owned: v.boolean(),
  quantity: v.number(),
})
export type InventoryLine = v.InferOutput<typeof InventoryLine>
export const InventoryTotal = v.object({ product_key: v.string(), product_code: v.string(), product_description: v.string(), quantity: v.number() })
export type InventoryTotal = v.InferOutput<typeof InventoryTotal>

/**
 * `GET inventory` with params: position (with everything below it unless `subtree=false`),
 * product, serial (exact), owned; lines (non-zero stock) by position and product code, at most
 * INVENTORY_LIMIT, and the totals per product over all matching lines.
 */
export const InventoryInput = v.object({
  position_key: v.optional(Uuid('position_key')),
  product_key: v.optional(Uuid('product_key')),
  serial: v.optional(Serial),
  subtree: v.optional(v.boolean()),
  owned: v.optional(v.boolean()),
})
export type InventoryInput = v.InferOutput<typeof InventoryInput>
export const Inventory = v.object({
  lines: v.array(InventoryLine),
  /** More lines matched than INVENTORY_LIMIT: narrow the filters. Totals still count them all. */
  more: v.boolean(),
  totals: v.array(InventoryTotal),
})
export type Inventory = v.InferOutput<typeof Inventory>

/**
 * `POST position/{key}/count`: what was found in the position (itself, not below it). Lines of
 * its stock that were not counted are taken as 0 unless `missing_are_zero` is false. Each
 * difference becomes a confirmed adjustment movement with the reason.
 */
export const CountLine = v.object({
  product_key: Uuid('product_key'),
  serial: v.optional(v.nullable(Serial)),
  owned: v.optional(v.boolean()),
  quantity: CountedQuantity,
})
export const CountInput = v.object({
  reason: Reason,
  lines: v.pipe(v.array(CountLine), v.maxLength(1000)),
  missing_are_zero: v.optional(v.boolean()),
})
export type CountInput = v.InferOutput<typeof CountInput>
export const CountResult = v.object({ position_key: v.string(), movements: v.array(MovementRow) })

/** admin/general/warehouse (SPEC 3 Settings). */
export const WarehouseSettings = v.object({
  inventory_management: v.boolean(),
  default_production_position_key: v.nullable(v.string()),
  default_consumption_position_key: v.nullable(v.string()),
  negative_stock_allowed: v.boolean(),
})
export type WarehouseSettings = v.InferOutput<typeof WarehouseSettings>
export const WarehouseSettingsRow = v.object({
  ...WarehouseSettings.entries,
  default_production_position_code: v.nullable(v.string()),
  default_consumption_position_code: v.nullable(v.string()),
})
export type WarehouseSettingsRow = v.InferOutput<typeof WarehouseSettingsRow>
export const WarehouseSettingsPatch = v.object({
  inventory_management: v.optional(v.boolean()),
  default_production_position_key: v.optional(v.nullable(Uuid('default_production_position_key'))),
  default_consumption_position_key: v.optional(v.nullable(Uuid('default_consumption_position_key'))),
  negative_stock_allowed: v.optional(v.boolean()),
})
export type WarehouseSettingsPatch = v.InferOutput<typeof WarehouseSettingsPatch>
