import { describe, expect, test } from 'bun:test'
import { chooseLocale, LOCALES } from './locale'

describe('chooseLocale (SPEC 9)', () => {
  test('the two locales are it and en', () => {
    expect([...LOCALES]).toEqual(['it', 'en'])
  })

  test("the user's preference comes first", () => {
    expect(chooseLocale('en', 'it-IT')).toBe('en')
    expect(chooseLocale('it', 'en-US')).toBe('it')
  })

  test('without a preference, the browser language: it* is Italian, anything else English', () => {
    expect(chooseLocale(null, 'it-IT')).toBe('it')
    expect(chooseLocale(undefined, 'it')).toBe('it')
    expect(chooseLocale(null, 'IT-ch')).toBe('it')
    expect(chooseLocale(null, 'en-GB')).toBe('en')
    expect(chooseLocale(null, 'de-DE')).toBe('en')
    expect(chooseLocale('', 'fr')).toBe('en')
  })

  test('with neither, Italian', () => {
    expect(chooseLocale(null, null)).toBe('it')
    expect(chooseLocale(undefined, undefined)).toBe('it')
    expect(chooseLocale('', '')).toBe('it')
  })
})
