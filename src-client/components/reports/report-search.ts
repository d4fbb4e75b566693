import { REPORT_PERIODS, type ReportPeriod } from '../../../src/domains/reports/schemas'
import { isUuid } from '../../../src/uuid'

/**
 * A report's range, period, grouping and filters live in the URL (bookmarkable, shareable,
 * printable as seen). Days are 'YYYY-MM-DD' in the URL.
 */
export type ReportSearch = {
  from?: string
  to?: string
  period?: ReportPeriod
  group?: string
  product?: string
  work_order?: string
  phase?: string
  department?: string
  operator?: string
  line?: string
  /** Labels of the filters set by a drill-down (key -> text shown on the chip). */
  label?: string
}

export const FILTER_KEYS = ['product', 'work_order', 'phase', 'department', 'operator', 'line'] as const
export type FilterKey = (typeof FILTER_KEYS)[number]

const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined)
const key = (v: unknown) => (typeof v === 'string' && isUuid(v) ? v : undefined)
const text = (v: unknown) => (typeof v === 'string' && v.length <= 100 ? v : undefined)

export function validateReportSearch(raw: Record<string, unknown>): ReportSearch {
  return {
    from: day(raw.from),
    to: day(raw.to),
    period: (REPORT_PERIODS as readonly string[]).includes(raw.period as string) ? (raw.period as ReportPeriod) : undefined,
    group: typeof raw.group === 'string' && /^[a-z_]{1,20}$/.test(raw.group) ? raw.group : undefined,
    product: key(raw.product),
    work_order: key(raw.work_order),
    phase: key(raw.phase),
    department: key(raw.department),
    operator: key(raw.operator),
    line: text(raw.line),
    label: text(raw.label),
  }
}

const pad = (n: number) => String(n).padStart(2, '0')
/** A local date as 'YYYY-MM-DD'. */
export const isoOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`

export type QuickPeriod = 'today' | 'week' | 'month' | 'lastMonth' | 'year' | 'last30'
/** The range of a quick period around `now` (weeks from Monday), and the period that suits it. */
export function quickRange(q: QuickPeriod, now = new Date()): { from: string; to: string; period: ReportPeriod } {
  const y = now.getFullYear()
  const m = now.getMonth()
  switch (q) {
    case 'today':
      return { from: isoOf(now), to: isoOf(now), period: 'day' }
    case 'week': {
      const monday = new Date(y, m, now.getDate() - ((now.getDay() + 6) % 7))
      return { from: isoOf(monday), to: isoOf(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 6)), period: 'day' }
    }
    case 'month':
      return { from: isoOf(new Date(y, m, 1)), to: isoOf(new Date(y, m + 1, 0)), period: 'day' }
    case 'lastMonth':
      return { from: isoOf(new Date(y, m - 1, 1)), to: isoOf(new Date(y, m, 0)), period: 'day' }
    case 'year':
      return { from: isoOf(new Date(y, 0, 1)), to: isoOf(new Date(y, 11, 31)), period: 'month' }
    case 'last30':
      return { from: isoOf(new Date(y, m, now.getDate() - 29)), to: isoOf(now), period: 'day' }
  }
}

/**
 * The range the URL names, or the last 30 days: a plant reads its recent weeks, and on the 2nd of a
 * month "this month" would hold a day of history (issue 26).
 */
export function rangeOf(s: ReportSearch, now = new Date()) {
  const recent = quickRange('last30', now)
  return { from: s.from ?? recent.from, to: s.to ?? recent.to, period: s.period ?? (s.from ? 'day' : recent.period) }
}

/** The tRPC input of the range and filters. */
export function reportInput(s: ReportSearch) {
  const r = rangeOf(s)
  return {
    from: r.from,
    to: r.to,
    period: r.period,
    ...(s.product ? { product_key: s.product } : {}),
    ...(s.work_order ? { work_order_key: s.work_order } : {}),
    ...(s.phase ? { phase_key: s.phase } : {}),
    ...(s.department ? { department_key: s.department } : {}),
    ...(s.operator ? { operator_key: s.operator } : {}),
    ...(s.line ? { line: s.line } : {}),
  }
}

/** The grouping the URL asks for, the first one when it asks for none (or an unknown one), and its name. */
export function reportGroup<G extends string>(groups: { value: G; label: string }[], asked: string | undefined): { group: G; groupName: string } {
  const chosen = groups.find((g) => g.value === asked) ?? groups[0]!
  return { group: chosen.value, groupName: chosen.label }
}
