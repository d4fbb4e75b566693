import { describe, expect, test } from 'bun:test'
import { dateTextToIso, isoToDateText, parseDateText } from './date-text'

describe('parseDateText', () => {
  test('the SPEC format YYYY/MM/DD', () => {
    expect(parseDateText('2026/11/25')).toBe('2026-11-25')
    expect(parseDateText(' 2026/01/05 ')).toBe('2026-01-05')
  })

  test('a date still being typed is no date yet', () => {
    expect(parseDateText('2026/1/5')).toBeNull()
    expect(parseDateText('2026/02/3')).toBeNull()
  })

  test('a pasted ISO date or timestamp keeps the day as written', () => {
    expect(parseDateText('2026-11-25')).toBe('2026-11-25')
    expect(parseDateText('2026-11-25T23:30:00Z')).toBe('2026-11-25')
    expect(parseDateText('2026-11-25T00:10:00.123+02:00')).toBe('2026-11-25')
  })

  test('days that do not exist and other text are refused', () => {
    expect(parseDateText('2026/02/29')).toBeNull()
    expect(parseDateText('2028/02/29')).toBe('2028-02-29')
    expect(parseDateText('0004/02/29')).toBe('0004-02-29')
    expect(parseDateText('2026/13/01')).toBeNull()
    expect(parseDateText('2026/04/31')).toBeNull()
    expect(parseDateText('2026/11/00')).toBeNull()
    expect(parseDateText('2026/11-25')).toBeNull()
    expect(parseDateText('25/11/2026')).toBeNull()
    expect(parseDateText('11/25/2026')).toBeNull()
    expect(parseDateText('2026/11')).toBeNull()
    expect(parseDateText('')).toBeNull()
  })
})

describe('isoToDateText / dateTextToIso', () => {
  test('a stored date reads YYYY/MM/DD and comes back as stored; other text is kept as typed', () => {
    expect(isoToDateText('2026-11-25')).toBe('2026/11/25')
    expect(dateTextToIso('2026/11/25')).toBe('2026-11-25')
    expect(dateTextToIso('2026/11/31')).toBe('2026/11/31')
    expect(isoToDateText('domani')).toBe('domani')
  })
})
