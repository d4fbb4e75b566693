import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'

/**
 * Warehouse positions (SPEC 3; issue 14): a tree (a shelf in a rack in an area), each with a
 * unique code (any case) and the flags owned (the company's own place, not a supplier's or
 * customer's), fixed (a place, not a movable container such as a pallet), available (its stock
 * may be used) and disposable (a container thrown away once empty). Deactivated positions stay in
 * history but take no movements. Rules with a message (code in use, inside itself ...) are checked
 * by the service.
 */
export const POSITION_CODE_MAX = 100
export const POSITION_DESCRIPTION_MAX = 500
/** SPEC 5: position autocomplete needs 3 characters and shows the first 100. */
export const POSITION_SEARCH_MIN = 3
export const POSITION_LIST_LIMIT = 100

const Uuid = (what: string) => v.pipe(v.string(), v.uuid(`${what} must be a key (uuid)`))

export const PositionCode = v.pipe(v.string(), StorableText, v.maxLength(POSITION_CODE_MAX, `a position code may have at most ${POSITION_CODE_MAX} characters`))
const Description = v.pipe(v.string(), StorableText, v.maxLength(POSITION_DESCRIPTION_MAX))

export const PositionFlags = {
  owned: v.optional(v.boolean()),
  fixed: v.optional(v.boolean()),
  available: v.optional(v.boolean()),
  disposable: v.optional(v.boolean()),
}

/** `POST position`: code required; parent optional (a root position without one). */
export const PositionCreateInput = v.object({
  code: PositionCode,
  description: v.optional(Description),
  parent_key: v.optional(v.nullable(Uuid('parent_key'))),
  ...PositionFlags,
})
export type PositionCreateInput = v.InferOutput<typeof PositionCreateInput>

/** `PATCH position/{key}`: any subset; `parent_key` moves it (null: to the top). */
export const PositionPatchInput = v.object({
  code: v.optional(PositionCode),
  description: v.optional(Description),
  parent_key: v.optional(v.nullable(Uuid('parent_key'))),
  ...PositionFlags,
  active: v.optional(v.boolean()),
})
export type PositionPatchInput = v.InferOutput<typeof PositionPatchInput>

export const PositionRow = v.object({
  _key: v.string(),
  code: v.string(),
  description: v.string(),
  parent_key: v.nullable(v.string()),
  parent_code: v.nullable(v.string()),
  /** Codes from the root down to this position, e.g. "MAG1 / A / A-01". */
  path_codes: v.array(v.string()),
  depth: v.number(),
  owned: v.boolean(),
  fixed: v.boolean(),
  available: v.boolean(),
  disposable: v.boolean(),
  active: v.boolean(),
  children: v.number(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type PositionRow = v.InferOutput<typeof PositionRow>

/**
 * `GET position` with params: `search` (code starts with or description contains, any case, at
 * least 3 characters), `code` (exact, any case: what a scanner reads), `parent_key` (its direct
 * children; `root=true` for the top level), `active`. The first 100 by code.
 */
export const PositionListInput = v.object({
  search: v.optional(v.pipe(v.string(), StorableText, v.maxLength(POSITION_CODE_MAX))),
  code: v.optional(PositionCode),
  parent_key: v.optional(Uuid('parent_key')),
  root: v.optional(v.boolean()),
  active: v.optional(v.boolean()),
})
export type PositionListInput = v.InferOutput<typeof PositionListInput>

export const PositionList = v.object({ rows: v.array(PositionRow), more: v.boolean() })
export type PositionList = v.InferOutput<typeof PositionList>

/** `GET position/{key}`: the position and the positions directly inside it (first 100). */
export const PositionDetail = v.object({ ...PositionRow.entries, children_rows: v.array(PositionRow) })
export type PositionDetail = v.InferOutput<typeof PositionDetail>
