/**
 * A form step's answers on the operator screen: the draft as typed, the value as it is sent and
 * stored, and the checks that keep unreadable text from being sent (steps tab).
 */
import type { FieldDefinition, FormDataEntry, FormValue, StepData } from '../../../src/domains/execution/schemas'
import { isEmptyValue, isIsoDate, isTime, takesArray } from '../../../src/domains/products/metadata'
import { numbersFromText, numberTextProblem } from '../../lib/number-field-values'

export type Draft = Record<string, FormValue>

/** The value as it is sent and stored: empty -> null ([] for lists); a switch shows its answer (off = false). */
function canonical(field: FieldDefinition, value: FormValue | undefined): FormValue {
  if (field.type === 'boolean') return value === true
  if (typeof value === 'string' && (field.type === 'text' || field.type === 'time')) value = value.trim()
  if (field.type === 'number') value = numbersFromText(value)
  if (value === undefined || isEmptyValue(value)) return takesArray(field) ? [] : null
  return value
}

export const savedDraft = (data: StepData | undefined): Draft => Object.fromEntries((data?.form_data ?? []).map((e) => [e.field_key, e.value]))
export const formData = (fields: readonly FieldDefinition[], draft: Draft): FormDataEntry[] => fields.map((f) => ({ field_key: f._key, value: canonical(f, draft[f._key]) }))
export const sameForm = (fields: readonly FieldDefinition[], a: Draft, b: Draft) => JSON.stringify(formData(fields, a)) === JSON.stringify(formData(fields, b))
export const missingMandatory = (fields: readonly FieldDefinition[], draft: Draft) => fields.filter((f) => f.mandatory && isEmptyValue(canonical(f, draft[f._key])))
/** Number fields whose typed text is not a number: the field says why, and nothing is sent. */
export const notNumbers = (fields: readonly FieldDefinition[], draft: Draft) => fields.filter((f) => f.type === 'number' && numberTextProblem(draft[f._key]))
/** Time fields whose typed text is not HH:MM (the field says so). */
export const notTimes = (fields: readonly FieldDefinition[], draft: Draft) =>
  fields.filter((f) => {
    const v = draft[f._key]
    return f.type === 'time' && typeof v === 'string' && v.trim() !== '' && !isTime(v.trim())
  })
/**
 * Date fields whose draft holds text that is not a date: typed dates of a `multiple` field, or
 * the plain typed field used when the date picker cannot load (the picker itself keeps the last
 * date read and reports its unreadable text through `onUnreadable`).
 */
export const notDates = (fields: readonly FieldDefinition[], draft: Draft) =>
  fields.filter((f) => {
    const v = draft[f._key]
    const texts = typeof v === 'string' ? [v] : Array.isArray(v) ? v : []
    return f.type === 'date' && texts.some((t) => typeof t === 'string' && t.trim() !== '' && !isIsoDate(t))
  })

