import * as v from 'valibot'
import { Key } from '../../valibot-helpers'
import { COUNTER_FREQUENCIES, SEQUENCE_WIDTH_MAX } from './template'

/**
 * Counters (SPEC 3): templates that make serial codes. The template grammar and "name required /
 * already in use" are checked in the service with their own codes (src/domains/counters/template.ts),
 * so the schema only bounds the lengths.
 */
export const COUNTER_NAME_MAX = 200
export const COUNTER_TEMPLATE_MAX = 200
/** The largest next value a template can hold (SEQUENCE_WIDTH_MAX digits). */
export const COUNTER_NEXT_VALUE_MAX = 10 ** SEQUENCE_WIDTH_MAX - 1

const CounterName = v.pipe(v.string(), v.trim(), v.maxLength(COUNTER_NAME_MAX, `a counter name may have at most ${COUNTER_NAME_MAX} characters`))
const CounterTemplate = v.pipe(
  v.string(),
  v.maxLength(COUNTER_TEMPLATE_MAX, `a counter template may have at most ${COUNTER_TEMPLATE_MAX} characters`),
)
export const CounterFrequency = v.picklist(COUNTER_FREQUENCIES)
const NextValue = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(COUNTER_NEXT_VALUE_MAX))

export const CounterCreateInput = v.object({
  name: CounterName,
  template: CounterTemplate,
  frequency: v.optional(CounterFrequency),
  next_value: v.optional(NextValue),
})
export type CounterCreateInput = v.InferOutput<typeof CounterCreateInput>

/** `PATCH counter/{key}`: any of the fields; a next_value applies from now (the current period). */
export const CounterPatchInput = v.object({
  name: v.optional(CounterName),
  template: v.optional(CounterTemplate),
  frequency: v.optional(CounterFrequency),
  next_value: v.optional(NextValue),
})
export type CounterPatchInput = v.InferOutput<typeof CounterPatchInput>

/** `POST counter/copy`: copies of the chosen counters, named "<name> (2)" ..., numbering from 1. */
export const CounterCopyInput = v.object({
  keys: v.pipe(v.array(Key), v.minLength(1, 'choose at least one counter'), v.maxLength(200)),
})
export type CounterCopyInput = v.InferOutput<typeof CounterCopyInput>

export const CounterRow = v.object({
  _key: v.string(),
  name: v.string(),
  template: v.string(),
  frequency: CounterFrequency,
  /** The sequence value the next code gets now (1 after a reset). */
  next_value: v.number(),
  /** YYYY/MM/DD: first day of the current period (the last reset); null for a counter that never resets. */
  reset_date: v.nullable(v.string()),
  /** YYYY/MM/DD: the next reset (next tick); null = never. */
  next_tick: v.nullable(v.string()),
  /** The code the next request gets now; null when the sequence has no more numbers of its width. */
  next_code: v.nullable(v.string()),
  created_at: v.number(),
  updated_at: v.number(),
})
export type CounterRow = v.InferOutput<typeof CounterRow>

export const COUNTER_SORTS = ['name', 'template', 'frequency', 'updated_at'] as const

export const CounterListInput = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(200))),
  sort: v.optional(v.picklist(COUNTER_SORTS)),
  desc: v.optional(v.boolean()),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200))),
})
export type CounterListInput = v.InferOutput<typeof CounterListInput>
