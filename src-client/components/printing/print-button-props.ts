import type { ReactNode } from 'react'
import type { PrintSubject } from '../../../src/domains/printing/schemas'

/** What a print button offers; the lazily loaded dialog takes the same (own file, so neither imports the other). */
export type PrintButtonProps = {
  /** Where the templates come from: a phase, a product, an issue type, a position, a settings label. */
  context: string
  contextKey: string
  /** What the print is filled with. */
  subject: Omit<PrintSubject, 'values'>
  /** Offer "one label per serial of the batch". */
  perSerial?: boolean
  label?: ReactNode
  size?: 'xs' | 'sm' | 'md'
  testId?: string
}
