import { type CsvValue, csvLines } from '../../../src/csv'
import { decimalSeparatorOf } from '../../../src/i18n/number-text'

/** One table of a report page as exported: its title, header and rows (numbers stay numbers). */
export type ExportTable = { title: string; header: string[]; rows: CsvValue[][] }

/**
 * CSV of the tables of a report page as shown (src/csv.ts: ';', BOM, the user's decimal separator).
 * Several tables follow one another, each under its title, a blank line between them.
 */
export function toCsv(tables: ExportTable[], locale: string): string {
  const sep = decimalSeparatorOf(locale)
  const blocks = tables.map((tb) => csvLines(tables.length > 1 ? [[tb.title], tb.header, ...tb.rows] : [tb.header, ...tb.rows], sep))
  return '\uFEFF' + blocks.map((b) => b.join('\r\n')).join('\r\n\r\n') + '\r\n'
}

export function download(filename: string, blob: Blob) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export function downloadCsv(filename: string, csv: string) {
  download(filename, new Blob([csv], { type: 'text/csv;charset=utf-8' }))
}
