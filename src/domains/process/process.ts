import * as v from 'valibot'
import { TRACEABILITY_LEVELS } from '../products/bom'
import { PhaseParameters } from './phase-parameters'
import { Step, StepsInput } from './steps'

/**
 * A product's process (SPEC 3 Process, DOMAIN.md "Master data"): ordered phases, each using an
 * operation, belonging to a department, with its own steps, parameters, production notes and
 * print templates. `PUT product/{key}/process` sends the whole ordered list: phases with a
 * `_key` are kept (and updated), new ones get a key, missing ones are removed (refused for a
 * phase with components).
 */
export const PhaseInput = v.object({
  _key: v.optional(v.pipe(v.string(), v.uuid('phase keys must be valid keys'))),
  operation_key: v.pipe(v.string(), v.uuid('operation_key must be an operation key')),
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  department_key: v.optional(v.nullable(v.pipe(v.string(), v.uuid('department_key must be a department key')))),
  /** Missing: the admin's default phase parameters (new phase) or the current ones (kept phase). */
  parameters: v.optional(PhaseParameters),
  /** Missing on a new phase: the operation's default steps are copied. */
  steps: v.optional(StepsInput),
  production_notes: v.optional(v.pipe(v.string(), v.maxLength(20_000))),
  print_templates: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))), v.maxLength(50))),
  /** SPEC 4 traceability level of what the phase produces; missing: 'none' (new phase) or the current one. */
  traceability_level: v.optional(v.picklist(TRACEABILITY_LEVELS, 'traceability_level must be none, form or complete')),
  /** The counter numbering what the phase produces (null: none); missing: the current one. */
  counter_key: v.optional(v.nullable(v.pipe(v.string(), v.uuid('counter_key must be a counter key')))),
})
export type PhaseInput = v.InferOutput<typeof PhaseInput>

export const MAX_PHASES = 100
export const ProcessInput = v.object({ phases: v.pipe(v.array(PhaseInput), v.maxLength(MAX_PHASES, `at most ${MAX_PHASES} phases`)) })
export type ProcessInput = v.InferOutput<typeof ProcessInput>

export const Phase = v.object({
  _key: v.string(),
  position: v.number(),
  name: v.string(),
  operation_key: v.string(),
  operation_name: v.string(),
  department_key: v.nullable(v.string()),
  parameters: PhaseParameters,
  steps: v.array(Step),
  production_notes: v.string(),
  print_templates: v.array(v.string()),
  traceability_level: v.picklist(TRACEABILITY_LEVELS),
  counter_key: v.nullable(v.string()),
  /** Bom lines in this phase: a phase with components cannot be removed. */
  component_count: v.number(),
})
export type Phase = v.InferOutput<typeof Phase>
/** A counter a phase can name (the process editor's picker; the counters themselves are admin/counter). */
export const PhaseCounterChoice = v.object({ _key: v.string(), name: v.string(), template: v.string() })
export type PhaseCounterChoice = v.InferOutput<typeof PhaseCounterChoice>

export const Process = v.object({ product_key: v.string(), phases: v.array(Phase) })
export type Process = v.InferOutput<typeof Process>

/** Copy the process of another product: all phases, or the chosen ones, appended after the current phases. */
export const CopyProcessInput = v.object({
  from_product_key: v.pipe(v.string(), v.uuid('from_product_key must be a product key')),
  phase_keys: v.optional(v.pipe(v.array(v.pipe(v.string(), v.uuid('phase keys must be valid keys'))), v.minLength(1, 'choose at least one phase'), v.maxLength(100))),
})
export type CopyProcessInput = v.InferOutput<typeof CopyProcessInput>
