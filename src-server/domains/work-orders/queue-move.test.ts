import { beforeAll, describe, expect, test } from 'bun:test'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { makeProduct } from './test-fixtures'

describe('site queue: one work order to an absolute place (POST queue/move, workOrders.moveInQueue)', () => {
  const h = useHarness()
  let prod: { key: string; token: string }
  let productKey: string

  const newWo = async () => {
    const res = await h.request('POST', '/api/work-order', { token: prod.token, body: { product_key: productKey, quantity: 1 } })
    expect(res.status).toBe(201)
    return res.body.detail._key as string
  }
  const queue = async () => ((await h.request('GET', '/api/queue/site/0', { token: prod.token })).body.detail.work_orders as { _key: string }[]).map((w) => w._key)
  const move = (body: unknown, token = prod.token) => h.request('POST', '/api/queue/move', { token, body })

  beforeAll(async () => {
    prod = await userWithScope(h, 'planner', 'production')
    productKey = (await makeProduct(h.svc.db, { code: 'QM-1', phases: ['Montaggio'] })).key
  })

  test('moves to a place counted on the whole queue, to the top and to the end, with an event on the work order', async () => {
    const keys: string[] = []
    for (let i = 0; i < 7; i++) keys.push(await newWo())
    const [a, b, c, d, e, f, g] = keys as [string, string, string, string, string, string, string]

    const res = await move({ work_order_key: f, position: 2 })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ _key: f, from: 6, to: 2, total: 7 })
    expect(await queue()).toEqual([a, f, b, c, d, e, g])

    expect((await move({ work_order_key: a, position: 'last' })).body.detail).toMatchObject({ from: 1, to: 7 })
    expect(await queue()).toEqual([f, b, c, d, e, g, a])
    expect((await move({ work_order_key: g, position: 1 })).body.detail).toMatchObject({ from: 6, to: 1 })
    expect(await queue()).toEqual([g, f, b, c, d, e, a])
    // Downwards: the others close the gap.
    await move({ work_order_key: f, position: 5 })
    expect(await queue()).toEqual([g, b, c, d, f, e, a])

    const events = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'WORK_ORDER_QUEUE_MOVED').orderBy('id').execute()
    expect(events).toHaveLength(4)
    expect(events[0]).toMatchObject({ subject_type: 'work_order', subject_key: f, user_id: prod.key })
    expect(events[0]!.data).toMatchObject({ position: { from: 6, to: 2 }, total: 7 })
    // The history of the work order tells it.
    const history = (await h.request('GET', `/api/work-order/${f}/history`, { token: prod.token })).body.detail
    expect(history[0]).toMatchObject({ event_type: 'WORK_ORDER_QUEUE_MOVED', data: { position: { from: 2, to: 5 } } })

    // Same place: answered, nothing written. tRPC does the same as REST.
    const same = await trpcCall(h, 'workOrders.moveInQueue', 'mutation', { work_order_key: g, position: 1 }, { token: prod.token })
    expect(same.status).toBe(200)
    expect(same.body.result.data).toEqual({ _key: g, from: 1, to: 1, total: 7 })
    expect(await h.svc.db.selectFrom('events').select('id').where('event_type', '=', 'WORK_ORDER_QUEUE_MOVED').execute()).toHaveLength(4)
    // The sequence numbers stay unique; a new work order still joins the end.
    const sequences = await h.svc.db.selectFrom('work_orders').select('sequence').where('archived_at', 'is', null).execute()
    expect(new Set(sequences.map((s) => s.sequence)).size).toBe(sequences.length)
    const last = await newWo()
    expect((await queue()).at(-1)).toBe(last)
  })

  test('refusals: bad input 400, unknown 404, archived 409, beyond the end 422 (never clamped); nothing written', async () => {
    const order = await queue()
    const [first] = order as [string]
    const archived = await newWo()
    await h.request('PATCH', `/api/work-order/${archived}`, { token: prod.token, body: { status: 'closed' } })
    expect((await h.request('POST', `/api/work-order/${archived}/archive`, { token: prod.token })).status).toBe(200)
    const before = await tableCounts(h)
    const cases: [unknown, number, string][] = [
      [{ work_order_key: first, position: 0 }, 400, 'INVALID_INPUT'],
      [{ work_order_key: first, position: 1.5 }, 400, 'INVALID_INPUT'],
      [{ work_order_key: first, position: 'first' }, 400, 'INVALID_INPUT'],
      [{ work_order_key: first }, 400, 'INVALID_INPUT'],
      [{ work_order_key: 'WO000001', position: 1 }, 400, 'INVALID_INPUT'],
      [{ work_order_key: MISSING_UUID, position: 1 }, 404, 'UNKNOWN_WORK_ORDER'],
      [{ work_order_key: archived, position: 1 }, 409, 'WORK_ORDER_ARCHIVED'],
      [{ work_order_key: first, position: order.length + 1 }, 422, 'QUEUE_POSITION_OUT_OF_RANGE'],
    ]
    for (const [body, status, code] of cases) {
      const res = await move(body)
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status, code })
    }
    expect((await move({ work_order_key: first, position: order.length + 1 })).body.detail.total).toBe(order.length)
    expect(await tableCounts(h)).toEqual(before)
    expect(await queue()).toEqual(order)
  })

  test('only production moves; other scopes are refused', async () => {
    const [first] = (await queue()) as [string]
    for (const scope of ['operator', 'quality', 'reporting']) {
      const user = await userWithScope(h, `qm.${scope}`, scope)
      expect((await move({ work_order_key: first, position: 2 }, user.token)).status).toBe(403)
    }
  })

  test('concurrent moves and saves never lose or duplicate a work order', async () => {
    const start = await queue()
    const reversed = [...start].reverse()
    const results = await Promise.all([
      move({ work_order_key: start[0], position: 'last' }),
      h.request('PUT', '/api/queue', { token: prod.token, body: { type: 's', site_key: '0', work_orders: reversed } }),
      move({ work_order_key: start.at(-1), position: 1 }),
      move({ work_order_key: start[2], position: 3 }),
    ])
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const final = await queue()
    expect([...final].sort()).toEqual([...start].sort())
    const sequences = await h.svc.db.selectFrom('work_orders').select('sequence').where('archived_at', 'is', null).execute()
    expect(new Set(sequences.map((s) => s.sequence)).size).toBe(sequences.length)
  })
})
