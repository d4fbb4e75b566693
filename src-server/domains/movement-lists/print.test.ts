import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MISSING_UUID, quickUser, tableCounts } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { makeSetup } from '../execution/test-fixtures'
import { pdfText, type RawListener, startRawListener } from '../printers/test-printers'

/** Issue 26: a movement list printed on A4 by the server, to the print log and to a plant printer (raw TCP listener). */
const h = useHarness()
const tokens: Record<string, string> = {}
let raw: RawListener
let list: { _key: string; code: string }
let componentCode: string

const call = (method: string, path: string, body?: unknown, scope = 'warehouse') => h.request(method, `/api${path}`, { token: tokens[scope], body })

beforeAll(async () => {
  raw = await startRawListener()
  for (const scope of ['warehouse', 'operator', 'admin']) tokens[scope] = (await quickUser(h, `ml-${scope}`, scope)).token
  const positions: Record<string, string> = {}
  for (const code of ['ML-STORE', 'ML-LINE', 'ML-PROD']) positions[code] = (await call('POST', '/position', { code })).body.detail._key
  await call('PATCH', '/settings/warehouse', { inventory_management: true, default_consumption_position_key: positions['ML-LINE'], default_production_position_key: positions['ML-PROD'] }, 'admin')
  componentCode = `ML-COMP-${Date.now().toString(36)}`
  const s = await makeSetup(h.svc.db, { phases: [{ bom: [{ quantity: 2, quantity_per: 'item', code: componentCode }] }], quantity: 3, operator: null })
  const component = (await h.svc.db.selectFrom('products').select('id').where('code', '=', componentCode).executeTakeFirstOrThrow()).id
  expect((await call('POST', '/movement', { type: 'load', product_key: component, to_position_key: positions['ML-STORE'], quantity: 10 })).status).toBe(201)
  expect((await call('POST', '/mission/to-line', { work_order_key: s.workOrderKey })).status).toBe(201)
  list = (await call('POST', '/movement-list', { kind: 'work_order', work_order_key: s.workOrderKey })).body.detail
})

afterAll(() => raw.stop())

describe('a movement list printed by the server', () => {
  test('to a printer: the A4 sheet reaches it whole (code, positions, product, quantity, status); logged under its title', async () => {
    const printer = (await call('POST', '/printer', { name: 'Etichette magazzino', uri: `socket://127.0.0.1:${raw.port}` }, 'admin')).body.detail
    const res = await call('POST', `/movement-list/${list._key}/print`, { printer_key: printer._key, lang: 'it' })
    expect(res.status).toBe(201)
    expect(res.body.detail).toMatchObject({ status: 'accepted', template_key: null, template_name: `Lista movimenti ${list.code}`, printer_name: 'Etichette magazzino' })
    const [bytes] = await raw.waitFor(1)
    const text = await pdfText(bytes!)
    for (const expected of [`Lista movimenti ${list.code}`, 'ML-STORE', 'ML-LINE', componentCode, 'Pianificato', 'Pagina 1 di 1']) expect(text).toContain(expected)
    expect((await call('GET', '/print?limit=5', undefined, 'admin')).body.detail[0]).toMatchObject({ template_name: `Lista movimenti ${list.code}` })
  })

  test('without a printer: the PDF only, in English when asked', async () => {
    const res = await call('POST', `/movement-list/${list._key}/print`, { lang: 'en' })
    expect(res.body.detail).toMatchObject({ status: 'made', printer_key: null, template_name: `Movement list ${list.code}` })
    const stored = await h.svc.files.get(res.body.detail.pdf_url.replace(/^\/media\//, ''))
    const text = await pdfText(new Uint8Array(await stored!.arrayBuffer()))
    for (const expected of [`Movement list ${list.code}`, 'Planned', 'Page 1 of 1']) expect(text).toContain(expected)
  })

  test('refusals change nothing: unknown list, unknown printer, operators may not', async () => {
    const before = await tableCounts(h)
    expect((await call('POST', `/movement-list/${MISSING_UUID}/print`, {})).body.detail.code).toBe('NOT_FOUND')
    const unknownPrinter = await call('POST', `/movement-list/${list._key}/print`, { printer_key: MISSING_UUID })
    expect({ status: unknownPrinter.status, code: unknownPrinter.body.detail.code }).toEqual({ status: 404, code: 'UNKNOWN_PRINTER' })
    expect((await call('POST', `/movement-list/${list._key}/print`, {}, 'operator')).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
  })
})
