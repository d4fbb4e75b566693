import * as v from 'valibot'
import { FIELD_TYPES } from '../form-fields/schemas'
import { QUANTITY_PER, TRACEABILITY_LEVELS } from '../products/bom'
import { StorableText } from '../../valibot-helpers'
import { SERIAL_CODE_MAX, SERIAL_STATES } from './schemas'

/**
 * Serials declared in an open batch (SPEC 3 Serial link, 5 "all serials in a batch declared before
 * completing a step", 7 batch/{key}/serials and batch/{key}/serial-temp-links; issue 13).
 *
 * With traceability level `complete` on the phase, every piece of the batch (1..qt_total) gets
 * its produced serial (from the phase counter, or typed/scanned when the phase has no counter)
 * and, per bom line with `declared_serials`, the serials of the components put into it. They are
 * rows of `serials` / `serial_links` in state `temporary` while the batch is open, and become
 * `final` (SERIAL_FINALIZED) when the batch completes. Serial data is keyed by serial field key
 * (the form field's key), like serial fields themselves.
 *
 * Components per piece: a line per item asks ceil(quantity) serials for every piece; a line per
 * batch or per job asks what the batch consumes (ceil), all on the batch's first piece.
 */

/** How many serials of one component a piece carries. */
export function componentSlots(line: { quantity: number; quantity_per: (typeof QUANTITY_PER)[number] }, piece: number, batchQuantity: number): number {
  if (line.quantity_per === 'item') return Math.max(0, Math.ceil(line.quantity - 1e-9))
  return piece === 1 ? Math.max(0, Math.ceil(batchQuantity - 1e-9)) : 0
}

export const MAX_BATCH_PIECES_DECLARED = 1000
export const MAX_PIECE_LINKS = 200

const ScannedCode = v.pipe(v.string(), StorableText, v.maxLength(SERIAL_CODE_MAX, `a serial code may have at most ${SERIAL_CODE_MAX} characters`))

/** One component serial put into a piece: the bom line and the code scanned or typed. */
export const PieceLinkInput = v.object({
  /** The bom line (component) of the phase; it must have declared_serials. */
  component_key: v.pipe(v.string(), v.uuid('component_key must be a bom line key')),
  /** The component's serial code; an unknown code registers a new serial of the component's product. */
  child_serial_code: ScannedCode,
  /** The serial is inside another serial: move it here (the person confirmed, SPEC 5). */
  confirm_move: v.optional(v.boolean()),
  /** With inventory management on, the serial is in no stock position: link it anyway, without inventory movements (the person confirmed, SPEC 5). */
  confirm_not_in_stock: v.optional(v.boolean()),
})
export type PieceLinkInput = v.InferOutput<typeof PieceLinkInput>

/** What a piece of the batch is made of: its serial (typed when no counter), data and components. */
export const PieceSerialsInput = v.object({
  piece: v.pipe(v.number(), v.integer('piece must be a whole number'), v.minValue(1, 'piece starts at 1')),
  /** The produced serial typed or scanned (phases without a counter); with a counter the server numbers it. */
  serial_code: v.optional(v.nullable(ScannedCode)),
  /** Serial data by serial field key (form field key). */
  data: v.optional(v.record(v.pipe(v.string(), v.uuid('data keys are serial field keys')), v.unknown())),
  /** The component serials of the piece, replacing the ones declared before. */
  links: v.optional(v.pipe(v.array(PieceLinkInput), v.maxLength(MAX_PIECE_LINKS, `at most ${MAX_PIECE_LINKS} component serials per piece`))),
})
export type PieceSerialsInput = v.InferOutput<typeof PieceSerialsInput>

/** `PUT batch/{key}/serial-temp-links` body: the pieces declared (pieces not listed are left as they are). */
export const BatchSerialsInput = v.pipe(
  v.array(PieceSerialsInput),
  v.maxLength(MAX_BATCH_PIECES_DECLARED, `at most ${MAX_BATCH_PIECES_DECLARED} pieces at once`),
)

export const BatchSerialLink = v.object({
  link_key: v.string(),
  component_key: v.nullable(v.string()),
  serial_key: v.string(),
  code: v.string(),
  product_code: v.string(),
  state: v.picklist(SERIAL_STATES),
})
export type BatchSerialLink = v.InferOutput<typeof BatchSerialLink>

export const BatchPiece = v.object({
  piece: v.number(),
  serial_key: v.nullable(v.string()),
  code: v.nullable(v.string()),
  state: v.nullable(v.picklist(SERIAL_STATES)),
  data: v.record(v.string(), v.unknown()),
  links: v.array(BatchSerialLink),
  /** Every serial of the piece declared (its serial, mandatory serial fields, each component slot). */
  declared: v.boolean(),
})
export type BatchPiece = v.InferOutput<typeof BatchPiece>

export const BatchSerialComponent = v.object({
  /** The bom line. */
  component_key: v.string(),
  item_key: v.string(),
  item_code: v.string(),
  item_description: v.string(),
  quantity: v.number(),
  quantity_per: v.picklist(QUANTITY_PER),
  /** Serials of this component for piece 1 and for every other piece (see componentSlots). */
  first_piece_slots: v.number(),
  piece_slots: v.number(),
})
export type BatchSerialComponent = v.InferOutput<typeof BatchSerialComponent>

export const BatchSerialField = v.object({
  _key: v.string(),
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  options: v.array(v.string()),
  multiple: v.boolean(),
  mandatory: v.boolean(),
  help_text: v.string(),
})

/** `GET batch/{key}/serials`: the batch's pieces with their serials and what is still to declare. */
export const BatchSerials = v.object({
  batch_key: v.string(),
  qt_total: v.number(),
  traceability_level: v.picklist(TRACEABILITY_LEVELS),
  /** Level complete: every piece's serials must be declared before the serial step (and the batch) completes. */
  required: v.boolean(),
  /** The phase counter numbers the pieces; null: the serials are typed or scanned (COUNTER_NOT_DEFINED). */
  counter_name: v.nullable(v.string()),
  /** The step whose completion needs the serials (the batch's last step); null without steps. */
  serial_step_key: v.nullable(v.string()),
  components: v.array(BatchSerialComponent),
  serial_fields: v.array(BatchSerialField),
  pieces: v.array(BatchPiece),
  /** Every piece declared (always true below level complete). */
  complete: v.boolean(),
})
export type BatchSerials = v.InferOutput<typeof BatchSerials>
