import '@mantine/dates/styles.css'
import 'dayjs/locale/it'
import { useLingui } from '@lingui/react/macro'
import { DateInput, type DateInputProps, DatesProvider } from '@mantine/dates'
import { useState } from 'react'
import { DATE_FORMAT, parseDateText } from '../../src/i18n/date-text'

type Props = Omit<DateInputProps, 'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser' | 'minDate' | 'maxDate'> & {
  /** 'YYYY-MM-DD' or null. */
  value: string | null
  onChange: (value: string | null) => void
  minDate?: string
  maxDate?: string
  /** Told whether the field holds text that is not a date (a form must not save while it does). */
  onUnreadable?: (unreadable: boolean) => void
}

/**
 * SPEC 5: a date shown, typed, pasted or picked as YYYY/MM/DD, whatever the browser's language
 * (a native date field would show the browser's own format). Month names follow the app's locale.
 * Text that is not a date stays as typed and is marked, rather than silently put back.
 */
export function DateField({ value, onChange, error, onBlur, minDate, maxDate, onUnreadable, ...props }: Props) {
  const { t, i18n } = useLingui()
  const [problem, setProblem] = useState<string | null>(null)

  // What the text says (null: fine): a readable date is rewritten YYYY/MM/DD when the field is
  // left; anything else stays as typed, marked.
  function problemOf(text: string): string | null {
    const day = parseDateText(text)
    if (text.trim() === '' || (day && (!minDate || day >= minDate) && (!maxDate || day <= maxDate))) return null
    return day ? t`Data fuori dall'intervallo consentito` : t`Data non valida (AAAA/MM/GG)`
  }
  const [typedProblem, setTypedProblem] = useState<string | null>(null)

  return (
    <DatesProvider settings={{ locale: i18n.locale, firstDayOfWeek: 1 }}>
      <DateInput
        placeholder={t`AAAA/MM/GG`}
        clearable
        {...props}
        value={value}
        onChange={(v) => {
          setProblem(null)
          setTypedProblem(null)
          onUnreadable?.(false)
          onChange(v)
        }}
        valueFormat={DATE_FORMAT}
        dateParser={parseDateText}
        minDate={minDate}
        maxDate={maxDate}
        onInput={(e) => {
          const typed = problemOf(e.currentTarget.value)
          setTypedProblem(typed)
          onUnreadable?.(typed !== null)
        }}
        fixOnBlur={typedProblem === null}
        onBlur={(e) => {
          setProblem(typedProblem)
          onBlur?.(e)
        }}
        error={error ?? problem}
        clearButtonProps={{ 'aria-label': t`Cancella la data` }}
        ariaLabels={{
          monthLevelControl: t`Scegli il mese`,
          yearLevelControl: t`Scegli l'anno`,
          nextMonth: t`Mese successivo`,
          previousMonth: t`Mese precedente`,
          nextYear: t`Anno successivo`,
          previousYear: t`Anno precedente`,
          nextDecade: t`Decennio successivo`,
          previousDecade: t`Decennio precedente`,
        }}
      />
    </DatesProvider>
  )
}
