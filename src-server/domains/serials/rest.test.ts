import { beforeAll, describe, expect, test } from 'bun:test'
import type { Actor } from '../../context'
import { useHarness } from '../../test/harness'
import { adminKey, MISSING_UUID, quickUser, tableCounts } from '../../test/fixtures'
import { writeSettings } from '../settings/queries'
import { makeProduct } from '../work-orders/test-fixtures'
import { createSerial, linkSerials } from './service'

const h = useHarness()
const tokens: Record<string, string> = {}
const keys: Record<string, string> = {}
let linkKey: string

beforeAll(async () => {
  for (const scope of ['traceability', 'production', 'quality', 'operator']) tokens[scope] = (await quickUser(h, `u-${scope}`, scope)).token
  const actor: Actor = { userId: await adminKey(h), sessionId: null, scope: 'admin', tokenId: null }
  const product = (await makeProduct(h.svc.db, { code: 'MOTORE' })).key
  await h.svc.db.transaction().execute(async (trx) => {
    for (const code of ['R-ROOT', 'R-MID', 'R-LEAF']) keys[code] = await createSerial(trx, actor, { code, product_id: product }, h.clock.now())
    await linkSerials(trx, actor, { parent_id: keys['R-ROOT']!, child_id: keys['R-MID']! }, h.clock.now())
    linkKey = (await linkSerials(trx, actor, { parent_id: keys['R-MID']!, child_id: keys['R-LEAF']! }, h.clock.now())).link_key
  })
})

const get = (path: string, scope = 'traceability') => h.request('GET', path, { token: tokens[scope] })

describe('REST serials', () => {
  test('GET serial with params: search, filters, total', async () => {
    const res = await get('/api/serial?search=r-m')
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ total: 1, total_capped: false, rows: [{ code: 'R-MID', product_code: 'MOTORE' }] })
    expect((await get('/api/serial?code=R-LEAF')).body.detail.rows.map((r: { code: string }) => r.code)).toEqual(['R-LEAF'])
    expect((await get('/api/serial?state=final&from=2000/01/01')).body.detail.total).toBe(3)
  })

  test('bad input is a 4xx with a clear message, never a 5xx', async () => {
    const long = await get(`/api/serial?search=${'X'.repeat(10_000)}`)
    expect(long.status).toBe(400)
    expect(long.body.detail.code).toBe('INVALID_INPUT')
    const nul = await get('/api/serial?search=ab%00cd')
    expect(nul.status).toBe(400)
    const short = await get('/api/serial?search=R')
    expect(short.status).toBe(400)
    expect(short.body.detail).toMatchObject({ code: 'SERIAL_SEARCH_TOO_SHORT', min: 3 })
    expect((await get('/api/serial?state=broken')).status).toBe(400)
    expect((await get('/api/serial?product_key=nope')).status).toBe(400)
    expect((await get('/api/serial?colour=red')).body.detail.issues[0].kind).toBe('unknown_key')
    expect((await get(`/api/serial/${MISSING_UUID}`)).status).toBe(404)
    expect((await get('/api/serial/not-a-key')).status).toBe(404)
    expect((await get(`/api/serial/${keys['R-ROOT']}/genealogy?direction=sideways`)).status).toBe(400)
  })

  test('GET serial/{key}: data, components, contained in, history', async () => {
    const res = await get(`/api/serial/${keys['R-MID']}`)
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ code: 'R-MID', components: [{ code: 'R-LEAF' }], contained_in: { code: 'R-ROOT' } })
    expect(res.body.detail.history.map((e: { event_type: string }) => e.event_type)).toEqual(['SERIAL_CREATED', 'SERIAL_LINKED', 'SERIAL_LINKED'])
    expect(res.body.detail.history[1].data).toMatchObject({ parent_code: 'R-ROOT', child_code: 'R-MID' })
  })

  test('GET serial/{key}/genealogy both ways', async () => {
    const back = await get(`/api/serial/${keys['R-ROOT']}/genealogy?direction=backward`)
    expect(back.body.detail.rows.map((r: { depth: number; code: string }) => `${r.depth}:${r.code}`)).toEqual(['0:R-ROOT', '1:R-MID', '2:R-LEAF'])
    const fwd = await get(`/api/serial/${keys['R-LEAF']}/genealogy?direction=forward`)
    expect(fwd.body.detail.rows.map((r: { code: string }) => r.code)).toEqual(['R-LEAF', 'R-MID', 'R-ROOT'])
  })

  test('PATCH serial/{key}: reason required, 10,000 characters and NUL refused, nothing written', async () => {
    await writeSettings(h.svc.db, { serial_code_edit: true })
    const before = await tableCounts(h)
    const patch = (body: unknown, scope = 'traceability') => h.request('PATCH', `/api/serial/${keys['R-LEAF']}`, { token: tokens[scope], body })
    expect((await patch({ code: 'Z'.repeat(10_000), reason: 'x' })).status).toBe(400)
    expect((await patch({ code: 'Z\u0000Z', reason: 'x' })).status).toBe(400)
    expect((await patch({ data: { a: 'b\u0000' }, reason: 'x' })).status).toBe(400)
    expect((await patch({ code: 'R-LEAF-2' })).status).toBe(400)
    expect((await patch({ code: 'R-LEAF-2', reason: ' ' })).body.detail.code).toBe('SERIAL_REASON_REQUIRED')
    expect((await patch({ code: 'R-ROOT', reason: 'x' })).body.detail.code).toBe('SERIAL_ALREADY_PRESENT')
    expect((await patch({ code: 'R-LEAF-2', reason: 'x' }, 'production')).status).toBe(403)
    expect(await tableCounts(h)).toEqual(before)
    const ok = await patch({ code: 'R-LEAF-2', reason: 'ristampa etichetta' })
    expect(ok.status).toBe(200)
    expect(ok.body.detail.code).toBe('R-LEAF-2')
    await writeSettings(h.svc.db, { serial_code_edit: false })
    expect((await patch({ code: 'R-LEAF-3', reason: 'x' })).body.detail.code).toBe('SERIAL_CODE_EDIT_DISABLED')
  })

  test('DELETE serial-link/{key} with a reason, only with the setting', async () => {
    const del = (body: unknown, scope = 'traceability') => h.request('DELETE', `/api/serial-link/${linkKey}`, { token: tokens[scope], body })
    expect((await del({ reason: 'smontato' })).body.detail.code).toBe('SERIAL_DELETE_DISABLED')
    await writeSettings(h.svc.db, { serial_delete: true })
    expect((await del({})).status).toBe(400)
    expect((await del({ reason: 'smontato' }, 'quality')).status).toBe(403)
    expect((await del({ reason: 'smontato' })).status).toBe(200)
    expect((await get(`/api/serial/${keys['R-MID']}`)).body.detail.components).toEqual([])
  })

  test('permissions: traceability, production and quality read; operators do not', async () => {
    for (const scope of ['traceability', 'production', 'quality']) expect((await get('/api/serial', scope)).status).toBe(200)
    expect((await get('/api/serial', 'operator')).status).toBe(403)
    expect((await get(`/api/serial/${keys['R-ROOT']}`, 'operator')).status).toBe(403)
    expect((await h.request('GET', '/api/serial')).status).toBe(401)
  })

  test('tRPC serials.list answers like REST', async () => {
    const res = await h.request('GET', `/api/trpc/serials.list?input=${encodeURIComponent(JSON.stringify({ search: 'R-R' }))}`, { token: tokens.traceability })
    expect(res.status).toBe(200)
    expect(res.body.result.data.rows.map((r: { code: string }) => r.code)).toEqual(['R-ROOT'])
  })
})
