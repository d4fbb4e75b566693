import { beforeAll, describe, expect, test } from 'bun:test'
import { SITE_QUEUE_PAGE_DEFAULT } from '../../../src/domains/work-orders/schemas'
import { appCode, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { makeProduct, makeWorkOrder } from '../jobs/test-fixtures'
import { getSiteQueue } from './site-queue'

/**
 * GET queue/site/{site_key} a page at a time (issue 23: the answer must not grow with the
 * backlog): 230 work orders in the queue, 10 archived ones out of it, keyset-paged.
 */
describe('site queue pages (GET queue/site/0 limit and cursor)', () => {
  const h = useHarness()
  let prod: { key: string; token: string }
  let inQueue: string[] = []

  beforeAll(async () => {
    prod = await userWithScope(h, 'planner.site', 'production')
    const product = await makeProduct(h.svc.db, { phases: [{ name: 'Montaggio' }] })
    for (let i = 0; i < 240; i++) {
      const wo = await makeWorkOrder(h.svc.db, product, { code: `SQ-${String(i).padStart(3, '0')}`, quantity: 1, archived: i % 24 === 5 })
      if (i % 24 !== 5) inQueue.push(wo.id)
    }
    // Equal sequence numbers (as a move may leave none, but a restore could): the key breaks the tie.
    await h.svc.db.updateTable('work_orders').set({ sequence: 1_000_000 }).where('id', 'in', inQueue.slice(100, 104)).execute()
    const tied = inQueue.splice(100, 4).sort()
    inQueue.push(...tied)
  }, 120_000)

  const page = async (query = '') => {
    const res = await h.request('GET', `/api/queue/site/0${query}`, { token: prod.token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.detail as { type: string; site_key: string; work_orders: { _key: string; sequence: number }[]; next_cursor: string | null }
  }

  test('the first page is bounded (100 by default) and says where the next starts', async () => {
    const first = await page()
    expect(first.type).toBe('s')
    expect(first.site_key).toBe('0')
    expect(first.work_orders).toHaveLength(SITE_QUEUE_PAGE_DEFAULT)
    expect(first.work_orders.map((w) => w._key)).toEqual(inQueue.slice(0, SITE_QUEUE_PAGE_DEFAULT))
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    // The service as the bench calls it.
    expect((await getSiteQueue(h.svc)).work_orders).toHaveLength(SITE_QUEUE_PAGE_DEFAULT)
  })

  test('walking the cursors gives the whole queue in order, each work order once, archived ones left out', async () => {
    for (const limit of [1000, 37, 7]) {
      const walked: string[] = []
      let cursor: string | null = null
      do {
        const p = await page(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        expect(p.work_orders.length).toBeLessThanOrEqual(limit)
        walked.push(...p.work_orders.map((w) => w._key))
        cursor = p.next_cursor
      } while (cursor)
      expect(walked).toEqual(inQueue)
    }
    // Exactly a page's worth: the last full page already says nothing follows.
    const whole = await page(`?limit=${inQueue.length}`)
    expect(whole.next_cursor).toBeNull()
  })

  test('a move between pages shows on the next read: the cursor is a place, not a snapshot', async () => {
    const first = await page('?limit=10')
    const moved = inQueue[50]!
    const res = await h.request('POST', '/api/queue/move', { token: prod.token, body: { work_order_key: moved, position: 1 } })
    expect(res.status).toBe(200)
    const next = await page(`?limit=10&cursor=${first.next_cursor}`)
    // Not repeated on page 2; page 1 read again starts with it.
    expect(next.work_orders.map((w) => w._key)).not.toContain(moved)
    expect((await page('?limit=10')).work_orders[0]!._key).toBe(moved)
  })

  test('bad paging is 400 in the error envelope; other sites stay 404 (REST and tRPC)', async () => {
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=not%20a%20cursor', 'cursor'],
      ['cursor=abc', 'cursor'],
      [`cursor=${Buffer.from(JSON.stringify([1, 'x'])).toString('base64url')}`, 'cursor'],
    ] as const) {
      const res = await h.request('GET', `/api/queue/site/0?${query}`, { token: prod.token })
      expect(res.status, query).toBe(400)
      expect(appCode(res.body), query).toBe('INVALID_INPUT')
      expect(JSON.stringify(res.body), query).toContain(path)
    }
    expect((await h.request('GET', '/api/queue/site/1?limit=5', { token: prod.token })).status).toBe(404)
    const ok = await trpcCall(h, 'workOrders.queue', 'query', { site_key: '0', limit: 3 }, { token: prod.token })
    expect(ok.status).toBe(200)
    expect(ok.body.result.data.work_orders).toHaveLength(3)
    expect((await trpcCall(h, 'workOrders.queue', 'query', { site_key: '0', limit: 5000 }, { token: prod.token })).status).toBe(400)
  })
})
