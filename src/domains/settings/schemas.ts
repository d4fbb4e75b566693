import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'
import { SIGNATURE_MEANINGS } from '../process/steps'

export const COMPANY_NAME_MAX = 200
export const OPERATOR_HOURLY_COST_MAX = 1_000_000
/** [min, max] of the whole-number settings. */
export const SETTINGS_LIMITS = {
  idle_lock_minutes: [1, 24 * 60],
  autocomplete_min_chars_serials: [1, 20],
  autocomplete_min_chars_tags: [1, 20],
  pin_min_length: [4, 8],
} as const satisfies Record<string, readonly [number, number]>
const whole = ([min, max]: readonly [number, number]) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))

const RequiredMeaning = v.nullable(v.picklist(SIGNATURE_MEANINGS, `one of ${SIGNATURE_MEANINGS.join(', ')} or null`))

/** Plant-wide settings edited in admin/general; each key is stored as its own row. */
export const GeneralSettings = v.object({
  company_name: v.pipe(v.string(), StorableText, v.maxLength(COMPANY_NAME_MAX)),
  // SPEC 5 ">= 0" is checked by the service with its own code (OPERATOR_HOURLY_COST_NEGATIVE).
  operator_hourly_cost: v.pipe(v.number(), v.finite(), v.maxValue(OPERATOR_HOURLY_COST_MAX)),
  allow_unassigned_jobs: v.boolean(),
  independent_queue_reordering: v.boolean(),
  serial_code_edit: v.boolean(),
  serial_delete: v.boolean(),
  inventory_management: v.boolean(),
  idle_lock_minutes: whole(SETTINGS_LIMITS.idle_lock_minutes),
  autocomplete_min_chars_serials: whole(SETTINGS_LIMITS.autocomplete_min_chars_serials),
  autocomplete_min_chars_tags: whole(SETTINGS_LIMITS.autocomplete_min_chars_tags),
  // Electronic signatures (docs/signatures.md): the meaning an action is signed with, null = not signed.
  signature_revision_release: RequiredMeaning,
  signature_critical_issue_close: RequiredMeaning,
  signature_serial_correction: RequiredMeaning,
  signature_job_correction: RequiredMeaning,
  signature_movement_revert: RequiredMeaning,
  /** Signatures may be given with a personal PIN (a badge scan names the second signer) instead of the password. */
  pin_signing: v.boolean(),
  /** Fewest digits of a PIN when it is set (PINs set before a raise keep working until changed). */
  pin_min_length: whole(SETTINGS_LIMITS.pin_min_length),
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
  signature_revision_release: null,
  signature_critical_issue_close: null,
  signature_serial_correction: null,
  signature_job_correction: null,
  signature_movement_revert: null,
  pin_signing: false,
  pin_min_length: 6,
}

/** `PATCH settings`: any subset of the general settings; unknown keys are refused. */
export const SettingsPatch = v.strictObject(v.partial(GeneralSettings).entries)
export type SettingsPatch = v.InferOutput<typeof SettingsPatch>

/** The keys of the "other" admin/general tab, so the tab saves only its own fields. */
export const OTHER_KEYS = [
  'allow_unassigned_jobs',
  'independent_queue_reordering',
  'serial_code_edit',
  'serial_delete',
  'inventory_management',
  'idle_lock_minutes',
  'autocomplete_min_chars_serials',
  'autocomplete_min_chars_tags',
  'pin_signing',
  'pin_min_length',
] as const satisfies readonly (keyof GeneralSettings)[]

/** The keys of the "other" tab's electronic signatures section, one per signed action. */
export const SIGNATURE_SETTING_KEYS = [
  'signature_revision_release',
  'signature_critical_issue_close',
  'signature_serial_correction',
  'signature_job_correction',
  'signature_movement_revert',
] as const satisfies readonly (keyof GeneralSettings)[]

/**
 * `GET settings`: readable by every signed-in user (company name and logo, the flags that
 * shape production, operator, traceability and warehouse screens, autocomplete minimums).
 * The operator hourly cost is a cost figure: null unless the caller holds one of COST_SCOPES.
 */
export const SettingsRow = v.object({
  ...GeneralSettings.entries,
  operator_hourly_cost: v.nullable(v.number()),
  logo_url: v.nullable(v.string()),
})
export type SettingsRow = v.InferOutput<typeof SettingsRow>
export const COST_SCOPES = ['admin', 'production', 'reporting'] as const

/** The company logo must be square (SPEC 5 and 9); the server decodes the image to check. */
export const LOGO_FIELD = 'new_logo'
