import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { adminToken, appCode, MISSING_UUID, quickUser, tableCounts, trpcCall } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { makeProduct, makeWorkOrder } from '../jobs/test-fixtures'
import { decodeResponse, encodeRequest, OPERATION } from './ipp'
import { printerTimeouts } from './service'
import { freePort, type IppPrinter, makeBasePdf, pdfText, type RawListener, startIppPrinter, startRawListener, startSilentListener } from './test-printers'

describe('printers', () => {
  const h = useHarness()
  let admin: string
  let op: { key: string; token: string }
  let ipp: IppPrinter
  let raw: RawListener
  let template: string

  beforeAll(async () => {
    admin = await adminToken(h)
    op = await quickUser(h, 'pr-operator', 'operator')
    ;[ipp, raw] = await Promise.all([startIppPrinter(), startRawListener()])
    const fd = new FormData()
    fd.append('name', 'Etichetta lotto')
    fd.append('base_pdf', new File([(await makeBasePdf()) as Uint8Array<ArrayBuffer>], 'lotto.pdf'))
    fd.append(
      'fields',
      JSON.stringify([
        { name: 'Codice', kind: 'text', link_type: 'preset', link: 'product_code', x: 10, y: 30, width: 200, height: 14 },
        { name: 'Ordine', kind: 'text', link_type: 'preset', link: 'work_order_code', x: 10, y: 50, width: 200, height: 14 },
        { name: 'QR', kind: 'qrcode', link_type: 'preset', link: 'job_url', x: 200, y: 80, width: 80, height: 80 },
      ]),
    )
    template = (await h.request('POST', '/api/print-template', { token: admin, body: fd })).body.detail._key
  }, 30_000)
  afterAll(async () => {
    await Promise.all([ipp?.stop(), raw?.stop()])
  })

  const create = (body: Record<string, unknown>, token = admin) => h.request('POST', '/api/printer', { token, body })

  test('the IPP encoding: a Print-Job request reads back; a response gives status, job id and message', () => {
    const req = encodeRequest(OPERATION.printJob, 7, [[0x47, 'attributes-charset', 'utf-8']], new Uint8Array([1, 2, 3]))
    expect([...req.subarray(0, 9)]).toEqual([1, 1, 0, 2, 0, 0, 0, 7, 1])
    expect([...req.subarray(-4)]).toEqual([3, 1, 2, 3])
    const res = Uint8Array.from([2, 0, 0x04, 0x0b, 0, 0, 0, 7, 1, 0x41, 0, 14, ...new TextEncoder().encode('status-message'), 0, 2, 0x68, 0x69, 2, 0x21, 0, 6, ...new TextEncoder().encode('job-id'), 0, 4, 0, 0, 1, 2, 3])
    expect(decodeResponse(res)).toEqual({ version: '2.0', statusCode: 0x040b, requestId: 7, attributes: { 'status-message': ['hi'], 'job-id': [258] } })
    expect(() => decodeResponse(Uint8Array.from([2, 0, 0, 0, 0, 0, 0, 1, 1, 0x41, 0, 99]))).toThrow()
  })

  test('library: create with protocol defaults, names unique in any case, patch, trash clears defaults, restore; admins only', async () => {
    const a = await create({ name: 'Ufficio', host: '127.0.0.1', port: ipp.port })
    expect(a.status).toBe(201)
    expect(a.body.detail).toMatchObject({ name: 'Ufficio', protocol: 'ipp', port: ipp.port, path: '/ipp/print', trash: false })
    const b = await create({ name: 'Zebra linea 1', host: 'zebra-1.local', protocol: 'raw' })
    expect(b.body.detail).toMatchObject({ port: 9100, protocol: 'raw' })
    const before = await tableCounts(h)
    for (const [body, status, code] of [
      [{ name: 'UFFICIO', host: 'x' }, 409, 'PRINTER_NAME_TAKEN'],
      [{ name: '', host: 'x' }, 400, 'INVALID_INPUT'],
      [{ name: 'Y', host: 'bad host!' }, 400, 'INVALID_INPUT'],
      [{ name: 'Y', host: 'x', port: 70000 }, 400, 'INVALID_INPUT'],
      [{ name: 'Y', host: 'x', protocol: 'lpd' }, 400, 'INVALID_INPUT'],
      [{ name: 'Y', host: 'x', colour: true }, 400, 'INVALID_INPUT'],
    ] as const) {
      const r = await create(body)
      expect({ body, status: r.status, code: appCode(r.body) }).toEqual({ body, status, code })
    }
    expect((await create({ name: 'Op', host: 'x' }, op.token)).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)

    const patched = await h.request('PATCH', `/api/printer/${b.body.detail._key}`, { token: admin, body: { host: '127.0.0.1', port: raw.port } })
    expect(patched.body.detail).toMatchObject({ host: '127.0.0.1', port: raw.port })
    // A default printer for the operator, then the printer goes to the trash: no default any more.
    expect((await h.request('PUT', '/api/printer/default', { token: op.token, body: { printer_key: b.body.detail._key } })).body.detail.name).toBe('Zebra linea 1')
    await h.request('PATCH', `/api/printer/${b.body.detail._key}`, { token: admin, body: { trash: true } })
    expect((await h.request('GET', '/api/printer/default', { token: op.token })).body.detail).toBeNull()
    expect((await h.request('GET', '/api/printer', { token: op.token })).body.detail.map((p: { name: string }) => p.name)).toEqual(['Ufficio'])
    expect((await h.request('GET', '/api/printer?trash=true', { token: op.token })).body.detail.map((p: { name: string }) => p.name)).toEqual(['Zebra linea 1'])
    await h.request('PATCH', `/api/printer/${b.body.detail._key}`, { token: admin, body: { trash: false } })
    const types = (await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', b.body.detail._key).orderBy('id').execute()).map((e) => e.event_type)
    expect(types).toEqual(['PRINTER_CREATED', 'PRINTER_UPDATED', 'PRINTER_TRASHED', 'PRINTER_RESTORED'])
  })

  test('default printer (SPEC 8 printer change error): set, change, clear; unknown or trashed printers are refused with UNKNOWN_PRINTER', async () => {
    const [ufficio] = (await h.request('GET', '/api/printer', { token: op.token })).body.detail
    let res = await h.request('PUT', '/api/printer/default', { token: op.token, body: { printer_key: ufficio._key } })
    expect(res.body.detail._key).toBe(ufficio._key)
    const viaTrpc = await trpcCall(h, 'printers.myDefault', 'query', undefined, { token: op.token })
    expect(viaTrpc.body.result.data.name).toBe('Ufficio')
    for (const key of [MISSING_UUID, 'stampante']) {
      res = await h.request('PUT', '/api/printer/default', { token: op.token, body: { printer_key: key } })
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 404, code: 'UNKNOWN_PRINTER' })
    }
    const trashed = (await create({ name: 'Cestinata', host: 'x' })).body.detail._key
    await h.request('PATCH', `/api/printer/${trashed}`, { token: admin, body: { trash: true } })
    res = await h.request('PUT', '/api/printer/default', { token: op.token, body: { printer_key: trashed } })
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 404, code: 'UNKNOWN_PRINTER' })
    expect((await h.request('GET', '/api/printer/default', { token: op.token })).body.detail._key).toBe(ufficio._key)
    res = await h.request('PUT', '/api/printer/default', { token: op.token, body: { printer_key: null } })
    expect(res.body.detail).toBeNull()
  })

  test('IPP: a filled label reaches ippeveprinter; the spooled PDF holds the values; the log says accepted', async () => {
    const [ufficio] = (await h.request('GET', '/api/printer', { token: op.token })).body.detail
    const product = await makeProduct(h.svc.db, { code: 'PR-IPP-1', phases: [{}] })
    const wo = await makeWorkOrder(h.svc.db, product, { code: 'WO-IPP-77' })
    const res = await h.request('POST', '/api/print', { token: op.token, body: { template_key: template, job_key: wo.jobs[0]!, printer_key: ufficio._key, app_url: 'https://mes.example.com' } })
    expect({ status: res.status, message: res.body.detail.message }).toEqual({ status: 201, message: expect.any(String) })
    expect(res.body.detail).toMatchObject({ status: 'accepted', printer_name: 'Ufficio', template_name: 'Etichetta lotto', username: 'pr-operator', documents: 1 })
    expect(res.body.detail.message).toMatch(/^job \d+ accepted/)
    const [spooled] = await ipp.waitForDocuments(1)
    expect(readFileSync(spooled!).subarray(0, 5).toString()).toBe('%PDF-')
    const text = await pdfText(spooled!)
    expect(text).toContain('PR-IPP-1')
    expect(text).toContain('WO-IPP-77')
    // Test print from the library, logged without a template.
    const test = await h.request('POST', `/api/printer/${ufficio._key}/test`, { token: admin })
    expect(test.body.detail).toMatchObject({ status: 'accepted', template_key: null })
    const docs = await ipp.waitForDocuments(2)
    const testPage = await pdfText(docs[1]!)
    expect(testPage).toContain('Stampa di prova')
    // The app's date format and who sent it.
    expect(testPage).toMatch(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} - /)
  }, 30_000)

  test('by URI: ipps:// reaches the printer over TLS, socket:// is raw TCP; a URI naming no printer is refused and nothing is made', async () => {
    const tls = await create({ name: 'Coda CUPS TLS', uri: `ipps://localhost:${ipp.port}/ipp/print` })
    expect(tls.status).toBe(201)
    expect(tls.body.detail).toMatchObject({ protocol: 'ipps', host: 'localhost', port: ipp.port, path: '/ipp/print' })
    const spooled = ipp.documents().length
    const sent = await h.request('POST', `/api/printer/${tls.body.detail._key}/test`, { token: admin })
    expect(sent.body.detail).toMatchObject({ status: 'accepted' })
    expect(await pdfText((await ipp.waitForDocuments(spooled + 1))[spooled]!)).toContain(`ipps://localhost:${ipp.port}/ipp/print`)
    expect((await create({ name: 'Etichette 2', uri: 'socket://10.1.2.3' })).body.detail).toMatchObject({ protocol: 'raw', host: '10.1.2.3', port: 9100 })
    const before = await tableCounts(h)
    for (const body of [{ name: 'Z1', uri: 'lpd://printer/queue' }, { name: 'Z2', uri: 'printer:631' }, { name: 'Z3' }]) {
      const r = await create(body)
      expect({ body, status: r.status, code: appCode(r.body) }).toEqual({ body, status: 400, code: body.uri ? 'PRINTER_URI_INVALID' : 'INVALID_INPUT' })
    }
    expect(await tableCounts(h)).toEqual(before)
    // A patch by URI moves the printer as a whole.
    const moved = await h.request('PATCH', `/api/printer/${tls.body.detail._key}`, { token: admin, body: { uri: 'ipp://print-server:8631/printers/Ufficio' } })
    expect(moved.body.detail).toMatchObject({ protocol: 'ipp', host: 'print-server', port: 8631, path: '/printers/Ufficio' })
  }, 30_000)

  test('raw TCP 9100: the listener receives exactly the PDF kept for download', async () => {
    const zebra = (await h.request('GET', '/api/printer', { token: op.token })).body.detail.find((p: { name: string }) => p.name === 'Zebra linea 1')
    const product = await makeProduct(h.svc.db, { code: 'PR-RAW-1', phases: [{}] })
    const res = await h.request('POST', '/api/print', { token: op.token, body: { template_key: template, product_key: product.id, printer_key: zebra._key, copies: 2 } })
    expect(res.body.detail).toMatchObject({ status: 'accepted', documents: 2 })
    const [bytes] = await raw.waitFor(1)
    const kept = await h.svc.files.get(res.body.detail.pdf_url.slice('/media/'.length))
    expect(bytes).toEqual(new Uint8Array(await kept!.arrayBuffer()))
    expect((await pdfText(bytes!)).match(/PR-RAW-1/g)).toHaveLength(2)
  })

  test('unreachable printers answer 422 within seconds (refused port, a printer that never answers, not an IPP printer) and are logged', async () => {
    const closed = await freePort()
    const silent = await startSilentListener()
    printerTimeouts.ms = 1500
    try {
      const cases = [
        { name: 'Spenta', host: '127.0.0.1', port: closed, protocol: 'ipp' },
        { name: 'Muta', host: '127.0.0.1', port: silent.port, protocol: 'ipp' },
        { name: 'Muta raw', host: '127.0.0.1', port: silent.port, protocol: 'raw' },
        { name: 'Spenta raw', host: '127.0.0.1', port: closed, protocol: 'raw' },
      ]
      for (const c of cases) {
        const key = (await create(c)).body.detail._key
        const started = Date.now()
        const res = await h.request('POST', '/api/print', { token: op.token, body: { template_key: template, printer_key: key } })
        const took = Date.now() - started
        // A raw printer that accepts the connection and the bytes has taken them (9100 has no answer).
        if (c.name === 'Muta raw') {
          expect(res.status).toBe(201)
          continue
        }
        expect({ name: c.name, status: res.status, code: appCode(res.body) }).toEqual({ name: c.name, status: 422, code: 'PRINTER_UNREACHABLE' })
        expect(took).toBeLessThan(4000)
        expect(res.body.detail.message).toContain(c.name)
        const logged = (await h.request('GET', `/api/print?printer_key=${key}`, { token: admin })).body.detail
        expect(logged).toHaveLength(1)
        expect(logged[0]).toMatchObject({ _key: res.body.detail.print_key, status: 'unreachable', printer_name: c.name })
        expect(res.body.detail.pdf_url).toBe(logged[0].pdf_url)
      }
      // The IPP test server itself refuses a document format it does not take.
      const ufficio = (await h.request('GET', '/api/printer', { token: op.token })).body.detail.find((p: { name: string }) => p.name === 'Ufficio')
      const { ippPrintJob } = await import('./ipp')
      const refused = await ippPrintJob({ host: '127.0.0.1', port: ipp.port, path: ufficio.path, document: new Uint8Array([1]), jobName: 'x', user: 'y', timeoutMs: 3000, format: 'image/pwg-raster' })
      expect(refused.accepted).toBe(false)
      expect(refused.message).toContain('0x040b')
    } finally {
      printerTimeouts.ms = 5000
      await silent.stop()
    }
  }, 30_000)

  test('the print log: newest first with what, where, who and the outcome; admins only', async () => {
    const log = (await h.request('GET', '/api/print', { token: admin })).body.detail
    expect(log.length).toBeGreaterThanOrEqual(5)
    expect(log[0].created_at).toBeGreaterThanOrEqual(log[log.length - 1].created_at)
    expect(new Set(log.map((r: { status: string }) => r.status))).toEqual(new Set(['accepted', 'unreachable']))
    expect(log.every((r: { username: string }) => ['pr-operator', 'admin'].includes(r.username))).toBe(true)
    // The log names who printed by name and surname, as people are named elsewhere in the app.
    await h.svc.db.updateTable('users').set({ name: 'Piero', surname: 'Rossi' }).where('username', '=', 'pr-operator').execute()
    const named = (await h.request('GET', '/api/print', { token: admin })).body.detail
    expect(named.filter((r: { username: string }) => r.username === 'pr-operator').every((r: { user_name: string }) => r.user_name === 'Piero Rossi')).toBe(true)
    expect(named.filter((r: { username: string }) => r.username === 'admin').every((r: { user_name: string | null }) => r.user_name !== '')).toBe(true)
    const byTemplate = (await h.request('GET', `/api/print?template_key=${template}&limit=2`, { token: admin })).body.detail
    expect(byTemplate).toHaveLength(2)
    expect((await h.request('GET', '/api/print', { token: op.token })).status).toBe(403)
    const viaTrpc = await trpcCall(h, 'prints.log', 'query', { limit: 1 }, { token: admin })
    expect(viaTrpc.body.result.data).toHaveLength(1)
    const events = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'PRINT_MADE').execute()
    expect(events.length).toBe(log.length)
  })
})
