/** Small formatting helpers of the operator screens. */

const pad = (n: number) => String(n).padStart(2, '0')

/** A duration as H:MM:SS (hours grow past 24). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return `${h}:${pad(m)}:${pad(s)}`
}

/** A calendar date 'YYYY-MM-DD' as the SPEC's YYYY/MM/DD (no time zone shift). */
export const formatDay = (day: string | null | undefined) => (day ? day.replaceAll('-', '/') : '')

/** Quantities: whole numbers as they are, others with up to 4 decimals. */
export const formatQt = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 10_000) / 10_000))

export const percent = (part: number, whole: number) => (whole > 0 ? Math.min(100, Math.max(0, (part / whole) * 100)) : 0)
