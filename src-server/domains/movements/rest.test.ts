import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { MISSING_UUID, quickUser, tableCounts } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { makeProduct } from '../work-orders/test-fixtures'

const h = useHarness()
const tokens: Record<string, string> = {}
let product: string
const pos: Record<string, string> = {}

const call = (method: string, path: string, body?: unknown, scope = 'warehouse') => h.request(method, `/api${path}`, { token: tokens[scope], body })

beforeAll(async () => {
  for (const scope of ['warehouse', 'production', 'admin', 'operator']) tokens[scope] = (await quickUser(h, `u-${scope}`, scope)).token
  product = (await makeProduct(h.svc.db, { code: 'VITE-M6' })).key
  for (const code of ['R-AREA', 'R-SCAFFALE', 'R-LINEA']) {
    const res = await call('POST', '/position', { code, ...(code === 'R-SCAFFALE' ? { parent_key: pos['R-AREA'] } : {}) })
    expect(res.status).toBe(201)
    pos[code] = res.body.detail._key
  }
})

describe('REST positions', () => {
  test('POST, GET with params, GET one, PATCH', async () => {
    const list = await call('GET', '/position?search=r-s')
    expect(list.status).toBe(200)
    expect(list.body.detail.rows.map((r: { code: string }) => r.code)).toEqual(['R-SCAFFALE'])
    expect((await call('GET', '/position?root=true')).body.detail.rows.map((r: { code: string }) => r.code)).toEqual(['R-AREA', 'R-LINEA'])
    const one = await call('GET', `/position/${pos['R-AREA']}`)
    expect(one.body.detail.children_rows.map((r: { code: string }) => r.code)).toEqual(['R-SCAFFALE'])
    const patched = await call('PATCH', `/position/${pos['R-SCAFFALE']}`, { description: 'Scaffale 1', available: false })
    expect(patched.status).toBe(200)
    expect(patched.body.detail).toMatchObject({ description: 'Scaffale 1', available: false, owned: true })
  })

  test('bad input: 4xx with a clear code, nothing written', async () => {
    const before = await tableCounts(h)
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/position', { code: '' }, 400, 'POSITION_CODE_REQUIRED'],
      ['POST', '/position', { code: 'R-AREA' }, 409, 'POSITION_CODE_TAKEN'],
      ['POST', '/position', { code: 'X-1', parent_key: MISSING_UUID }, 422, 'UNKNOWN_POSITION'],
      ['POST', '/position', { code: 'X-1', colour: 'red' }, 400, 'INVALID_INPUT'],
      ['POST', '/position', { code: 'X\u0000' }, 400, 'INVALID_INPUT'],
      ['PATCH', `/position/${pos['R-AREA']}`, { parent_key: pos['R-SCAFFALE'] }, 422, 'POSITION_INSIDE_ITSELF'],
      ['PATCH', `/position/${pos['R-AREA']}`, { parent_key: pos['R-AREA'] }, 422, 'POSITION_INSIDE_ITSELF'],
      ['PATCH', `/position/${MISSING_UUID}`, { code: 'Y' }, 404, 'NOT_FOUND'],
      ['GET', '/position?search=ab', undefined, 400, 'POSITION_SEARCH_TOO_SHORT'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: MISSING_UUID, quantity: 1 }, 422, 'UNKNOWN_POSITION'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: -2 }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: 0 }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: 'NaN' }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: null }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: 1e12 }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: 0.123456 }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'teleport', to_position_key: pos['R-LINEA'], quantity: 1 }, 400, 'INVALID_INPUT'],
      ['POST', '/movement', { product_key: product, type: 'unload', from_position_key: pos['R-LINEA'], quantity: 1 }, 409, 'INSUFFICIENT_STOCK'],
      ['POST', '/movement', { product_key: 'nope', type: 'load', to_position_key: pos['R-LINEA'], quantity: 1 }, 400, 'INVALID_INPUT'],
      ['POST', `/movement/${MISSING_UUID}/revert`, { reason: 'x' }, 404, 'NOT_FOUND'],
      ['POST', `/position/${pos['R-LINEA']}/count`, { reason: 'x', lines: [{ product_key: product, quantity: -1 }] }, 400, 'INVALID_INPUT'],
      ['POST', `/position/${pos['R-LINEA']}/count`, { reason: 'x', lines: [{ product_key: MISSING_UUID, quantity: 1 }] }, 422, 'UNKNOWN_PRODUCT'],
      ['GET', '/movement?page_size=1000', undefined, 400, 'INVALID_INPUT'],
      ['GET', '/inventory?owned=maybe', undefined, 400, 'INVALID_INPUT'],
      ['PATCH', '/settings/warehouse', { default_production_position_key: MISSING_UUID }, 422, 'UNKNOWN_POSITION'],
    ]
    for (const [method, path, body, status, code] of cases) {
      const res = await call(method, path, body, path.startsWith('/settings') ? 'admin' : 'warehouse')
      expect([method, path, res.status, res.body?.detail?.code]).toEqual([method, path, status, code])
    }
    expect(await tableCounts(h)).toEqual(before)
  })
})

describe('REST movements, inventory, settings', () => {
  test('load, revert with a reason, inventory and movement lists', async () => {
    const load = await call('POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-SCAFFALE'], quantity: 12 })
    expect(load.status).toBe(201)
    expect(load.body.detail).toMatchObject({ status: 'confirmed', confirmed_quantity: 12, to_position_code: 'R-SCAFFALE', user_name: expect.any(String) })
    const inv = await call('GET', `/inventory?position_key=${pos['R-AREA']}`)
    expect(inv.body.detail.totals).toEqual([{ product_key: product, product_code: 'VITE-M6', product_description: 'Prodotto VITE-M6', quantity: 12 }])
    const planned = await call('POST', '/movement', { product_key: product, type: 'transfer', from_position_key: pos['R-SCAFFALE'], to_position_key: pos['R-LINEA'], quantity: 2, confirm: false })
    expect((await call('POST', `/movement/${planned.body.detail._key}/confirm`, {})).body.detail.status).toBe('confirmed')
    const revert = await call('POST', `/movement/${planned.body.detail._key}/revert`, { reason: 'linea ferma' })
    expect(revert.status).toBe(200)
    expect(revert.body.detail.original.reverted_by_key).toBe(revert.body.detail.revert._key)
    const again = await call('POST', `/movement/${planned.body.detail._key}/revert`, { reason: 'di nuovo' })
    expect([again.status, again.body.detail.code]).toEqual([409, 'MOVEMENT_ALREADY_REVERTED'])
    const list = await call('GET', `/movement?position_key=${pos['R-LINEA']}&page_size=10`)
    expect(list.body.detail.total).toBe(2)
    expect((await call('GET', `/movement/${load.body.detail._key}`)).body.detail.number).toBe(load.body.detail.number)
  })

  test('warehouse settings: admin changes them, everyone in the area reads them', async () => {
    const res = await call('PATCH', '/settings/warehouse', { default_production_position_key: pos['R-LINEA'], inventory_management: true }, 'admin')
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ default_production_position_code: 'R-LINEA', inventory_management: true, negative_stock_allowed: false })
    expect((await call('GET', '/settings/warehouse')).body.detail.default_production_position_key).toBe(pos['R-LINEA'])
    expect((await call('GET', '/settings')).body.detail.inventory_management).toBe(true)
    await call('PATCH', '/settings/warehouse', { default_production_position_key: null, inventory_management: false }, 'admin')
  })

  test('permissions: operator nothing, production and admin read only, only admin changes settings', async () => {
    expect((await call('GET', '/inventory', undefined, 'operator')).status).toBe(403)
    expect((await call('GET', '/position?root=true', undefined, 'operator')).status).toBe(403)
    expect((await call('GET', '/inventory', undefined, 'production')).status).toBe(200)
    expect((await call('GET', '/movement', undefined, 'admin')).status).toBe(200)
    for (const scope of ['production', 'admin', 'operator']) {
      expect((await call('POST', '/movement', { product_key: product, type: 'load', to_position_key: pos['R-LINEA'], quantity: 1 }, scope)).status).toBe(403)
      expect((await call('POST', '/position', { code: `P-${scope}` }, scope)).status).toBe(403)
    }
    expect((await call('PATCH', '/settings/warehouse', { negative_stock_allowed: true })).status).toBe(403)
  })

  test('OpenAPI lists every warehouse path', async () => {
    const doc = await h.request('GET', '/api/openapi.json')
    for (const p of ['/position', '/position/{key}', '/position/{key}/count', '/movement', '/movement/{key}', '/movement/{key}/revert', '/movement/{key}/confirm', '/inventory', '/settings/warehouse']) {
      expect(Object.keys(doc.body.paths)).toContain(p)
    }
  })
})

describe('concurrency (PostgreSQL)', () => {
  test('50 concurrent transfers of the same stock: total conserved, refusals are 409, none 5xx', async () => {
    const a = (await call('POST', '/position', { code: 'CONC-A' })).body.detail._key
    const b = (await call('POST', '/position', { code: 'CONC-B' })).body.detail._key
    const item = (await makeProduct(h.svc.db, { code: 'CONC-ITEM' })).key
    await call('POST', '/movement', { product_key: item, type: 'load', to_position_key: a, quantity: 20 })
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 5 === 4
        ? call('POST', '/movement', { product_key: item, type: 'transfer', from_position_key: b, to_position_key: a, quantity: 1 })
        : call('POST', '/movement', { product_key: item, type: 'transfer', from_position_key: a, to_position_key: b, quantity: 1 }),
    )
    const answers = await Promise.all(requests)
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s >= 500)).toEqual([])
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true)
    for (const r of answers.filter((x) => x.status === 409)) expect(['INSUFFICIENT_STOCK', 'STOCK_BUSY']).toContain(r.body.detail.code)
    const ok = answers.filter((r) => r.status === 201).length
    // 40 take from A (20 there, at most 10 come back): at least 10 are refused.
    expect(ok).toBeGreaterThanOrEqual(20)
    expect(answers.filter((r) => r.body?.detail?.code === 'INSUFFICIENT_STOCK').length).toBeGreaterThanOrEqual(10)
    const stock = await h.svc.db.selectFrom('stock').select(['position_id', 'quantity']).where('product_id', '=', item).execute()
    const total = stock.reduce((sum, s) => sum + Number(s.quantity), 0)
    expect(total).toBe(20)
    expect(stock.every((s) => Number(s.quantity) >= 0)).toBe(true)
    // Stock equals the confirmed movements.
    const { rows } = await sql<{ position_id: string; q: number }>`
      select position_id, sum(q)::float8 as q from (
        select to_position_id as position_id, confirmed_quantity as q from movements where product_id = ${item} and status = 'confirmed' and to_position_id is not null
        union all
        select from_position_id, -confirmed_quantity from movements where product_id = ${item} and status = 'confirmed' and from_position_id is not null
      ) x group by position_id`.execute(h.svc.db)
    for (const s of stock) expect(rows.find((r) => r.position_id === s.position_id)?.q).toBe(Number(s.quantity))
    const confirmedTransfers = await h.svc.db.selectFrom('movements').select((eb) => eb.fn.countAll<number>().as('n')).where('product_id', '=', item).where('type', '=', 'transfer').executeTakeFirstOrThrow()
    expect(Number(confirmedTransfers.n)).toBe(ok)
  }, 60_000)
})

describe('one serial, one piece', () => {
  test('a serial loads once: a second load anywhere is refused with where it is; quantity above 1 is refused; it still moves', async () => {
    const a = (await call('POST', '/position', { code: 'SER-A' })).body.detail._key
    const b = (await call('POST', '/position', { code: 'SER-B' })).body.detail._key
    const load = (to: string, quantity = 1, serial = 'SN-DUP-1') => call('POST', '/movement', { product_key: product, type: 'load', to_position_key: to, quantity, serial })
    const four = await load(a, 4)
    expect([four.status, four.body.detail.code, four.body.detail.issues[0].path]).toEqual([400, 'INVALID_INPUT', 'quantity'])
    expect((await load(a)).status).toBe(201)
    for (const to of [a, b]) {
      const again = await load(to)
      expect([again.status, again.body.detail.code, again.body.detail.position_code]).toEqual([409, 'SERIAL_ALREADY_IN_STOCK', 'SER-A'])
      expect(again.body.detail.message).toContain('SN-DUP-1')
    }
    const moved = await call('POST', '/movement', { product_key: product, type: 'transfer', from_position_key: a, to_position_key: b, quantity: 1, serial: 'SN-DUP-1' })
    expect(moved.status).toBe(201)
    expect((await load(a)).body.detail.position_code).toBe('SER-B')
    const lines = await h.svc.db.selectFrom('stock').select(['position_id', 'quantity']).where('serial', '=', 'SN-DUP-1').where('quantity', '>', 0).execute()
    expect(lines.map((l) => [l.position_id, Number(l.quantity)])).toEqual([[b, 1]])
    const count = await call('POST', `/position/${a}/count`, { reason: 'trovato', lines: [{ product_key: product, serial: 'SN-DUP-1', quantity: 1 }] })
    expect([count.status, count.body.detail.code]).toEqual([409, 'SERIAL_ALREADY_IN_STOCK'])
  })

  test('concurrent loads of one serial into different positions: exactly one lands', async () => {
    const targets = await Promise.all(['SER-C1', 'SER-C2', 'SER-C3', 'SER-C4'].map(async (code) => (await call('POST', '/position', { code })).body.detail._key))
    const answers = await Promise.all(targets.map((to) => call('POST', '/movement', { product_key: product, type: 'load', to_position_key: to, quantity: 1, serial: 'SN-RACE' })))
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409])
    const held = await h.svc.db.selectFrom('stock').select((eb) => eb.fn.sum<number>('quantity').as('q')).where('serial', '=', 'SN-RACE').executeTakeFirstOrThrow()
    expect(Number(held.q)).toBe(1)
  })
})
