import * as v from 'valibot'

/** Plant-wide settings edited in admin/general; each key is stored as its own row. */
export const GeneralSettings = v.object({
  company_name: v.pipe(v.string(), v.maxLength(200)),
  operator_hourly_cost: v.pipe(v.number(), v.minValue(0, 'operator hourly cost must be >= 0'), v.maxValue(1_000_000)),
  allow_unassigned_jobs: v.boolean(),
  independent_queue_reordering: v.boolean(),
  serial_code_edit: v.boolean(),
  serial_delete: v.boolean(),
  inventory_management: v.boolean(),
  idle_lock_minutes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 60)),
  autocomplete_min_chars_serials: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20)),
  autocomplete_min_chars_tags: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20)),
})
export type GeneralSettings = v.InferOutput<typeof GeneralSettings>

export const DEFAULT_SETTINGS: GeneralSettings = {
  company_name: '',
  operator_hourly_cost: 0,
  allow_unassigned_jobs: true,
  independent_queue_reordering: false,
  serial_code_edit: false,
  serial_delete: false,
  inventory_management: false,
  idle_lock_minutes: 15,
  autocomplete_min_chars_serials: 3,
  autocomplete_min_chars_tags: 3,
}
