import { Text, TextInput, type TextInputProps } from '@mantine/core'
import { useState } from 'react'
import { decimalSeparatorOf, isPartialNumberText, type NumberReading, type NumberRules, numberToText, readNumberText } from '../../src/i18n/number-text'
import { i18n } from '../lib/i18n'
import { capitalised, issueText } from '../lib/input-issue-messages'

type Props = Omit<TextInputProps, 'value' | 'onChange' | 'type' | 'min' | 'max' | 'inputMode'> &
  Omit<NumberRules, 'required'> & {
    /** The text as typed; the form reads it with `readNumberText(text, rules)` when it saves. */
    value: string
    onChange: (text: string) => void
    /** Shown after the number ("€/h", "h"). */
    unit?: string
  }

/**
 * A number field that keeps exactly what was typed, pasted or scanned (src/i18n/number-text.ts):
 * ',' and '.' are both decimal separators, "12," stays "12," while the decimals are typed, and
 * nothing is stripped or rounded. Text that is not a number, or breaks `min`/`max`/`integer`/`decimals`,
 * shows its reason under the field (the form must not save it); a form's own `error` (required,
 * a server refusal) shows when the text itself is fine.
 */
export function NumberTextInput({ value, onChange, min, max, integer, decimals, unit, error, onFocus, onBlur, ...rest }: Props) {
  const [focused, setFocused] = useState(false)
  const reading = readNumberText(value, { min, max, integer, decimals })
  // "-" or "," on their way to a number are not called wrong while the field is being typed in.
  const own = !reading.ok && !(focused && isPartialNumberText(value)) ? capitalised(issueText(reading.problem, reading.limit)) : null
  return (
    <TextInput
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      inputMode={integer && (min ?? -1) >= 0 ? 'numeric' : 'decimal'}
      autoComplete="off"
      error={own ?? error}
      onFocus={(e) => {
        setFocused(true)
        onFocus?.(e)
      }}
      onBlur={(e) => {
        setFocused(false)
        onBlur?.(e)
      }}
      rightSection={
        unit ? (
          <Text size="sm" c="dimmed">
            {unit}
          </Text>
        ) : undefined
      }
      rightSectionWidth={unit ? `${unit.length + 2}ch` : undefined}
      rightSectionPointerEvents="none"
    />
  )
}

/** A stored number as the text a NumberTextInput starts from, in the current locale. */
export const toNumberText = (value: number | null | undefined) => numberToText(value, decimalSeparatorOf(i18n.locale))

/**
 * For drafts that keep numbers as numbers (quantities that other fields follow): typed text
 * becomes its number when it is exactly that number's text ("12"), else it stays text ("12,",
 * "-", "abc", "007") for the field to show as typed and the form to refuse.
 */
export function numberOrText(text: string): number | string {
  const read = readNumberText(text)
  return read.ok && read.value !== null && toNumberText(read.value) === text ? read.value : text
}

/** The text a NumberTextInput shows for such a draft value. */
export const asNumberText = (value: number | string) => (typeof value === 'number' ? toNumberText(value) : value)

/** Such a draft value read under `rules`. */
export const readDraftNumber = (value: number | string, rules: NumberRules): NumberReading => readNumberText(asNumberText(value), rules)
