/**
 * The fields of a step and the checks of its answers (type, options, mandatory ones), shared by
 * saving and completing a step and by completing the whole batch.
 */
import type { FieldDefinition, FormDataEntry } from '../../../src/domains/execution/schemas'
import type { FieldType } from '../../../src/domains/form-fields/schemas'
import { checkMetadataValue, isEmptyValue } from '../../../src/domains/products/metadata'
import type { Db } from '../../db/connect'
import { badRequest, unprocessable } from '../../errors'
import { fieldDefinitions, type PhaseInfo } from './queries'

/**
 * The field definitions of steps of the phase (the job's step_sequence names them), in each
 * step's field order, by step key: one query for all of them.
 */
export async function stepFieldsOf(db: Db, phase: PhaseInfo, stepKeys: readonly string[]): Promise<Map<string, FieldDefinition[]>> {
  const defs = stepKeys.map((k) => phase.steps.find((s) => s._key === k)?.fields ?? [])
  const rows = await fieldDefinitions(db, phase.id, [...new Set(defs.flat())])
  const byKey = new Map(rows.map((r) => [r._key, r]))
  return new Map(
    stepKeys.map((k, i) => [
      k,
      defs[i]!.flatMap((f) => {
        const row = byKey.get(f)
        return row ? [{ ...row, type: row.type as FieldType }] : []
      }),
    ]),
  )
}

export async function stepFields(db: Db, phase: PhaseInfo, stepKey: string): Promise<FieldDefinition[]> {
  return (await stepFieldsOf(db, phase, [stepKey])).get(stepKey)!
}

/** Checks answers against their fields (type, options); the stored form in the step's field order. */
export function checkedFormData(fields: readonly FieldDefinition[], formData: readonly FormDataEntry[]): FormDataEntry[] {
  const byKey = new Map(fields.map((f) => [f._key, f]))
  const seen = new Set<string>()
  const unknown: string[] = []
  const invalid: { _key: string; name: string; problem: string }[] = []
  const values = new Map<string, unknown>()
  for (const entry of formData) {
    const field = byKey.get(entry.field_key)
    if (!field) {
      unknown.push(entry.field_key)
      continue
    }
    if (seen.has(entry.field_key)) {
      invalid.push({ _key: field._key, name: field.name, problem: 'answered twice' })
      continue
    }
    seen.add(entry.field_key)
    const checked = checkMetadataValue({ ...field, mandatory: false }, entry.value)
    if (!checked.ok) invalid.push({ _key: field._key, name: field.name, problem: checked.problem })
    else values.set(field._key, checked.value)
  }
  if (unknown.length) throw badRequest('UNKNOWN_FIELD', `not a field of this step: ${unknown.join(', ')}`, { fields: unknown })
  if (invalid.length) {
    throw badRequest('FORM_VALUE_INVALID', `invalid value: ${invalid.map((i) => `${i.name} (${i.problem})`).join('; ')}`, { fields: invalid })
  }
  return fields.filter((f) => values.has(f._key)).map((f) => ({ field_key: f._key, value: values.get(f._key) as FormDataEntry['value'] }))
}

/** Mandatory fields without a value. */
export function missingMandatory(fields: readonly FieldDefinition[], formData: readonly FormDataEntry[]) {
  const values = new Map(formData.map((e) => [e.field_key, e.value]))
  return fields.filter((f) => f.mandatory && isEmptyValue(values.get(f._key)))
}

export const mandatoryMissing = (missing: { step_key: string; fields: FieldDefinition[] }[]) => {
  const names = missing.flatMap((m) => m.fields.map((f) => f.name))
  return unprocessable('MANDATORY_FIELDS_MISSING', `fill the mandatory fields first: ${names.join(', ')}`, {
    fields: missing.flatMap((m) => m.fields.map((f) => ({ step_key: m.step_key, _key: f._key, name: f.name }))),
  })
}
