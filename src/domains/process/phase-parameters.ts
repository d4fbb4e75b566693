import * as v from 'valibot'

/** SPEC 4 and 9: how a phase releases finished pieces. */
export const RELEASE_STYLES = ['continuous', 'job', 'release_batch'] as const
export type ReleaseStyle = (typeof RELEASE_STYLES)[number]

const Count = (max: number) => v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be >= 0'), v.maxValue(max))

/** Upper bounds: generous, only there to keep nonsense out (a day of seconds, a million pieces). */
export const PHASE_LIMITS = {
  max_offline: 86_400,
  production_batch_qt: 1_000_000,
  release_batch_qt: 1_000_000,
  std_processing_time: 86_400,
} as const

/**
 * SPEC 3 "Phase parameters": production parameters carried by every phase of a process.
 * The admin's default set (admin/general/default-phase) is copied into a phase when it is created.
 * Units: max_offline and std_processing_time in seconds (std per piece); quantities in pieces,
 * production_batch_qt 0 = the whole job quantity (the last batch may be smaller).
 * The cross-field rule (release_batch_qt > 0 with release_style release_batch) is
 * `phaseParametersProblem`, checked by the services with its own error code.
 */
export const PhaseParameters = v.object({
  unsupervised_work_allowed: v.boolean(),
  auto_new_batch: v.boolean(),
  max_offline: Count(PHASE_LIMITS.max_offline),
  parallel_job_allowed: v.boolean(),
  display_job_timer: v.boolean(),
  production_batch_qt: Count(PHASE_LIMITS.production_batch_qt),
  release_batch_qt: Count(PHASE_LIMITS.release_batch_qt),
  release_style: v.picklist(RELEASE_STYLES, 'release_style must be continuous, job or release_batch'),
  std_processing_time: Count(PHASE_LIMITS.std_processing_time),
  step_check: v.boolean(),
  step_check_force_order: v.boolean(),
})
export type PhaseParameters = v.InferOutput<typeof PhaseParameters>

export const DEFAULT_PHASE_PARAMETERS: PhaseParameters = {
  unsupervised_work_allowed: false,
  auto_new_batch: true,
  max_offline: 300,
  parallel_job_allowed: false,
  display_job_timer: true,
  production_batch_qt: 0,
  release_batch_qt: 0,
  release_style: 'continuous',
  std_processing_time: 0,
  step_check: true,
  step_check_force_order: false,
}

/** The rule the schema cannot say alone; the error code the services answer with, or null. */
export function phaseParametersProblem(p: Pick<PhaseParameters, 'release_style' | 'release_batch_qt'>): 'RELEASE_BATCH_QT_REQUIRED' | null {
  if (p.release_style === 'release_batch' && !(p.release_batch_qt > 0)) return 'RELEASE_BATCH_QT_REQUIRED'
  return null
}

/** Stored parameters may predate a field added later: fill the gaps from the defaults. */
export function withPhaseDefaults(stored: unknown): PhaseParameters {
  const merged = { ...DEFAULT_PHASE_PARAMETERS, ...(stored && typeof stored === 'object' ? stored : {}) }
  const parsed = v.safeParse(PhaseParameters, merged)
  return parsed.success ? parsed.output : DEFAULT_PHASE_PARAMETERS
}
