import { beforeAll, describe, expect, test } from 'bun:test'
import { adminToken } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { makeProduct } from '../domains/work-orders/test-fixtures'

describe('REST in plain words', () => {
  const h = useHarness()
  let token: string
  let wo: { _key: string; code: string }
  const get = (path: string) => h.request('GET', `/api${path}`, { token })

  beforeAll(async () => {
    token = await adminToken(h)
    const product = (await makeProduct(h.svc.db, { code: 'PW-PUMP', phases: ['Montaggio'] })).key
    wo = (await h.request('POST', '/api/work-order', { token, body: { product_key: product, quantity: 2 } })).body.detail
  })

  test('validation messages say what is wanted, not valibot\'s raw text', async () => {
    const missing = await get('/report/production?to=2026/11/30')
    expect(missing.status).toBe(400)
    expect(missing.body.detail.message).toBe('from is required (YYYY/MM/DD)')
    expect(missing.body.detail.issues[0]).toMatchObject({ path: 'from', kind: 'required', message: 'is required (YYYY/MM/DD)' })
    const cases: [string, string][] = [
      ['/movement?page_size=abc', 'page_size must be a whole number (received "abc")'],
      ['/movement?page_size=1000', 'page_size must be at most 200'],
    ]
    for (const [path, message] of cases) {
      const res = await get(path)
      expect([path, res.status, res.body.detail.message]).toEqual([path, 400, message])
    }
    for (const path of ['/report/production?to=2026/11/30', '/movement?page_size=abc']) {
      expect((await get(path)).body.detail.message).not.toContain('Invalid')
    }
    // A schema's own message is kept as written.
    expect((await get('/report/production?from=2026/02/30&to=2026/03/01')).body.detail.message).toContain('February')
  })

  test('work-order paths take the visible code as well as the key; an unknown code is 404 saying what to give', async () => {
    const byCode = await get(`/work-order/${wo.code}`)
    expect(byCode.status).toBe(200)
    expect(byCode.body.detail._key).toBe(wo._key)
    expect((await get(`/work-order/${wo.code.toLowerCase()}/history`)).status).toBe(200)
    expect((await get(`/work-order/${wo.code}/serials`)).status).toBe(200)
    const unknown = await get('/work-order/WO999999')
    expect([unknown.status, unknown.body.detail.code]).toEqual([404, 'NOT_FOUND'])
    expect(unknown.body.detail.message).toContain('give its code (WO000007) or its key')
    const doc = (await get('/openapi.json')).body
    const param = doc.paths['/work-order/{id}'].get.parameters.find((p: { name: string }) => p.name === 'id')
    expect(param.schema).toMatchObject({ type: 'string', description: expect.stringContaining('WO000007') })
  })
})
