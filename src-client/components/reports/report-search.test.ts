import { describe, expect, test } from 'bun:test'
import { reportGroup } from './report-search'

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
