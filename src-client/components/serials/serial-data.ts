import { readNumberText } from '../../../src/i18n/number-text'

/** A serial's data as the correction dialog edits it: one entry per field. */
export type Kind = 'text' | 'number' | 'boolean' | 'json'
export type Entry = { id: number; name: string; kind: Kind; text: string; checked: boolean; isNew: boolean }
export const kindOf = (value: unknown): Kind =>
  typeof value === 'string' ? 'text' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'json'
export const FIELD_NAME_MAX = 200

/**
 * The values an edited list of entries stands for: numbers read as typed (decimal comma or point,
 * never guessed), JSON values parsed; the first entry that cannot be read is named instead.
 */
export function entriesToData(entries: Pick<Entry, 'name' | 'kind' | 'text' | 'checked'>[]): { ok: true; data: Record<string, unknown> } | { ok: false; name: string } {
  const data: Record<string, unknown> = {}
  for (const e of entries) {
    const name = e.name.trim()
    if (!name) continue
    if (e.kind === 'boolean') data[name] = e.checked
    else if (e.kind === 'number') {
      const read = readNumberText(e.text)
      if (!read.ok) return { ok: false, name }
      data[name] = read.value
    } else if (e.kind === 'json') {
      try {
        data[name] = JSON.parse(e.text)
      } catch {
        return { ok: false, name }
      }
    } else data[name] = e.text
  }
  return { ok: true, data }
}


/** A serial value as the user reads it: numbers in their locale (12,5 in Italian), lists by item, other shapes as JSON. */
export function serialValueText(value: unknown, locale: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return value.toLocaleString(locale, { maximumFractionDigits: 20, useGrouping: false })
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map((v) => serialValueText(v, locale)).join(', ')
  return JSON.stringify(value)
}
