import { beforeAll, describe, expect, test } from 'bun:test'
import createClient from 'openapi-fetch'
import { adminToken } from '../fixtures'
import { ORIGIN, useHarness } from '../harness'
import { makeProduct } from '../../domains/work-orders/test-fixtures'
import type { paths } from './api'
import { GENERATED_PATH, generatedTypes } from './generate'

/**
 * A client generated from the OpenAPI document (openapi-typescript types, openapi-fetch calls), as
 * a script writer would make one: the project's type check checks these calls against the
 * document, and the calls run against the app.
 */
describe('a generated OpenAPI client', () => {
  const h = useHarness()
  let client: ReturnType<typeof createClient<paths>>
  let product: string

  beforeAll(async () => {
    const token = await adminToken(h)
    client = createClient<paths>({ baseUrl: `${ORIGIN}/api`, headers: { authorization: `Bearer ${token}` }, fetch: async (req) => h.app.request(req) })
    product = (await makeProduct(h.svc.db, { code: 'GEN-PUMP', phases: ['Montaggio'] })).key
  })

  test('the committed types are the document\'s (else run `bun src-server/test/openapi-client/generate.ts`)', async () => {
    expect(await Bun.file(GENERATED_PATH).text()).toBe(await generatedTypes())
  }, 60_000)

  test('create, list with typed numbers, read by code, and a typed refusal', async () => {
    const created = await client.POST('/work-order', { body: { product_key: product, quantity: 4, line: 'L1' } })
    expect(created.response.status).toBe(201)
    const wo = created.data!.detail
    expect(wo.code).toMatch(/^WO\d{6}$/)
    const list = await client.GET('/work-order', { params: { query: { page_size: 3, page: 1 } } })
    expect(list.data!.detail.rows.map((r) => r.code)).toContain(wo.code)
    const byCode = await client.GET('/work-order/{id}', { params: { path: { id: wo.code } } })
    expect(byCode.data!.detail._key).toBe(wo._key)
    const users = await client.GET('/user', { params: { query: { archived: false, scope: 'admin' } } })
    expect(users.error).toBeUndefined()
    expect(users.data!.detail.map((u) => u.username)).toContain('admin')
    const refused = await client.GET('/report/production', { params: { query: { from: '2026/11/01', to: 'soon' } } })
    expect(refused.response.status).toBe(400)
    expect(refused.error?.detail?.code).toBe('INVALID_INPUT')
  })
})
