import { describe, expect, test } from 'bun:test'
import ExcelJS from 'exceljs'
import { type ExportTable, toCsv } from './csv'
import { toXlsx } from './xlsx'

const tables: ExportTable[] = [
  { title: 'Ore per operatore', header: ['Operatore', 'Ore lavorate', 'Costo'], rows: [['Rossi; Mario', 12.5, 250], ['Bianchi', 3, null]] },
  { title: 'Costo per ordine di lavoro', header: ['Ordine', 'Costo'], rows: [['WO000001', 1234.56]] },
]

describe('report exports', () => {
  test('CSV: every table under its title; decimals in the user locale, no thousands separator', () => {
    const it = toCsv(tables, 'it-IT')
    expect(it.startsWith('\uFEFF')).toBe(true)
    expect(it).toBe(
      '\uFEFFOre per operatore\r\nOperatore;Ore lavorate;Costo\r\n"Rossi; Mario";12,5;250\r\nBianchi;3;\r\n\r\n' +
        'Costo per ordine di lavoro\r\nOrdine;Costo\r\nWO000001;1234,56\r\n',
    )
    expect(toCsv(tables, 'en-GB')).toContain('"Rossi; Mario";12.5;250')
    // One table: no title line, the header first.
    expect(toCsv([tables[1]!], 'it')).toBe('\uFEFFOrdine;Costo\r\nWO000001;1234,56\r\n')
  })

  test('XLSX: one sheet per table, numbers as numeric cells', async () => {
    const blob = await toXlsx(tables)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(await blob.arrayBuffer())
    expect(book.worksheets.map((s) => s.name)).toEqual(['Ore per operatore', 'Costo per ordine di lavoro'])
    const first = book.worksheets[0]!
    expect(first.getRow(1).values).toEqual([undefined, 'Operatore', 'Ore lavorate', 'Costo'])
    expect(first.getCell('B2').value).toBe(12.5)
    expect(first.getCell('B2').type).toBe(ExcelJS.ValueType.Number)
    expect(first.getCell('A2').value).toBe('Rossi; Mario')
    expect(book.worksheets[1]!.getCell('B2').value).toBe(1234.56)
  })
})
