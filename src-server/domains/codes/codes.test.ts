import { beforeAll, describe, expect, test } from 'bun:test'
import { adminKey, tableCounts, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { addJob, makeProduct, makeWorkOrder, type MadeWorkOrder } from '../jobs/test-fixtures'
import { resolveSubject } from '../prints/service'

describe('scan to open: GET code?code= (codes.resolve)', () => {
  const h = useHarness()
  const tokens: Record<string, string> = {}
  let operatorKey: string
  let wo: MadeWorkOrder
  let serialKey: string
  let positionKey: string
  let productKey: string
  let ownJob: string

  beforeAll(async () => {
    for (const scope of ['operator', 'production', 'traceability', 'warehouse', 'library', 'quality']) {
      const user = await userWithScope(h, `code-${scope}`, scope)
      tokens[scope] = user.token
      if (scope === 'operator') operatorKey = user.key
    }
    tokens.all = (await userWithScope(h, 'code-all', 'operator production traceability warehouse library')).token
    const product = await makeProduct(h.svc.db, { code: 'SCAN-PUMP', phases: [{ name: 'Montaggio' }, { name: 'Collaudo' }] })
    productKey = product.id
    wo = await makeWorkOrder(h.svc.db, product, { code: 'WO-SCAN-1', quantity: 4 })
    // Phase 2 split in two jobs: the code WO-SCAN-1/2 names both; the operator's own one opens.
    ownJob = await addJob(h.svc.db, wo, 1, 2, operatorKey)
    serialKey = (await h.svc.db.insertInto('serials').values({ code: 'SN-SCAN-0001', product_id: product.id, work_order_id: wo.id, data: '{}' }).returning('id').executeTakeFirstOrThrow()).id
    positionKey = (await h.request('POST', '/api/position', { token: tokens.warehouse, body: { code: 'SCAN-A1' } })).body.detail._key
  })

  const resolve = (code: string, token = tokens.all!) => h.request('GET', `/api/code?code=${encodeURIComponent(code)}`, { token })

  test("the traveller's QR (what the print stack encodes as job_url) opens the job's work session", async () => {
    const admin = { userId: await adminKey(h), sessionId: null, scope: 'admin', tokenId: null }
    const printed = await resolveSubject(h.svc.db, admin, { job_key: wo.jobs[0]!, app_url: 'http://tablet.plant:8000' }, h.clock.now())
    const url = printed.base.presets.job_url!
    expect(url).toBe(`http://tablet.plant:8000/app/operator/job/${wo.jobs[0]}`)
    const res = await resolve(url, tokens.operator)
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ kind: 'job', _key: wo.jobs[0], code: 'WO-SCAN-1/1', route: `/app/operator/job/${wo.jobs[0]}` })
    // The printed job code opens the same job; production sees it in its work order's job list.
    expect((await resolve(printed.base.presets.job!, tokens.operator)).body.detail._key).toBe(wo.jobs[0])
    expect((await resolve(url, tokens.production)).body.detail.route).toBe(`/app/production/workorder/${wo.id}/job-list`)
  })

  test('each kind by its code, with the screen of the first area the user has', async () => {
    const cases: [string, string, string, string, string?][] = [
      ['WO-SCAN-1', 'work_order', wo.id, `/app/production/workorder/${wo.id}`],
      ['WO-SCAN-1/2', 'job', ownJob, `/app/operator/job/${ownJob}`, 'operator'],
      ['SN-SCAN-0001', 'serial', serialKey, `/app/traceability/serials/${serialKey}`],
      ['scan-a1', 'position', positionKey, `/app/warehouse/positions/${positionKey}`],
      ['  Scan-Pump ', 'product', productKey, `/app/library/product/${productKey}`],
    ]
    for (const [code, kind, key, route, scope] of cases) {
      const res = await resolve(code, scope ? tokens[scope] : undefined)
      expect(res.status, code).toBe(200)
      expect(res.body.detail).toMatchObject({ kind, _key: key, route })
    }
    expect((await resolve('scan-a1')).body.detail.code).toBe('SCAN-A1')
    expect((await resolve('WO-SCAN-1', tokens.traceability)).body.detail.route).toBe(`/app/traceability/workorder/${wo.id}`)
    // tRPC answers the same use case.
    const viaTrpc = await trpcCall(h, 'codes.resolve', 'query', { code: 'SN-SCAN-0001' }, { token: tokens.traceability })
    expect(viaTrpc.body.result.data).toMatchObject({ kind: 'serial', _key: serialKey })
  })

  test('within the scopes: a code the user may not open is 403 CODE_NOT_ALLOWED with its kind; read only, nothing written', async () => {
    const before = await tableCounts(h)
    const refusals: [string, string, string][] = [
      ['SN-SCAN-0001', 'operator', 'serial'],
      ['SCAN-A1', 'library', 'position'],
      ['SCAN-PUMP', 'warehouse', 'product'],
      ['WO-SCAN-1', 'operator', 'work_order'],
      [`https://mes.example.com/app/operator/job/${wo.jobs[0]}`, 'quality', 'job'],
    ]
    for (const [code, scope, kind] of refusals) {
      const res = await resolve(code, tokens[scope])
      expect(res.status, `${code} as ${scope}`).toBe(403)
      expect(res.body.detail).toMatchObject({ code: 'CODE_NOT_ALLOWED', kind })
    }
    expect(await tableCounts(h)).toEqual(before)
  })

  test('unknown codes are 404 CODE_NOT_FOUND naming the code; bad input 400; signed out 401', async () => {
    for (const code of ['NOPE-123', 'WO-SCAN-1/9', 'WO-SCAN-2', 'http://x/app/operator/job/00000000-0000-4000-8000-000000000000', 'http://x/app/operator/job/zzzz']) {
      const res = await resolve(code)
      expect(res.status, code).toBe(404)
      expect(res.body.detail.code).toBe('CODE_NOT_FOUND')
    }
    expect((await resolve('NOPE-123')).body.detail.message).toBe('code not found: NOPE-123')
    expect((await resolve('   ')).status).toBe(400)
    expect((await resolve('x'.repeat(2001))).status).toBe(400)
    expect((await h.request('GET', '/api/code?code=WO-SCAN-1')).status).toBe(401)
  })
})
