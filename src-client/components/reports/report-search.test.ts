import { describe, expect, test } from 'bun:test'
import { quickRange, rangeOf, reportGroup } from './report-search'

const groups = [
  { value: 'phase', label: 'Fase' },
  { value: 'line', label: 'Linea' },
]

describe('reportGroup', () => {
  test('the grouping the URL asks for, with its name', () => {
    expect(reportGroup(groups, 'line')).toEqual({ group: 'line', groupName: 'Linea' })
  })

  test('no grouping or an unknown one in the URL: the first grouping', () => {
    expect(reportGroup(groups, undefined)).toEqual({ group: 'phase', groupName: 'Fase' })
    expect(reportGroup(groups, 'operator')).toEqual({ group: 'phase', groupName: 'Fase' })
  })
})

describe('rangeOf', () => {
  const now = new Date(2026, 10, 2, 9, 30)

  test('no range in the URL: the last 30 days, today included, by day', () => {
    expect(rangeOf({}, now)).toEqual({ from: '2026-10-04', to: '2026-11-02', period: 'day' })
  })

  test('the range the URL names wins', () => {
    expect(rangeOf({ from: '2026-01-01', to: '2026-01-31', period: 'week' }, now)).toEqual({ from: '2026-01-01', to: '2026-01-31', period: 'week' })
  })
})

describe('quickRange', () => {
  test('last month: its first to its last day, across a year end too', () => {
    expect(quickRange('lastMonth', new Date(2026, 2, 15))).toEqual({ from: '2026-02-01', to: '2026-02-28', period: 'day' })
    expect(quickRange('lastMonth', new Date(2027, 0, 10))).toEqual({ from: '2026-12-01', to: '2026-12-31', period: 'day' })
  })
})
