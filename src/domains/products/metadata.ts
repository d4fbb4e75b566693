import { DAY_FORMATS, dayProblem } from '../../dates'
import { type FieldType, SINGLE_VALUE_TYPES, TERNARY_VALUES } from '../form-fields/schemas'

/**
 * Product custom metadata (SPEC 3 Product `metadata`: items with `custom_field_key` and `value`),
 * typed by the form field library. One rule for the server (which refuses a wrong value with
 * METADATA_VALUE_INVALID) and the editor (which shows the same problem before saving).
 *
 * Values by field type (a field with `multiple` takes an array of the same values):
 * - text: a string (at most METADATA_TEXT_MAX characters)
 * - number: a finite number
 * - boolean: true or false
 * - ternary: 'true', 'false' or 'na'
 * - choice: one of the field's options (multiple: distinct options)
 * - date: a real calendar day, YYYY/MM/DD or YYYY-MM-DD (src/dates.ts), stored 'YYYY-MM-DD'
 * - time: 'HH:MM' (24 hours)
 * - files: always an array of stored file names (uploaded with `POST files`); at most one unless multiple
 * `null` (or an empty array / empty text) means "not filled", refused only for mandatory fields.
 */
export type MetadataField = { name: string; type: FieldType; options: readonly string[]; multiple: boolean; mandatory: boolean }

export const METADATA_TEXT_MAX = 5000
export const METADATA_MULTIPLE_MAX = 100
export const METADATA_FILES_MAX = 50

/** A stored file name: what the file store accepts as one path segment. */
export const STORED_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/
export const isStoredFileName = (s: string) => STORED_FILE_NAME.test(s) && !s.includes('..')

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}
export const isTime = (s: string) => TIME.test(s)

/** Why one value does not fit its type, in English for scripts; null when it fits. */
function singleProblem(field: MetadataField, value: unknown): string | null {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return 'expected text'
      return value.length > METADATA_TEXT_MAX ? `text longer than ${METADATA_TEXT_MAX} characters` : null
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'expected a number'
    case 'boolean':
      return typeof value === 'boolean' ? null : 'expected true or false'
    case 'ternary':
      return typeof value === 'string' && (TERNARY_VALUES as readonly string[]).includes(value) ? null : "expected 'true', 'false' or 'na'"
    case 'choice':
      return typeof value === 'string' && field.options.includes(value) ? null : `expected one of: ${field.options.join(', ')}`
    case 'date':
      return typeof value === 'string' ? dayProblem(value) : `expected a date ${DAY_FORMATS}`
    case 'time':
      return typeof value === 'string' && isTime(value) ? null : "expected a time 'HH:MM'"
    case 'files':
      return typeof value === 'string' && isStoredFileName(value) ? null : 'expected a stored file name'
  }
}

/** Empty values: null, '', [] (a mandatory field refuses them). */
export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0)
}

/** Arrays are expected for `multiple` fields and for files fields. */
export const takesArray = (field: Pick<MetadataField, 'type' | 'multiple'>) =>
  field.type === 'files' || (field.multiple && !SINGLE_VALUE_TYPES.includes(field.type))

/** The problem with a value for its type (the mandatory flag aside), or null when it fits. */
function typeProblem(field: MetadataField, value: unknown): string | null {
  if (isEmptyValue(value)) return null
  if (!takesArray(field)) return Array.isArray(value) ? 'expected a single value' : singleProblem(field, value)
  if (!Array.isArray(value)) return 'expected a list of values'
  const max = field.type === 'files' ? (field.multiple ? METADATA_FILES_MAX : 1) : METADATA_MULTIPLE_MAX
  if (value.length > max) return max === 1 ? 'at most one file' : `at most ${max} values`
  for (const item of value) {
    const problem = singleProblem(field, item)
    if (problem) return problem
  }
  if ((field.type === 'choice' || field.type === 'files') && new Set(value).size !== value.length) return 'values repeat'
  return null
}

/** The stored form of a value that fits: empty values become null ([] for lists), text is trimmed at the ends, days are 'YYYY-MM-DD'. */
function normalised(field: MetadataField, value: unknown): unknown {
  if (field.type === 'text' && typeof value === 'string') value = value.trim()
  if (field.type === 'text' && Array.isArray(value)) value = value.map((s: string) => s.trim()).filter(Boolean)
  // Days are accepted in either form (src/dates.ts) and stored in one.
  if (field.type === 'date' && typeof value === 'string') value = value.replaceAll('/', '-')
  if (field.type === 'date' && Array.isArray(value)) value = value.map((s: string) => s.replaceAll('/', '-'))
  if (isEmptyValue(value)) return takesArray(field) ? [] : null
  return value
}

export type CheckedValue = { ok: true; value: unknown } | { ok: false; problem: string; required?: true }

/** A value checked against its field: the stored form, or the problem (English, for scripts). */
export function checkMetadataValue(field: MetadataField, value: unknown): CheckedValue {
  const problem = typeProblem(field, value)
  if (problem) return { ok: false, problem }
  const stored = normalised(field, value)
  if (field.mandatory && isEmptyValue(stored)) return { ok: false, problem: 'a value is required (mandatory field)', required: true }
  return { ok: true, value: stored }
}
