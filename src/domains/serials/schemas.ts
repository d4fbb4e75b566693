import * as v from 'valibot'
import { DayInput } from '../../dates'
import { StorableText } from '../../valibot-helpers'
import { SignatureInput, SignatureView } from '../signatures/schemas'

/**
 * Serials and serial links (SPEC 3, 4, 5, 7; issue 13). A serial has a unique code, the product it
 * is, where it was made (work order, job, batch, phase, operator, time), free data and a state:
 * temporary while the batch that declared it is open, final at BATCH_COMPLETED. A serial is
 * contained in at most one other serial (a link); genealogy walks the links both ways.
 * Rules with a SPEC message (code in use, reason required, ...) are checked in the service.
 */
export const SERIAL_CODE_MAX = 200
export const SERIAL_REASON_MAX = 1000
/** Serial data as JSON text may not exceed this many characters. */
export const SERIAL_DATA_MAX_CHARS = 20_000
/** Search and overview answer the first 100 rows; the total is counted up to this cap. */
export const SERIAL_LIST_LIMIT = 100
export const SERIAL_TOTAL_CAP = 10_000
/** Genealogy answers at most this many serials and this many levels. */
export const GENEALOGY_MAX_ROWS = 20_000
export const GENEALOGY_MAX_DEPTH = 50

export const SERIAL_STATES = ['temporary', 'final'] as const
export type SerialState = (typeof SERIAL_STATES)[number]
export const GENEALOGY_DIRECTIONS = ['backward', 'forward'] as const
export type GenealogyDirection = (typeof GENEALOGY_DIRECTIONS)[number]

const Uuid = (what: string) => v.pipe(v.string(), v.uuid(`${what} must be a key (uuid)`))
export const SerialCode = v.pipe(
  v.string(),
  StorableText,
  v.maxLength(SERIAL_CODE_MAX, `a serial code may have at most ${SERIAL_CODE_MAX} characters`),
)
export const SerialReason = v.pipe(
  v.string(),
  StorableText,
  v.maxLength(SERIAL_REASON_MAX, `a reason may have at most ${SERIAL_REASON_MAX} characters`),
)
/** Serial data: field values by name. The size and storable text are checked by the service. */
export const SerialData = v.record(v.pipe(v.string(), v.maxLength(200)), v.unknown())

export const SerialListInput = v.object({
  /** The code starts with this (any case); needs the settings' minimum length. */
  search: v.optional(v.pipe(v.string(), StorableText, v.maxLength(SERIAL_CODE_MAX))),
  code: v.optional(SerialCode),
  product_key: v.optional(Uuid('product_key')),
  work_order_key: v.optional(Uuid('work_order_key')),
  phase_key: v.optional(Uuid('phase_key')),
  state: v.optional(v.picklist(SERIAL_STATES, `state must be one of ${SERIAL_STATES.join(', ')}`)),
  from: v.optional(DayInput),
  to: v.optional(DayInput),
})
export type SerialListInput = v.InferOutput<typeof SerialListInput>

export const SerialRow = v.object({
  _key: v.string(),
  code: v.string(),
  product_key: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  work_order_key: v.nullable(v.string()),
  work_order_code: v.nullable(v.string()),
  /** The number of the released revision the piece was made to (its work order's); null without a work order. */
  revision_number: v.nullable(v.number()),
  job_key: v.nullable(v.string()),
  batch_key: v.nullable(v.string()),
  batch_number: v.nullable(v.number()),
  phase_key: v.nullable(v.string()),
  phase_name: v.nullable(v.string()),
  operator_key: v.nullable(v.string()),
  operator_name: v.nullable(v.string()),
  data: v.record(v.string(), v.unknown()),
  state: v.picklist(SERIAL_STATES),
  created_at: v.number(),
  updated_at: v.number(),
})
export type SerialRow = v.InferOutput<typeof SerialRow>

export const SerialList = v.object({
  rows: v.array(SerialRow),
  /** Matches counted up to SERIAL_TOTAL_CAP; `total_capped` says there are at least that many. */
  total: v.number(),
  total_capped: v.boolean(),
})
export type SerialList = v.InferOutput<typeof SerialList>

/** One link seen from a serial: the other serial and where the link was made. */
export const SerialLinkRow = v.object({
  link_key: v.string(),
  serial_key: v.string(),
  code: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  phase_key: v.nullable(v.string()),
  component_key: v.nullable(v.string()),
  batch_key: v.nullable(v.string()),
  state: v.picklist(SERIAL_STATES),
  created_at: v.number(),
})
export type SerialLinkRow = v.InferOutput<typeof SerialLinkRow>

export const SerialHistoryRow = v.object({
  /** The event's key: a signed correction's signature names it (`<serial key>:<event key>`). */
  _key: v.string(),
  event_type: v.string(),
  user_key: v.nullable(v.string()),
  user_name: v.nullable(v.string()),
  created_at: v.number(),
  data: v.record(v.string(), v.unknown()),
})

export const SerialDetail = v.object({
  ...SerialRow.entries,
  components: v.array(SerialLinkRow),
  contained_in: v.nullable(SerialLinkRow),
  history: v.array(SerialHistoryRow),
  /** Signatures of its corrections (when the settings require them), each checked against its event. */
  signatures: v.array(SignatureView),
})
export type SerialDetail = v.InferOutput<typeof SerialDetail>

export const GenealogyInput = v.object({
  direction: v.picklist(GENEALOGY_DIRECTIONS, `direction must be one of ${GENEALOGY_DIRECTIONS.join(', ')}`),
})

/** One serial of a genealogy, in depth-first order: `depth` 0 is the serial asked for. */
export const GenealogyRow = v.object({
  depth: v.number(),
  serial_key: v.string(),
  code: v.string(),
  product_code: v.string(),
  product_description: v.string(),
  state: v.picklist(SERIAL_STATES),
  /** The link to the row above it (null for depth 0). */
  link_key: v.nullable(v.string()),
  created_at: v.number(),
})
export type GenealogyRow = v.InferOutput<typeof GenealogyRow>
export const Genealogy = v.object({
  serial_key: v.string(),
  direction: v.picklist(GENEALOGY_DIRECTIONS),
  rows: v.array(GenealogyRow),
  /** More than GENEALOGY_MAX_ROWS serials: the rest is left off. */
  truncated: v.boolean(),
})
export type Genealogy = v.InferOutput<typeof Genealogy>

/** `PATCH serial/{key}`: code and/or data, always with a reason (SPEC 5). */
export const SerialPatchInput = v.object({
  code: v.optional(SerialCode),
  data: v.optional(SerialData),
  reason: SerialReason,
  /** When the settings require serial corrections to be signed (signature_serial_correction). */
  signature: v.optional(SignatureInput),
})
export type SerialPatchInput = v.InferOutput<typeof SerialPatchInput>

/** `DELETE serial-link/{key}`: the reason goes with it (SPEC 5). */
export const SerialUnlinkInput = v.object({ reason: SerialReason })
export type SerialUnlinkInput = v.InferOutput<typeof SerialUnlinkInput>
