import { beforeAll, describe, expect, test } from 'bun:test'
import { quickUser } from '../../test/fixtures'
import { ORIGIN, useHarness } from '../../test/harness'
import { makeRecordWorld, pdfText, type RecordWorld } from './test-fixtures'

/** REST: the record as JSON and as a PDF, for work orders (key or code) and serials; 404s; who may read it. */
describe('REST history record', () => {
  const h = useHarness()
  let w: RecordWorld
  const tokens: Record<string, string> = {}

  beforeAll(async () => {
    w = await makeRecordWorld(h, 'dhrrest')
    for (const scope of ['production', 'traceability', 'quality', 'audit', 'operator', 'warehouse']) tokens[scope] = (await quickUser(h, `rec-${scope}`, scope)).token
  }, 60_000)

  const get = (path: string, scope = 'production') => h.request('GET', path, { token: tokens[scope] })
  const pdf = async (path: string, scope = 'production', headers: Record<string, string> = {}) => {
    const res = await h.app.request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${tokens[scope]}`, ...headers } })
    return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), bytes: new Uint8Array(await res.arrayBuffer()) }
  }

  test('GET work-order/{code}/history-record: the record as JSON', async () => {
    const res = await get(`/api/work-order/${w.workOrderCode}/history-record`)
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ kind: 'work_order', product: { code: w.productCode }, work_order: { code: w.workOrderCode }, quantities: { planned: 2, done: 2 } })
    expect(res.body.detail.phases[0].jobs[0].batches).toHaveLength(2)
    expect((await get(`/api/work-order/${w.workOrderKey}/history-record`, 'audit')).body.detail.work_order.code).toBe(w.workOrderCode)
  })

  test('GET work-order/{key}/history-record.pdf: a PDF in the asked language, else the browser language', async () => {
    const it = await pdf(`/api/work-order/${w.workOrderKey}/history-record.pdf?lang=it`, 'quality')
    expect(it.status).toBe(200)
    expect(it.type).toBe('application/pdf')
    expect(it.disposition).toContain(`registro-produzione-${w.workOrderCode}.pdf`)
    expect(new TextDecoder().decode(it.bytes.subarray(0, 5))).toBe('%PDF-')
    const text = await pdfText(it.bytes)
    for (const s of ['Registro di produzione', w.productCode, 'Serraggio viti', 'Coppia dhrrest: 12,5', 'Mario Rossi']) expect(text).toContain(s)
    const en = await pdf(`/api/work-order/${w.workOrderCode}/history-record.pdf`, 'traceability', { 'accept-language': 'en-GB,en;q=0.9' })
    expect(en.disposition).toContain('production-record-')
    expect(await pdfText(en.bytes)).toContain('Production record')
  })

  test('the same for a serial, by code or key', async () => {
    const res = await get(`/api/serial/${w.serialCode}/history-record`, 'traceability')
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ kind: 'serial', serial: { code: w.serialCode, genealogy: [{ code: w.serialCode }, { code: w.componentCode }] } })
    const file = await pdf(`/api/serial/${w.serialKey}/history-record.pdf?lang=en`, 'audit')
    expect([file.status, file.type]).toEqual([200, 'application/pdf'])
    const text = await pdfText(file.bytes)
    for (const s of ['Production record', w.serialCode, w.componentCode, 'Serraggio viti']) expect(text).toContain(s)
  })

  test('unknown codes are 404 with a message; bad input is 400', async () => {
    const wo = await get('/api/work-order/WO999999/history-record')
    expect(wo.status).toBe(404)
    expect(wo.body.detail).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('WO999999') })
    const woPdf = await pdf('/api/work-order/WO999999/history-record.pdf')
    expect(woPdf.status).toBe(404)
    const serial = await get('/api/serial/NO-SUCH/history-record', 'traceability')
    expect(serial.status).toBe(404)
    expect(serial.body.detail).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('NO-SUCH') })
    expect((await get(`/api/work-order/${w.workOrderKey}/history-record.pdf?lang=fr`)).status).toBe(400)
    expect((await get(`/api/work-order/${w.workOrderKey}/history-record?colour=red`)).body.detail.issues[0].kind).toBe('unknown_key')
  })

  test('operators and warehouse users may not read it; tRPC answers the same record', async () => {
    for (const scope of ['operator', 'warehouse']) {
      expect((await get(`/api/work-order/${w.workOrderKey}/history-record`, scope)).status).toBe(403)
      expect((await pdf(`/api/serial/${w.serialKey}/history-record.pdf`, scope)).status).toBe(403)
    }
    expect((await h.request('GET', `/api/work-order/${w.workOrderKey}/history-record`)).status).toBe(401)
    const input = encodeURIComponent(JSON.stringify({ key: w.serialKey }))
    const trpc = await h.request('GET', `/api/trpc/historyRecord.serial?input=${input}`, { token: tokens.quality })
    expect(trpc.status).toBe(200)
    expect(trpc.body.result.data.serial.code).toBe(w.serialCode)
  })
})
