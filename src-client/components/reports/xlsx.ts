import type { ExportTable } from './csv'

/** Sheet names: at most 31 characters, none of []:*?/\ , unique in the workbook (Excel's rules). */
function sheetName(title: string, taken: Set<string>): string {
  const base = title.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 28) || 'Sheet'
  let name = base
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base} ${i}`
  taken.add(name.toLowerCase())
  return name
}

/**
 * An Excel workbook of the tables of a report page, one sheet each: numbers are numeric cells (so
 * sums and charts work in the spreadsheet whatever its language), the header bold and frozen.
 * exceljs is loaded only when a person exports.
 */
export async function toXlsx(tables: ExportTable[]): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs')
  const book = new ExcelJS.Workbook()
  const taken = new Set<string>()
  for (const tb of tables) {
    const sheet = book.addWorksheet(sheetName(tb.title, taken), { views: [{ state: 'frozen', ySplit: 1 }] })
    sheet.addRow(tb.header).font = { bold: true }
    for (const r of tb.rows) sheet.addRow(r)
    sheet.columns.forEach((c, i) => {
      const widest = Math.max(...[tb.header, ...tb.rows].map((r) => String(r[i] ?? '').length))
      c.width = Math.min(Math.max(widest + 2, 8), 50)
    })
  }
  const buffer = await book.xlsx.writeBuffer()
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
}
