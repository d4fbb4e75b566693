import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import pg from 'pg'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { untilBlockedOnLock } from '../../test/wait'
import { makeProduct } from './test-fixtures'

describe('site queue (SPEC 3 queue save payload)', () => {
  const h = useHarness()
  let prod: { key: string; token: string }
  let productKey: string

  const newWo = async () => {
    const res = await h.request('POST', '/api/work-order', { token: prod.token, body: { product_key: productKey, quantity: 1 } })
    expect(res.status).toBe(201)
    return res.body.detail._key as string
  }
  const queue = async () => ((await h.request('GET', '/api/queue/site/0', { token: prod.token })).body.detail.work_orders as { _key: string }[]).map((w) => w._key)
  const save = (work_orders: unknown, extra: Record<string, unknown> = {}) =>
    h.request('PUT', '/api/queue', { token: prod.token, body: { type: 's', site_key: '0', work_orders, ...extra } })

  beforeAll(async () => {
    prod = await userWithScope(h, 'planner', 'production')
    productKey = (await makeProduct(h.svc.db, { code: 'Q-1', phases: ['Montaggio'] })).key
  })

  test('new work orders join the end; a save puts the listed ones first, the others follow in their previous order', async () => {
    const [a, b, c, d, e] = [await newWo(), await newWo(), await newWo(), await newWo(), await newWo()]
    const detail = (await h.request('GET', '/api/queue/site/0', { token: prod.token })).body.detail
    expect(detail).toMatchObject({ type: 's', site_key: '0' })
    expect(detail.work_orders[0]).toMatchObject({ _key: a, code: expect.stringMatching(/^WO\d{6}$/), product_code: 'Q-1', status: 'active', planned_qt: 1 })
    expect(await queue()).toEqual([a, b, c, d, e])

    const res = await save([d, b])
    expect(res.status).toBe(200)
    expect(res.body.detail.work_orders.map((w: { _key: string }) => w._key)).toEqual([d, b, a, c, e])
    expect(await queue()).toEqual([d, b, a, c, e])
    const [event] = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'SITE_QUEUE_SAVED').execute()
    expect(event).toMatchObject({ subject_type: 'queue', subject_key: 's:0', user_id: prod.key })
    expect(event!.data).toMatchObject({ work_orders: 5, listed: 2 })

    // The whole list, reversed; then the list view follows the same order.
    await save([e, c, a, b, d])
    expect(await queue()).toEqual([e, c, a, b, d])
    const list = (await h.request('GET', '/api/work-order', { token: prod.token })).body.detail.rows.map((w: { _key: string }) => w._key)
    expect(list).toEqual([e, c, a, b, d])
    // tRPC says the same.
    const viaTrpc = await trpcCall(h, 'workOrders.saveQueue', 'mutation', { type: 's', site_key: '0', work_orders: [a] }, { token: prod.token })
    expect(viaTrpc.status).toBe(200)
    expect(viaTrpc.body.result.data.work_orders.map((w: { _key: string }) => w._key)).toEqual([a, e, c, b, d])
    // A new one still joins the end.
    const f = await newWo()
    expect((await queue()).at(-1)).toBe(f)
  })

  test('payload validation: type, site_key, keys; refusals write nothing', async () => {
    const [a] = await queue()
    const before = await tableCounts(h)
    const cases: [unknown, number, string, string?][] = [
      [{ type: 'o', site_key: '0', work_orders: [a] }, 400, 'INVALID_INPUT', "type: type must be 's' (the site queue)"],
      [{ type: 's', site_key: '1', work_orders: [a] }, 400, 'INVALID_INPUT', "site_key: site_key must be '0'"],
      [{ type: 's', site_key: 0, work_orders: [a] }, 400, 'INVALID_INPUT'],
      [{ type: 's', site_key: '0' }, 400, 'INVALID_INPUT'],
      [{ type: 's', site_key: '0', work_orders: [a, a] }, 400, 'INVALID_INPUT', 'work_orders: work_orders: a key is repeated'],
      [{ type: 's', site_key: '0', work_orders: ['WO000001'] }, 400, 'INVALID_INPUT'],
      [{ type: 's', site_key: '0', work_orders: [a, MISSING_UUID] }, 400, 'UNKNOWN_WORK_ORDER', `unknown work order: ${MISSING_UUID}`],
    ]
    for (const [body, status, code, message] of cases) {
      const res = await h.request('PUT', '/api/queue', { token: prod.token, body })
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status, code })
      if (message) expect(res.body.detail.message).toBe(message)
    }
    expect(await tableCounts(h)).toEqual(before)
    expect((await h.request('GET', '/api/queue/site/1', { token: prod.token })).status).toBe(404)
    // An empty list changes nothing but is a valid save.
    const order = await queue()
    expect((await save([])).status).toBe(200)
    expect(await queue()).toEqual(order)
  })

  test('archived work orders leave the queue; listing one is ignored, restoring one puts it at the end', async () => {
    const order = await queue()
    const victim = order[1]!
    await h.request('PATCH', `/api/work-order/${victim}`, { token: prod.token, body: { status: 'closed' } })
    await h.request('POST', `/api/work-order/${victim}/archive`, { token: prod.token })
    expect(await queue()).toEqual(order.filter((k) => k !== victim))
    const res = await save([victim, order[2]])
    expect(res.status).toBe(200)
    expect(await queue()).toEqual([order[2]!, ...order.filter((k) => k !== victim && k !== order[2])])
    await h.request('POST', `/api/work-order/${victim}/restore`, { token: prod.token })
    expect((await queue()).at(-1)).toBe(victim)
  })

  test('concurrent saves: the last writer wins and no work order is lost', async () => {
    const start = await queue()
    const reversed = [...start].reverse()
    const rotated = [...start.slice(2), ...start.slice(0, 2)]
    const [r1, r2] = await Promise.all([save(reversed), save(rotated)])
    expect([r1.status, r2.status]).toEqual([200, 200])
    const final = await queue()
    expect([...final].sort()).toEqual([...start].sort())
    // One of the two orders, whole: saves never interleave.
    expect([JSON.stringify(reversed), JSON.stringify(rotated)]).toContain(JSON.stringify(final))
    const sequences = await h.svc.db.selectFrom('work_orders').select('sequence').where('archived_at', 'is', null).execute()
    expect(new Set(sequences.map((s) => s.sequence)).size).toBe(sequences.length)
  })

  test('PostgreSQL, two connections: a save waiting behind another and a work order created meanwhile keep everything', async () => {
    if (h.svc.dbKind !== 'postgres') return // PGlite has one connection: saves are serial by construction.
    const start = await queue()
    // Connection 1 holds the queue lock, as a long save would.
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.pathname = `/${(await sql<{ db: string }>`select current_database() as db`.execute(h.svc.db)).rows[0]!.db}`
    const holder = new pg.Client({ connectionString: url.toString() })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query(`select pg_advisory_xact_lock(hashtext('mes.site_queue'))`)
      // Connection 2: a save of the reversed queue (without the work order about to be created) waits.
      const reversed = [...start].reverse()
      let settled = false
      const waiting = save(reversed).then((r) => {
        settled = true
        return r
      })
      await untilBlockedOnLock(h.svc.db, 1, 'the save waiting behind the held queue lock')
      expect(settled).toBe(false)
      // Meanwhile a work order is created (no queue lock needed: it takes the next sequence).
      const created = await newWo()
      // Connection 1 saves its own order inside the lock, moving the first one last.
      const ids = (await holder.query(`select id, sequence from work_orders where archived_at is null order by sequence`)).rows as { id: string; sequence: string }[]
      const seqs = ids.map((r) => r.sequence)
      const mine = [...ids.slice(1), ids[0]!].map((r) => r.id)
      for (const [i, id] of mine.entries()) await holder.query('update work_orders set sequence = $1 where id = $2', [seqs[i], id])
      await holder.query('commit')
      const res = await waiting
      expect(res.status).toBe(200)
      // Last writer (the waiting save) wins; the new work order follows the listed ones.
      expect(await queue()).toEqual([...reversed, created])
    } finally {
      await holder.query('rollback').catch(() => {})
      await holder.end()
    }
  })
})
