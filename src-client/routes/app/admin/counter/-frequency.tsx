import { useLingui } from '@lingui/react/macro'
import type { CounterFrequency } from '../../../../../src/domains/counters/template'

/** How often a counter's sequence restarts at 1, in the user's words. */
export function useFrequencyLabels(): Record<CounterFrequency, string> {
  const { t } = useLingui()
  return { never: t`Mai`, year: t`Ogni anno`, month: t`Ogni mese`, week: t`Ogni settimana`, day: t`Ogni giorno` }
}
