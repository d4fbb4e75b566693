import { beforeAll, describe, expect, test } from 'bun:test'
import { MISSING_UUID, quickUser, tableCounts } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { makeSetup } from '../execution/test-fixtures'

/** Missions, movement lists and a work order's material through REST (SPEC 7 GET movement-list). */
const h = useHarness()
const tokens: Record<string, string> = {}
const users: Record<string, string> = {}
const pos: Record<string, string> = {}
let component: string
let componentCode: string
let workOrder: string

const call = (method: string, path: string, body?: unknown, scope = 'warehouse') => h.request(method, `/api${path}`, { token: tokens[scope], body })

beforeAll(async () => {
  for (const scope of ['warehouse', 'production', 'operator']) {
    const u = await quickUser(h, `rm-${scope}`, scope)
    tokens[scope] = u.token
    users[scope] = u.key
  }
  for (const code of ['RM-STORE', 'RM-LINE', 'RM-PROD']) {
    const res = await call('POST', '/position', { code })
    expect(res.status).toBe(201)
    pos[code] = res.body.detail._key
  }
  const settings = await h.request('PATCH', '/api/settings/warehouse', {
    token: (await quickUser(h, 'rm-admin', 'admin')).token,
    body: { inventory_management: true, default_consumption_position_key: pos['RM-LINE'], default_production_position_key: pos['RM-PROD'] },
  })
  expect(settings.status).toBe(200)
  componentCode = `RM-COMP-${Date.now().toString(36)}`
  const s = await makeSetup(h.svc.db, { phases: [{ bom: [{ quantity: 2, quantity_per: 'item', code: componentCode }] }], quantity: 3, operator: null })
  workOrder = s.workOrderKey
  component = (await h.svc.db.selectFrom('products').select('id').where('code', '=', componentCode).executeTakeFirstOrThrow()).id
  expect((await call('POST', '/movement', { type: 'load', product_key: component, to_position_key: pos['RM-STORE'], quantity: 10 })).status).toBe(201)
})

describe('REST missions and movement lists', () => {
  test('a warehouse user makes a mission to the line, carries it out by scanning, lists it; GET movement-list with params', async () => {
    const made = await call('POST', '/mission/to-line', { work_order_key: workOrder, assignee_key: users.warehouse })
    expect(made.status).toBe(201)
    const mission = made.body.detail
    expect(mission.lines).toHaveLength(1)
    expect(mission.lines[0].movement).toMatchObject({ product_code: componentCode, planned_quantity: 6, from_position_code: 'RM-STORE', to_position_code: 'RM-LINE' })

    const list = await call('POST', '/movement-list', { kind: 'work_order', work_order_key: workOrder })
    expect(list.status).toBe(201)
    const got = await call('GET', `/movement-list?kind=work_order&work_order_key=${workOrder}`)
    expect(got.status).toBe(200)
    expect(got.body.detail.rows.map((r: { _key: string }) => r._key)).toEqual([list.body.detail._key])
    expect((await call('GET', `/movement-list/${list.body.detail._key}`)).body.detail.movements).toHaveLength(1)

    const wrong = await call('POST', `/mission/${mission._key}/scan`, { position_code: 'RM-LINE', item_code: componentCode })
    expect(wrong.status).toBe(422)
    expect(wrong.body.detail).toMatchObject({ code: 'MISSION_SCAN_POSITION', expected_positions: ['RM-STORE'] })
    const scanned = await call('POST', `/mission/${mission._key}/scan`, { position_code: 'RM-STORE', item_code: componentCode })
    expect(scanned.status).toBe(200)
    expect(scanned.body.detail.mission).toMatchObject({ status: 'done', lines_done: 1 })

    const mine = await call('GET', `/mission?status=done&assignee_key=${users.warehouse}`)
    expect(mine.body.detail.rows.map((r: { _key: string }) => r._key)).toContain(mission._key)
    const material = await call('GET', `/work-order/${workOrder}/material`, undefined, 'production')
    expect(material.status).toBe(200)
    expect(material.body.detail.lines[0]).toMatchObject({ item_code: componentCode, required: 6, available_at_line: 6, consumed: 0 })
  })

  test('bad input: 4xx with a clear code, nothing written', async () => {
    const before = await tableCounts(h)
    const line = { product_key: component, from_position_key: pos['RM-STORE'], to_position_key: pos['RM-LINE'], quantity: 1 }
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/mission', { lines: [{ ...line, quantity: -1 }] }, 400, 'INVALID_INPUT'],
      ['POST', '/mission', { lines: [{ ...line, quantity: 'NaN' }] }, 400, 'INVALID_INPUT'],
      ['POST', '/mission', { lines: [{ ...line, quantity: 0 }] }, 400, 'INVALID_INPUT'],
      ['POST', '/mission', { lines: [line], colour: 'red' }, 400, 'INVALID_INPUT'],
      ['POST', '/mission', { lines: [] }, 422, 'MISSION_EMPTY'],
      ['POST', '/mission', { lines: [{ ...line, to_position_key: MISSING_UUID }] }, 422, 'UNKNOWN_POSITION'],
      ['POST', '/mission', { lines: [{ ...line, to_position_key: pos['RM-STORE'] }] }, 400, 'MOVEMENT_POSITIONS_INVALID'],
      ['POST', '/mission', { lines: [line], assignee_key: users.operator }, 422, 'MISSION_ASSIGNEE_NOT_WAREHOUSE'],
      ['POST', '/mission/to-line', { work_order_key: MISSING_UUID }, 422, 'NOT_FOUND'],
      ['POST', '/mission/to-line', { work_order_key: 'nope' }, 400, 'INVALID_INPUT'],
      ['POST', '/mission/to-line', { work_order_key: workOrder, to_position_key: MISSING_UUID }, 422, 'UNKNOWN_POSITION'],
      ['POST', '/mission/put-away', { to_position_key: pos['RM-STORE'], product_key: component, quantity: -3 }, 400, 'INVALID_INPUT'],
      ['POST', `/mission/${MISSING_UUID}/scan`, { position_code: 'RM-STORE', item_code: 'X' }, 404, 'NOT_FOUND'],
      ['POST', `/mission/${MISSING_UUID}/scan`, { position_code: 'RM\u0000', item_code: 'X' }, 400, 'INVALID_INPUT'],
      ['POST', '/movement-list', { kind: 'week' }, 400, 'INVALID_INPUT'],
      ['POST', '/movement-list', { kind: 'day', day: '2026/02/30' }, 400, 'INVALID_INPUT'],
      ['POST', '/movement-list', { kind: 'day' }, 400, 'INVALID_INPUT'],
      ['GET', '/movement-list?page=0', undefined, 400, 'INVALID_INPUT'],
      ['GET', '/mission?status=lost', undefined, 400, 'INVALID_INPUT'],
      ['GET', `/mission/${MISSING_UUID}`, undefined, 404, 'NOT_FOUND'],
      ['GET', `/work-order/${MISSING_UUID}/material`, undefined, 404, 'NOT_FOUND'],
      ['POST', `/movement-list/movement/${MISSING_UUID}/confirm`, undefined, 404, 'NOT_FOUND'],
    ]
    for (const [method, path, body, status, code] of cases) {
      const res = await call(method, path, body)
      expect({ case: `${method} ${path} ${JSON.stringify(body)}`, status: res.status, code: res.body?.detail?.code }).toEqual({
        case: `${method} ${path} ${JSON.stringify(body)}`,
        status,
        code,
      })
      expect(typeof res.body.detail.message).toBe('string')
    }
    expect(await tableCounts(h)).toEqual(before)
  })

  test('permissions: operators cannot see or make missions; production reads them but does not make them', async () => {
    expect((await call('GET', '/mission', undefined, 'operator')).status).toBe(403)
    expect((await call('GET', '/movement-list', undefined, 'operator')).status).toBe(403)
    expect((await call('GET', '/mission', undefined, 'production')).status).toBe(200)
    expect((await call('POST', '/mission/to-line', { work_order_key: workOrder }, 'production')).status).toBe(403)
  })

  test('choices for the forms: work orders by code (3 characters at least), warehouse users to assign', async () => {
    const code = (await h.svc.db.selectFrom('work_orders').select('code').where('id', '=', workOrder).executeTakeFirstOrThrow()).code
    const found = await call('GET', `/mission/work-orders?search=${encodeURIComponent(code.toLowerCase())}`)
    expect(found.status).toBe(200)
    expect(found.body.detail.map((w: { _key: string }) => w._key)).toEqual([workOrder])
    expect((await call('GET', '/mission/work-orders?search=wo')).body.detail).toEqual([])
    const people = await call('GET', '/mission/assignees')
    expect(people.body.detail.map((u: { _key: string }) => u._key)).toContain(users.warehouse)
    expect(people.body.detail.map((u: { _key: string }) => u._key)).not.toContain(users.operator)
  })

  test('OpenAPI documents every path', async () => {
    const doc = await h.request('GET', '/api/openapi.json')
    const paths = Object.keys(doc.body.paths)
    for (const p of ['/mission', '/mission/{key}', '/mission/to-line', '/mission/put-away', '/mission/{key}/scan', '/mission/{key}/assign', '/mission/{key}/cancel', '/movement-list', '/movement-list/{key}', '/work-order/{key}/material', '/mission/work-orders', '/mission/assignees', '/movement-list/movement/{key}/confirm']) {
      expect(paths).toContain(p)
    }
  })
})
