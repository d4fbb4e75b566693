import { describe, expect, test } from 'bun:test'
import { isoWeek, nextPeriodStart, parseTemplate, periodStart, renderTemplate, templateProblem } from './template'

const render = (template: string, at: Date, value: number) => {
  const parsed = parseTemplate(template)
  if (!parsed.ok) throw new Error(parsed.problem.code)
  return renderTemplate(parsed.parts, at, value)
}

describe('counter templates', () => {
  test('literal text, date parts and a zero-padded sequence', () => {
    expect(render('SN{YY}{MM}-{#####}', new Date(2026, 10, 5, 9), 42)).toBe('SN2611-00042')
    expect(render('{YYYY}/{MM}/{DD}.{###}', new Date(2026, 0, 9), 7)).toBe('2026/01/09.007')
    expect(render('{#}', new Date(2026, 0, 9), 9)).toBe('9')
    expect(render('L-{YYYY}-W{WW}-{####}', new Date(2026, 10, 25), 1)).toBe('L-2026-W48-0001')
  })

  test('ISO 8601 weeks; with {WW} the year is the week-numbering year', () => {
    expect(isoWeek(new Date(2027, 0, 1))).toEqual({ year: 2026, week: 53 })
    expect(isoWeek(new Date(2025, 11, 29))).toEqual({ year: 2026, week: 1 })
    expect(isoWeek(new Date(2026, 0, 4))).toEqual({ year: 2026, week: 1 })
    expect(isoWeek(new Date(2026, 0, 5))).toEqual({ year: 2026, week: 2 })
    expect(render('{YY}{WW}-{##}', new Date(2027, 0, 1), 3)).toBe('2653-03')
    expect(render('{YY}{WW}-{##}', new Date(2025, 11, 29), 3)).toBe('2601-03')
    expect(render('{YY}{MM}-{##}', new Date(2025, 11, 29), 3)).toBe('2512-03')
  })

  test('bad templates name what is wrong', () => {
    expect(templateProblem('SN{YY', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_BRACES', index: 2 })
    expect(templateProblem('SN}{###}', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_BRACES', index: 2 })
    expect(templateProblem('SN{YY{###}', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_BRACES', index: 2 })
    expect(templateProblem('SN{HH}{###}', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_UNKNOWN_PART', part: '{HH}' })
    expect(templateProblem('SN{}{###}', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_UNKNOWN_PART', part: '{}' })
    expect(templateProblem('SN{YY}', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_SEQUENCE' })
    expect(templateProblem('', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_SEQUENCE' })
    expect(templateProblem('{###}-{###}', 'never')).toEqual({ code: 'COUNTER_TEMPLATE_SEQUENCE' })
    expect(templateProblem(`{${'#'.repeat(13)}}`, 'never')).toEqual({ code: 'COUNTER_TEMPLATE_SEQUENCE' })
    expect(templateProblem(`{${'#'.repeat(12)}}`, 'never')).toBeUndefined()
  })

  test('a counter that resets must show its period', () => {
    expect(templateProblem('SN-{####}', 'never')).toBeUndefined()
    expect(templateProblem('SN-{####}', 'year')).toEqual({ code: 'COUNTER_TEMPLATE_PERIOD_MISSING', needs: ['{YYYY}'] })
    expect(templateProblem('{YY}-{####}', 'year')).toBeUndefined()
    expect(templateProblem('{YY}-{####}', 'month')).toEqual({ code: 'COUNTER_TEMPLATE_PERIOD_MISSING', needs: ['{MM}'] })
    expect(templateProblem('{MM}-{####}', 'week')).toEqual({ code: 'COUNTER_TEMPLATE_PERIOD_MISSING', needs: ['{YYYY}', '{WW}'] })
    expect(templateProblem('{YYYY}{MM}-{####}', 'day')).toEqual({ code: 'COUNTER_TEMPLATE_PERIOD_MISSING', needs: ['{DD}'] })
    expect(templateProblem('{YYYY}{MM}{DD}-{####}', 'day')).toBeUndefined()
  })

  test('periods and the next reset on the local calendar', () => {
    const at = new Date(2026, 10, 25, 23, 59) // Wednesday
    expect(periodStart(at, 'never')).toBeNull()
    expect(periodStart(at, 'year')).toBe('2026-01-01')
    expect(periodStart(at, 'month')).toBe('2026-11-01')
    expect(periodStart(at, 'week')).toBe('2026-11-23')
    expect(periodStart(at, 'day')).toBe('2026-11-25')
    expect(nextPeriodStart(at, 'never')).toBeNull()
    expect(nextPeriodStart(at, 'year')).toBe('2027-01-01')
    expect(nextPeriodStart(new Date(2026, 11, 31), 'month')).toBe('2027-01-01')
    expect(nextPeriodStart(at, 'week')).toBe('2026-11-30')
    expect(nextPeriodStart(new Date(2026, 11, 31), 'day')).toBe('2027-01-01')
    expect(periodStart(new Date(2026, 10, 29), 'week')).toBe('2026-11-23') // Sunday ends the ISO week
  })
})
