import { describe, expect, test } from 'bun:test'
import { csvCell, csvFile } from './csv'

describe('CSV cells', () => {
  test('numbers take the decimal separator given; text with ; " or a line break is quoted', () => {
    expect(csvCell(12.5, ',')).toBe('12,5')
    expect(csvCell(-3.25)).toBe('-3.25')
    expect(csvCell(null)).toBe('')
    expect(csvCell('Rossi; Mario')).toBe('"Rossi; Mario"')
    expect(csvCell('pollici 3"')).toBe('"pollici 3"""')
  })

  test('text a spreadsheet would run as a formula is neutralised', () => {
    for (const typed of ['=1+2', '+39 02', '-cmd', '@SUM(A1)']) expect(csvCell(typed)).toBe(`'${typed}`)
    expect(csvCell('=HYPERLINK("x";"y")')).toBe(`"'=HYPERLINK(""x"";""y"")"`)
  })

  test('a file: BOM, ";" between cells, CRLF after every line', () => {
    expect(csvFile([['Livello', 'Codice'], [0, 'SN-1']])).toBe('\uFEFFLivello;Codice\r\n0;SN-1\r\n')
  })
})
