import { describe, expect, test } from 'bun:test'
import { PDFDocument } from '@pdfme/pdf-lib'
import { pdfText } from '../printers/test-printers'
import { fillTemplate } from './fill'

describe('filling a template', () => {
  test('a base whose page has no content stream (a blank page as some tools save it) is filled, not refused with a 500', async () => {
    const doc = await PDFDocument.create()
    doc.addPage([200, 100])
    const base = await doc.save()
    expect((await PDFDocument.load(base)).getPage(0).node.Contents()).toBeUndefined()
    const field = { name: 'Codice', kind: 'text', link_type: 'preset', link: 'product_code', page: 1, x: 5, y: 10, width: 150, height: 20, font_size: 12 } as const
    const pdf = await fillTemplate({ base, fields: [field as never] }, [{ presets: { product_code: 'VUOTA-1' }, custom: {} }])
    expect(await pdfText(Buffer.from(pdf))).toContain('VUOTA-1')
  })
})
