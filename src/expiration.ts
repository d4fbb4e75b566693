import { DAY_FORMATS, dayProblem } from './dates'

/**
 * An expiry as people and scripts write it (SPEC 5 "accepts a number, a date, or a string such
 * as 2d, 3h, 10min, 30s, 1m, 1y"; SPEC 9: a month is 30 days, a year 360 days):
 * - a number: the instant itself, UTC milliseconds;
 * - a day, YYYY/MM/DD or YYYY-MM-DD: valid through that day (its last millisecond, plant calendar);
 * - an ISO 8601 instant with its offset (2026-12-31T18:00:00Z);
 * - a duration from now: a whole number and a unit, s (seconds), min (minutes), h (hours),
 *   d (days), w (weeks), m (months of 30 days), y (years of 360 days). `m` is a month, as in the
 *   SPEC's list where minutes are `min`.
 */
export const DURATION_UNITS_MS = {
  s: 1_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  m: 30 * 86_400_000,
  y: 360 * 86_400_000,
} as const

export const EXPIRATION_FORMATS = `a date (${DAY_FORMATS}), an ISO 8601 instant, UTC milliseconds, or a duration such as 30s, 10min, 3h, 2d, 1w, 1m (30 days), 1y (360 days)`

const DURATION = /^(\d{1,6})\s*(s|min|h|d|w|m|y)$/
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

/** The last millisecond of a day on the local (plant) calendar. */
function endOfDay(day: string): number {
  const [y, m, d] = day.split(/[/-]/).map(Number) as [number, number, number]
  const at = new Date(0)
  // setFullYear, not new Date(y, ...): the constructor reads years 0-99 as 1900-1999.
  at.setFullYear(y, m - 1, d)
  at.setHours(23, 59, 59, 999)
  return at.getTime()
}

/** The instant an expiration stands for (UTC ms), or why it is not one (English, for scripts). */
export function expirationInstant(value: number | string, now: Date): { at: number } | { problem: string } {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? { at: value } : { problem: 'a number is an instant in whole UTC milliseconds' }
  const text = value.trim()
  const duration = DURATION.exec(text)
  if (duration) return { at: now.getTime() + Number(duration[1]) * DURATION_UNITS_MS[duration[2] as keyof typeof DURATION_UNITS_MS] }
  if (/^\d{4}[/-]/.test(text) && !text.includes('T')) {
    const problem = dayProblem(text)
    return problem ? { problem } : { at: endOfDay(text) }
  }
  if (ISO_INSTANT.test(text)) {
    const problem = dayProblem(text.slice(0, 10))
    if (problem) return { problem }
    const at = Date.parse(text)
    if (!Number.isNaN(at)) return { at }
  }
  return { problem: `"${value}" is not ${EXPIRATION_FORMATS}` }
}
