import type { ReactNode } from 'react'
import type { PrintRow, PrintSubject } from '../../../src/domains/printing/schemas'

/** What is printed: a place's templates filled with a subject, or a document the server lays out itself. */
export type PrintSource =
  | {
      /** Where the templates come from: a phase, a product, an issue type, a position, a settings label. */
      context: string
      contextKey: string
      /** What the print is filled with. */
      subject: Omit<PrintSubject, 'values'>
      /** Offer "one label per serial of the batch". */
      perSerial?: boolean
    }
  | {
      /** Makes the document (and sends it to the printer when one is given). */
      document: (printerKey: string | null) => Promise<PrintRow>
    }

/** What a print button offers; the lazily loaded dialog takes the same (own file, so neither imports the other). */
export type PrintButtonProps = PrintSource & {
  label?: ReactNode
  size?: 'xs' | 'sm' | 'md'
  testId?: string
}
