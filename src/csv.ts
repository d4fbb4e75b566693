/**
 * CSV as the plant's spreadsheet programs read it (reports, genealogy, the audit trail): ';' between
 * cells (Italian and English spreadsheets both split on it), a BOM so the accents survive, CRLF.
 */
export type CsvValue = string | number | null

/**
 * One cell. Numbers carry the given decimal separator and no thousands separator (a spreadsheet in
 * Italian reads "12,5" as a number). Text that a spreadsheet would run as a formula (a leading
 * = + - @, a typed product description or a serial's data) is neutralised with a quote, since
 * whoever opens an export must never run what someone else typed.
 */
export function csvCell(value: CsvValue, decimal = '.'): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value).replace('.', decimal)
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[;"\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** Rows as CSV lines, without the BOM (blocks of several tables are joined by the caller). */
export const csvLines = (rows: CsvValue[][], decimal = '.'): string[] => rows.map((r) => r.map((v) => csvCell(v, decimal)).join(';'))

/** One table as a whole CSV file. */
export const csvFile = (rows: CsvValue[][], decimal = '.'): string => '\uFEFF' + csvLines(rows, decimal).join('\r\n') + '\r\n'
