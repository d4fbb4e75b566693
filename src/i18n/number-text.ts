import type { InputIssueKind } from '../input-issues'

/**
 * Numbers as people type, paste or scan them. A measurement must never change silently, so the
 * rule is narrow and refuses rather than guesses:
 * - spaces around the number are ignored (scanners and pastes add them), spaces inside are not;
 * - one sign in front: '-', '+' or the typographic minus '−';
 * - '.' and ',' are both decimal separators whatever the locale (Italian keyboards type ',',
 *   scanners and pastes usually send '.');
 * - there are no thousands separators: text with more than one separator ("1.234,5", "1,2,3")
 *   is refused, because "1.234" could mean either 1.234 or 1234;
 * - at most 15 significant digits, which a JavaScript number holds exactly;
 * - no exponents, letters or other characters.
 * A trailing separator ("12,") reads as 12: it is what the text shows while the decimals are
 * being typed.
 */
export type NumberRules = {
  min?: number
  max?: number
  integer?: boolean
  /** At most this many decimals (trailing zeros do not count): more are refused, never rounded. */
  decimals?: number
  required?: boolean
}

export type NumberTextProblem = Extract<
  InputIssueKind,
  'required' | 'not_a_number' | 'two_separators' | 'too_many_digits' | 'integer' | 'max_decimals' | 'min_value' | 'max_value'
>

export type NumberReading = { ok: true; value: number | null } | { ok: false; problem: NumberTextProblem; limit?: number }

/** Significant digits a double keeps exactly. */
export const MAX_NUMBER_DIGITS = 15

const SHAPE = /^([+\-\u2212]?)(\d*)(?:[.,](\d*))?$/

/** Reads typed text as a number under `rules`; empty text is `null` (or `required`). */
export function readNumberText(text: string, rules: NumberRules = {}): NumberReading {
  const trimmed = text.trim()
  if (trimmed === '') return rules.required ? { ok: false, problem: 'required' } : { ok: true, value: null }
  const match = SHAPE.exec(trimmed)
  if (!match) {
    const separators = trimmed.match(/[.,]/g)?.length ?? 0
    return { ok: false, problem: separators > 1 && /^[+\-\u2212]?[\d.,]+$/.test(trimmed) ? 'two_separators' : 'not_a_number' }
  }
  const [, sign, whole = '', fraction = ''] = match
  if (whole === '' && fraction === '') return { ok: false, problem: 'not_a_number' }
  const significant = `${whole}${fraction.replace(/0+$/, '')}`.replace(/^0+/, '')
  if (significant.length > MAX_NUMBER_DIGITS) return { ok: false, problem: 'too_many_digits', limit: MAX_NUMBER_DIGITS }
  const magnitude = Number(`${whole || '0'}.${fraction || '0'}`)
  // -0 reads as 0.
  const value = sign === '-' || sign === '\u2212' ? 0 - magnitude : magnitude
  if (rules.integer && !Number.isInteger(value)) return { ok: false, problem: 'integer' }
  if (rules.decimals !== undefined && fraction.replace(/0+$/, '').length > rules.decimals) return { ok: false, problem: 'max_decimals', limit: rules.decimals }
  if (rules.min !== undefined && value < rules.min) return { ok: false, problem: 'min_value', limit: rules.min }
  if (rules.max !== undefined && value > rules.max) return { ok: false, problem: 'max_value', limit: rules.max }
  return { ok: true, value }
}

/**
 * Text on its way to a number ("-", ",", "-."): not a number yet, so a field does not call it
 * wrong while it is still being typed.
 */
export const isPartialNumberText = (text: string) => /^[+\-\u2212]?[.,]?$/.test(text.trim()) && text.trim() !== ''

/** Decimals of a number as JSON writes it (1.23456 has 5, 1e-7 has 7): a decimals limit checked on a number. */
export function decimalCount(value: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(value)).toLowerCase().split('e')
  return Math.max(0, (mantissa.split('.')[1] ?? '').length - Number(exponent))
}

/** The decimal separator a locale writes: ',' for Italian, '.' otherwise. */
export const decimalSeparatorOf = (locale: string): ',' | '.' => (locale.startsWith('it') ? ',' : '.')

/** A number as the text a field starts from: no grouping, no exponent, the locale's separator. */
export function numberToText(value: number | null | undefined, separator: ',' | '.'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return ''
  const plain = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
  return separator === ',' ? plain.replace('.', ',') : plain
}
