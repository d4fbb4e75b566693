/**
 * Counter templates (SPEC 3 Counter): literal text with parts in braces that make a code.
 *   {YYYY} {YY} year, {MM} month, {DD} day, {WW} ISO 8601 week, {#...} the sequence zero-padded
 *   to as many digits as there are '#' (1 to SEQUENCE_WIDTH_MAX), exactly once.
 * Dates are read on the plant's calendar: the process's local time zone (as jobs' `late`).
 * In a template with {WW} the year parts print the ISO week-numbering year, so that 1 January 2027
 * (week 53 of 2026) reads 2026-53 and a weekly counter's codes never repeat a week of another year.
 * A sequence that would need more digits than its width is refused (SEQUENCE_FULL), never grown:
 * a longer number could equal another code of the same template ({###}1 makes 0121 and 1211).
 */

export const COUNTER_FREQUENCIES = ['never', 'year', 'month', 'week', 'day'] as const
export type CounterFrequency = (typeof COUNTER_FREQUENCIES)[number]

export const SEQUENCE_WIDTH_MAX = 12
const DATE_PARTS = ['YYYY', 'YY', 'MM', 'DD', 'WW'] as const
type DatePart = (typeof DATE_PARTS)[number]

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'date'; part: DatePart } | { kind: 'sequence'; width: number }

export type TemplateProblem =
  /** A '{' without its '}' or a '}' without its '{' (index: where). */
  | { code: 'COUNTER_TEMPLATE_BRACES'; index: number }
  /** A part in braces that is not a date part or a sequence. */
  | { code: 'COUNTER_TEMPLATE_UNKNOWN_PART'; part: string }
  /** No sequence, or more than one, or wider than SEQUENCE_WIDTH_MAX. */
  | { code: 'COUNTER_TEMPLATE_SEQUENCE' }
  /** A counter that resets must show its period (year, and month/week/day), or its codes repeat. */
  | { code: 'COUNTER_TEMPLATE_PERIOD_MISSING'; needs: string[] }

export type Parsed = { ok: true; parts: TemplatePart[]; width: number } | { ok: false; problem: TemplateProblem }

export function parseTemplate(template: string): Parsed {
  const parts: TemplatePart[] = []
  let i = 0
  let text = ''
  while (i < template.length) {
    const ch = template[i]!
    if (ch === '}') return { ok: false, problem: { code: 'COUNTER_TEMPLATE_BRACES', index: i } }
    if (ch !== '{') {
      text += ch
      i++
      continue
    }
    const end = template.indexOf('}', i + 1)
    const nextOpen = template.indexOf('{', i + 1)
    if (end < 0 || (nextOpen >= 0 && nextOpen < end)) return { ok: false, problem: { code: 'COUNTER_TEMPLATE_BRACES', index: i } }
    if (text) parts.push({ kind: 'text', text })
    text = ''
    const inner = template.slice(i + 1, end)
    if ((DATE_PARTS as readonly string[]).includes(inner)) parts.push({ kind: 'date', part: inner as DatePart })
    else if (/^#+$/.test(inner)) parts.push({ kind: 'sequence', width: inner.length })
    else return { ok: false, problem: { code: 'COUNTER_TEMPLATE_UNKNOWN_PART', part: `{${inner}}` } }
    i = end + 1
  }
  if (text) parts.push({ kind: 'text', text })
  const sequences = parts.filter((p) => p.kind === 'sequence')
  if (sequences.length !== 1 || sequences[0]!.width > SEQUENCE_WIDTH_MAX) return { ok: false, problem: { code: 'COUNTER_TEMPLATE_SEQUENCE' } }
  return { ok: true, parts, width: sequences[0]!.width }
}

/** The date parts a counter with this frequency must show so that its codes never repeat. */
export function periodProblem(parts: readonly TemplatePart[], frequency: CounterFrequency): TemplateProblem | undefined {
  if (frequency === 'never') return undefined
  const has = new Set(parts.flatMap((p) => (p.kind === 'date' ? [p.part] : [])))
  const needs: string[] = []
  if (!has.has('YYYY') && !has.has('YY')) needs.push('{YYYY}')
  if (frequency === 'month' && !has.has('MM')) needs.push('{MM}')
  if (frequency === 'week' && !has.has('WW')) needs.push('{WW}')
  if (frequency === 'day' && !has.has('MM')) needs.push('{MM}')
  if (frequency === 'day' && !has.has('DD')) needs.push('{DD}')
  return needs.length ? { code: 'COUNTER_TEMPLATE_PERIOD_MISSING', needs } : undefined
}

/** The whole check: the grammar, then the period. */
export function templateProblem(template: string, frequency: CounterFrequency): TemplateProblem | undefined {
  const parsed = parseTemplate(template)
  if (!parsed.ok) return parsed.problem
  return periodProblem(parsed.parts, frequency)
}

/** The largest sequence value a width holds (3 -> 999). */
export const sequenceMax = (width: number) => 10 ** width - 1

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** ISO 8601 week of a local calendar day: week number and the week-numbering year. */
export function isoWeek(d: Date): { year: number; week: number } {
  // The Thursday of the day's week decides both (the week belongs to the year of its Thursday).
  const thursday = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 3 - ((d.getDay() + 6) % 7))
  const jan1 = new Date(thursday.getFullYear(), 0, 1)
  const dayOfYear = Math.round((thursday.getTime() - jan1.getTime()) / 86_400_000)
  return { year: thursday.getFullYear(), week: Math.floor(dayOfYear / 7) + 1 }
}

/** The code for `value` at instant `at` (local calendar). The caller checks value <= sequenceMax. */
export function renderTemplate(parts: readonly TemplatePart[], at: Date, value: number): string {
  const weekly = parts.some((p) => p.kind === 'date' && p.part === 'WW')
  const week = isoWeek(at)
  const year = weekly ? week.year : at.getFullYear()
  return parts
    .map((p) => {
      if (p.kind === 'text') return p.text
      if (p.kind === 'sequence') return pad(value, p.width)
      switch (p.part) {
        case 'YYYY':
          return pad(year, 4)
        case 'YY':
          return pad(year % 100, 2)
        case 'MM':
          return pad(at.getMonth() + 1, 2)
        case 'DD':
          return pad(at.getDate(), 2)
        case 'WW':
          return pad(week.week, 2)
      }
    })
    .join('')
}

const isoDay = (d: Date) => `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1, 2)}-${pad(d.getDate(), 2)}`

/** First local day ('YYYY-MM-DD') of the reset period holding `at`; null for a counter that never resets. */
export function periodStart(at: Date, frequency: CounterFrequency): string | null {
  switch (frequency) {
    case 'never':
      return null
    case 'year':
      return isoDay(new Date(at.getFullYear(), 0, 1))
    case 'month':
      return isoDay(new Date(at.getFullYear(), at.getMonth(), 1))
    case 'week':
      return isoDay(new Date(at.getFullYear(), at.getMonth(), at.getDate() - ((at.getDay() + 6) % 7)))
    case 'day':
      return isoDay(new Date(at.getFullYear(), at.getMonth(), at.getDate()))
  }
}

/** First local day ('YYYY-MM-DD') of the period after the one holding `at` (the next reset); null = never. */
export function nextPeriodStart(at: Date, frequency: CounterFrequency): string | null {
  const start = periodStart(at, frequency)
  if (start === null) return null
  const [y, m, d] = start.split('-').map(Number) as [number, number, number]
  if (frequency === 'year') return isoDay(new Date(y + 1, 0, 1))
  if (frequency === 'month') return isoDay(new Date(y, m, 1))
  return isoDay(new Date(y, m - 1, d + (frequency === 'week' ? 7 : 1)))
}

/** The sequence value the next code gets: 1 when the stored period is over, else the stored value. */
export const effectiveNextValue = (stored: { next_value: number; period_start: string | null }, currentPeriod: string | null) =>
  stored.period_start === currentPeriod ? stored.next_value : 1
