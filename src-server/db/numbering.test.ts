import { beforeAll, describe, expect, test } from 'bun:test'
import { adminToken } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { makeProduct } from '../domains/work-orders/test-fixtures'

/** Numbers people read have no holes: a refused write or a preview draws none. */
describe('numbers without holes', () => {
  const h = useHarness()
  let token: string
  let product: string
  let position: string
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.request(method, `/api${path}`, { token, body, headers })

  beforeAll(async () => {
    token = await adminToken(h)
    product = (await makeProduct(h.svc.db, { code: 'NUM-PUMP', phases: ['Montaggio'] })).key
    position = (await call('POST', '/position', { code: 'NUM-A' })).body.detail._key
  })

  test('movements: a refused movement (too little stock, a second load of a serial) leaves the next number the one after the last', async () => {
    const load = (body: Record<string, unknown>) => call('POST', '/movement', { product_key: product, type: 'load', to_position_key: position, quantity: 1, ...body })
    const first = await load({ serial: 'NUM-SN-1' })
    expect(first.status).toBe(201)
    expect((await load({ serial: 'NUM-SN-1' })).status).toBe(409)
    expect((await call('POST', '/movement', { product_key: product, type: 'unload', from_position_key: position, quantity: 5 })).status).toBe(409)
    const next = await load({})
    expect(next.body.detail.number).toBe(first.body.detail.number + 1)
  })

  test('work orders: a refused import and a CSV preview leave the next code the one after the last', async () => {
    const first = await call('POST', '/work-order', { product_key: product, quantity: 3 })
    expect(first.status).toBe(201)
    const n = Number(first.body.detail.code.slice(2))
    const csv = 'product_code;quantity\r\nNUM-PUMP;4\r\nNUM-PUMP;5\r\n'
    const form = () => {
      const f = new FormData()
      f.append('file', new File([csv], 'ordini.csv', { type: 'text/csv' }))
      return f
    }
    expect((await h.request('POST', '/api/import/work-orders/csv/preview', { token, body: form() })).body.detail).toMatchObject({ valid: 2, invalid: 0 })
    const refused = await call('POST', '/import/work-orders', { rows: [{ product_code: 'NUM-PUMP', quantity: 2 }, { product_code: 'NUM-PUMP', quantity: 0 }] }, { 'idempotency-key': 'num-bad' })
    expect(refused.status).toBe(422)
    const next = await call('POST', '/work-order', { product_key: product, quantity: 3 })
    expect(next.body.detail.code).toBe(`WO${String(n + 1).padStart(6, '0')}`)
    const codes = (await h.svc.db.selectFrom('work_orders').select('code').orderBy('code').execute()).map((r) => Number(r.code.slice(2)))
    expect(codes).toEqual(codes.map((_, i) => codes[0]! + i))
  })

  test('concurrent movements: every number from 1 up to the last is used once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', '/movement', { product_key: product, type: 'load', to_position_key: position, quantity: 1, ...(i % 4 === 0 ? { serial: 'NUM-SN-1' } : {}) })))
    expect(answers.filter((r) => r.status === 409)).toHaveLength(5)
    const numbers = (await h.svc.db.selectFrom('movements').select('number').orderBy('number').execute()).map((r) => Number(r.number))
    expect(numbers).toEqual(numbers.map((_, i) => i + 1))
  })
})
