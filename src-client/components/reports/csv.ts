/** One table of a report page as exported: its title, header and rows (numbers stay numbers). */
export type ExportTable = { title: string; header: string[]; rows: (string | number | null)[][] }

/** The decimal separator of a locale ("," in Italian, "." in English). */
export function decimalSeparator(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
}

/**
 * CSV of the tables of a report page as shown, ';'-separated with a BOM so spreadsheet programs in
 * Italian and English locales open it in columns. Numbers carry the user's decimal separator (a
 * spreadsheet in Italian reads "12,5" as a number, "12.5" as text) and no thousands separator.
 * Several tables follow one another, each under its title, a blank line between them.
 */
export function toCsv(tables: ExportTable[], locale: string): string {
  const sep = decimalSeparator(locale)
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : typeof v === 'number' ? String(v).replace('.', sep) : v
    return /[;"\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
  }
  const lines = (rows: (string | number | null)[][]) => rows.map((r) => r.map(cell).join(';'))
  const blocks = tables.map((tb) => (tables.length > 1 ? [cell(tb.title), ...lines([tb.header, ...tb.rows])] : lines([tb.header, ...tb.rows])))
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
