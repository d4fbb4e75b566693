import { beforeAll, describe, expect, test } from 'bun:test'
import { PDFDocument } from '@pdfme/pdf-lib'
import { adminToken, appCode, quickUser, tableCounts } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { pdfText } from '../printers/test-printers'

/** A label designed in the app (issue 26): the template starts from a blank page of a size in millimetres. */
describe('blank label templates', () => {
  const h = useHarness()
  let admin: string
  let op: string

  beforeAll(async () => {
    admin = await adminToken(h)
    op = (await quickUser(h, 'bl-operator', 'operator')).token
  })

  const blank = (body: Record<string, unknown>, token = admin) => h.request('POST', '/api/print-template/blank', { token, body })
  const mm = (points: number) => (points * 25.4) / 72

  test('a blank page of the size asked (62,5 x 29 mm) is the base; fields placed on it print', async () => {
    const res = await blank({ name: 'Etichetta piccola', width_mm: 62.5, height_mm: 29, context: 'position' })
    expect(res.status).toBe(201)
    const tpl = res.body.detail
    expect(tpl).toMatchObject({ name: 'Etichetta piccola', base_pdf_name: 'blank-62.5x29mm.pdf', pages: 1, fields: [], context: 'position', trash: false })
    expect(mm(tpl.page_width)).toBeCloseTo(62.5, 3)
    expect(mm(tpl.page_height)).toBeCloseTo(29, 3)
    const served = await h.app.request(`http://mes.test${tpl.base_pdf_url}`, { headers: { authorization: `Bearer ${admin}` } })
    expect(served.status).toBe(200)
    const doc = await PDFDocument.load(new Uint8Array(await served.arrayBuffer()))
    expect(doc.getPageCount()).toBe(1)
    expect(mm(doc.getPage(0).getWidth())).toBeCloseTo(62.5, 3)
    const events = await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', tpl._key).execute()
    expect(events.map((e) => e.event_type)).toEqual(['PRINT_TEMPLATE_CREATED'])

    // The editor then places a field on it, as on an uploaded PDF; a box past the label's edge is refused.
    const field = { name: 'Codice', kind: 'text', link_type: 'preset', link: 'product_code', x: 5, y: 10, width: 150, height: 20, font_size: 12 }
    const patch = (fields: unknown[]) => h.request('PATCH', `/api/print-template/${tpl._key}`, { token: admin, body: { fields } })
    expect((await patch([{ ...field, width: 200 }])).body.detail.code).toBe('PRINT_FIELD_OUTSIDE')
    expect((await patch([field])).status).toBe(200)
    const preview = await h.request('POST', `/api/print-template/${tpl._key}/preview`, { token: admin, body: { values: { product_code: 'BL-0001' } } })
    expect(preview.status).toBe(200)
    expect(await pdfText(Buffer.from(preview.body.detail.pdf_base64, 'base64'))).toContain('BL-0001')
  })

  test('refused without a trace: sizes out of bounds or not numbers, no name, not an admin', async () => {
    const before = await tableCounts(h)
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ name: 'Minuscola', width_mm: 5, height_mm: 29 }, 400, 'INVALID_INPUT', 'width_mm'],
      [{ name: 'Enorme', width_mm: 100, height_mm: 501 }, 400, 'INVALID_INPUT', 'height_mm'],
      [{ name: 'Zero', width_mm: 0, height_mm: 0 }, 400, 'INVALID_INPUT', 'width_mm'],
      [{ name: 'Testo', width_mm: '62,5', height_mm: 29 }, 400, 'INVALID_INPUT', 'width_mm'],
      [{ name: 'Senza altezza', width_mm: 62.5 }, 400, 'INVALID_INPUT', 'height_mm'],
      [{ name: '  ', width_mm: 62.5, height_mm: 29 }, 400, 'INVALID_INPUT', 'name'],
    ]
    for (const [body, status, code, path] of cases) {
      const r = await blank(body)
      expect({ name: body.name, status: r.status, code: appCode(r.body) }).toEqual({ name: body.name, status, code })
      if (path) expect(r.body.detail.issues.map((i: { path: string }) => i.path)).toContain(path)
    }
    expect((await blank({ name: 'Operatore', width_mm: 50, height_mm: 30 }, op)).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
  })

  test('in OpenAPI with numeric sizes', async () => {
    const openapi = (await h.request('GET', '/api/openapi.json')).body
    const op = openapi.paths['/print-template/blank'].post
    const schema = op.requestBody.content['application/json'].schema
    expect(schema.properties.width_mm.type).toBe('number')
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'width_mm', 'height_mm']))
  })
})
