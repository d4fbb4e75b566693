import { describe, expect, test } from 'bun:test'
import { formatDate, formatDateTime } from './format'

describe('formatDate (SPEC 9: YYYY/MM/DD)', () => {
  test('pads month and day, in the local calendar', () => {
    expect(formatDate(new Date(2026, 0, 5, 8, 30))).toBe('2026/01/05')
    expect(formatDate(new Date(2026, 11, 31, 23, 59))).toBe('2026/12/31')
    expect(formatDate(new Date(999, 8, 9))).toBe('999/09/09')
  })

  test('accepts timestamps and ISO strings', () => {
    const d = new Date(2025, 6, 14, 12, 0)
    expect(formatDate(d.getTime())).toBe('2025/07/14')
    expect(formatDate(d.toISOString())).toBe('2025/07/14')
  })

  test('empty or invalid values give an empty string, never "NaN"', () => {
    expect(formatDate(null)).toBe('')
    expect(formatDate(undefined)).toBe('')
    expect(formatDate('')).toBe('')
    expect(formatDate('not a date')).toBe('')
    expect(formatDate(new Date(Number.NaN))).toBe('')
  })
})

describe('formatDateTime', () => {
  test('date plus zero-padded hours and minutes', () => {
    expect(formatDateTime(new Date(2026, 1, 3, 7, 4))).toBe('2026/02/03 07:04')
    expect(formatDateTime(new Date(2026, 1, 3, 17, 45).getTime())).toBe('2026/02/03 17:45')
  })

  test('empty or invalid: empty string', () => {
    expect(formatDateTime(null)).toBe('')
    expect(formatDateTime('garbage')).toBe('')
  })
})
