/** SPEC 5: dates are read and typed as YYYY/MM/DD. */
export const DATE_FORMAT = 'YYYY/MM/DD'

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * A typed or pasted date as 'YYYY-MM-DD', or null when it is not a real calendar day. Month and
 * day take two digits, so a date being typed ('2026/02/3' on the way to '2026/02/30') is not read
 * as another day.
 * Takes YYYY/MM/DD (the SPEC format) and YYYY-MM-DD (an ISO date, also the date part of a pasted
 * ISO timestamp: the day as written, never shifted by a time zone).
 */
export function parseDateText(text: string): string | null {
  const m = text.trim().match(/^(\d{4})([/-])(\d{2})\2(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/)
  if (!m) return null
  const [y, mo, d] = [Number(m[1]), Number(m[3]), Number(m[4])]
  if (mo < 1 || mo > 12 || d < 1) return null
  // Day 0 of the next month is the last day of this one (setUTCFullYear: years before 100 as written).
  const last = new Date(0)
  last.setUTCFullYear(y, mo, 0)
  if (d > last.getUTCDate()) return null
  return `${m[1]}-${pad(mo)}-${pad(d)}`
}

/** A stored 'YYYY-MM-DD' as read (YYYY/MM/DD); anything else as it is. */
export const isoToDateText = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value.replaceAll('-', '/') : value)

/** Typed text as stored ('YYYY-MM-DD') when it is a date; otherwise kept as typed, for the check to name it. */
export const dateTextToIso = (text: string) => parseDateText(text) ?? text
