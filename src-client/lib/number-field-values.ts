import { type NumberReading, readNumberText } from '../../src/i18n/number-text'

/**
 * Number custom fields (operator form steps, product metadata): while edited, the draft holds
 * the typed text (one text, or a list for `multiple` fields), so nothing is rounded or dropped
 * as it is typed. What is saved is the number each text reads as; text that is not a number
 * stays text, and `numberTextProblem` names it so the form refuses to save it.
 */
export function numbersFromText<T>(value: T): T | number | null | (string | number)[] {
  if (typeof value === 'string') {
    const read = readNumberText(value)
    return read.ok ? read.value : value
  }
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? numberOrText(item) : item))
  return value
}

function numberOrText(text: string): string | number {
  const read = readNumberText(text)
  return read.ok && read.value !== null ? read.value : text
}

/** Why the typed text (or a text of the list) is not a number, or null. */
export function numberTextProblem(value: unknown): Extract<NumberReading, { ok: false }> | null {
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  for (const text of texts) {
    const read = readNumberText(text)
    if (!read.ok) return read
  }
  return null
}
