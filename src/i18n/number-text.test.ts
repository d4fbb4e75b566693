import { describe, expect, test } from 'bun:test'
import { decimalCount, decimalSeparatorOf, isPartialNumberText, numberToText, readNumberText } from './number-text'

describe('readNumberText', () => {
  test.each([
    ['12,5', 12.5],
    ['12.5', 12.5],
    [' 12.5 ', 12.5],
    ['12.5\n', 12.5],
    ['-3', -3],
    ['\u22123', -3],
    ['+7', 7],
    ['12,', 12],
    [',5', 0.5],
    ['-.25', -0.25],
    ['0', 0],
    ['-0', 0],
    ['007', 7],
    ['123456789012345', 123456789012345],
    ['0,000000000000001', 0.000000000000001],
    ['1.500', 1.5],
  ])('%p reads as %p', (text, value) => {
    const read = readNumberText(text)
    expect(read).toEqual({ ok: true, value })
    // -0 would print as "-0" and compare unequal in Object.is checks.
    if (read.ok) expect(Object.is(read.value, -0)).toBe(false)
  })

  test('empty text is no value, or required', () => {
    expect(readNumberText('')).toEqual({ ok: true, value: null })
    expect(readNumberText('   ')).toEqual({ ok: true, value: null })
    expect(readNumberText(' ', { required: true })).toEqual({ ok: false, problem: 'required' })
  })

  test.each([
    ['12,5,3', 'two_separators'],
    ['1,2,3', 'two_separators'],
    ['1.234,5', 'two_separators'],
    ['1,234.5', 'two_separators'],
    ['1..5', 'two_separators'],
    ['abc', 'not_a_number'],
    ['12a', 'not_a_number'],
    ['1 234', 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['--5', 'not_a_number'],
    ['5-', 'not_a_number'],
    ['-', 'not_a_number'],
    [',', 'not_a_number'],
    ['0x10', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['NaN', 'not_a_number'],
    ['12.5 kg', 'not_a_number'],
  ])('%p is refused as %p', (text, problem) => {
    expect(readNumberText(text)).toEqual({ ok: false, problem: problem as 'not_a_number' })
  })

  test('more digits than a number keeps exactly are refused, not rounded', () => {
    expect(readNumberText('1234567890123456')).toEqual({ ok: false, problem: 'too_many_digits', limit: 15 })
    expect(readNumberText('0,1234567890123456')).toEqual({ ok: false, problem: 'too_many_digits', limit: 15 })
    // Leading and trailing zeros are not significant.
    expect(readNumberText('000123456789012345,000')).toEqual({ ok: true, value: 123456789012345 })
  })

  test('rules: minimum, maximum, whole numbers', () => {
    expect(readNumberText('-5', { min: 0 })).toEqual({ ok: false, problem: 'min_value', limit: 0 })
    expect(readNumberText('0', { min: 0 })).toEqual({ ok: true, value: 0 })
    expect(readNumberText('1000001', { max: 1_000_000 })).toEqual({ ok: false, problem: 'max_value', limit: 1_000_000 })
    expect(readNumberText('2,5', { integer: true })).toEqual({ ok: false, problem: 'integer' })
    expect(readNumberText('3,0', { integer: true })).toEqual({ ok: true, value: 3 })
    expect(readNumberText('-3', { integer: true, min: 0 })).toEqual({ ok: false, problem: 'min_value', limit: 0 })
  })
})

test('partial text is on its way to a number', () => {
  for (const text of ['-', ',', '.', '-,', '+', ' - ']) expect(isPartialNumberText(text)).toBe(true)
  for (const text of ['', '1', '-1', '1,', 'a', '--']) expect(isPartialNumberText(text)).toBe(false)
})

test('numbers become text with the locale separator, and read back the same', () => {
  expect(decimalSeparatorOf('it')).toBe(',')
  expect(decimalSeparatorOf('en')).toBe('.')
  expect(numberToText(12.5, ',')).toBe('12,5')
  expect(numberToText(12.5, '.')).toBe('12.5')
  expect(numberToText(-3, ',')).toBe('-3')
  expect(numberToText(1e-7, '.')).toBe('0.0000001')
  expect(numberToText(123456789012345, ',')).toBe('123456789012345')
  expect(numberToText(null, ',')).toBe('')
  for (const value of [0, 1, -1, 0.1, 12.345, 1e-7, 999999.99]) {
    expect(readNumberText(numberToText(value, ','))).toEqual({ ok: true, value })
  }
})

test('a decimals limit refuses more decimals, never rounds; trailing zeros do not count', () => {
  expect(readNumberText('1,2345', { decimals: 4 })).toEqual({ ok: true, value: 1.2345 })
  expect(readNumberText('1.23450', { decimals: 4 })).toEqual({ ok: true, value: 1.2345 })
  expect(readNumberText('1,23456', { decimals: 4 })).toEqual({ ok: false, problem: 'max_decimals', limit: 4 })
  expect(readNumberText('0.00001', { decimals: 4 })).toEqual({ ok: false, problem: 'max_decimals', limit: 4 })
  expect(readNumberText('12', { decimals: 0 })).toEqual({ ok: true, value: 12 })
})

test('decimalCount: the decimals of a number as JSON writes it', () => {
  expect([0, 12, 1.5, 1.2345, 1.23456, -0.001, 1e-7, 1.5e-5, 1e21, 0.1 + 0.2].map(decimalCount)).toEqual([0, 0, 1, 4, 5, 3, 7, 6, 0, 17])
})
