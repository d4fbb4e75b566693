import * as v from 'valibot'
import { Step, StepsInput } from '../process/steps'

/**
 * Operations (SPEC 3): reusable kinds of work with default phase steps, copied into product
 * phases. "Name required" and "name already in use" are checked in the service with their codes.
 */
export const OperationName = v.pipe(v.string(), v.trim(), v.maxLength(200, 'an operation name may have at most 200 characters'))

export const OperationCreateInput = v.object({
  name: OperationName,
  default_phase_steps: v.optional(StepsInput),
})
export type OperationCreateInput = v.InferOutput<typeof OperationCreateInput>

/** `PATCH operation/{key}`: name and/or the whole ordered list of default steps. */
export const OperationPatchInput = v.object({
  name: v.optional(OperationName),
  default_phase_steps: v.optional(StepsInput),
})
export type OperationPatchInput = v.InferOutput<typeof OperationPatchInput>

export const OperationRow = v.object({
  _key: v.string(),
  name: v.string(),
  default_phase_steps: v.array(Step),
  created_at: v.number(),
  updated_at: v.number(),
})
export type OperationRow = v.InferOutput<typeof OperationRow>

export const OPERATION_SORTS = ['name', 'steps', 'updated_at'] as const

/** The admin list: search by name, sort, one page at a time. */
export const OperationListInput = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(200))),
  sort: v.optional(v.picklist(OPERATION_SORTS)),
  desc: v.optional(v.boolean()),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200))),
})
export type OperationListInput = v.InferOutput<typeof OperationListInput>
