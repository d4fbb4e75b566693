import { beforeAll, describe, expect, test } from 'bun:test'
import { QUEUE_PAGE_DEFAULT } from '../../../src/domains/jobs/schemas'
import { appCode, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { getJobAssignment } from './operator-queues'
import { makeProduct, makeWorkOrder, setSettings } from './test-fixtures'

/**
 * GET job-assignment a page at a time (issue 23: the operator's first screen must not grow with
 * the queue): 60 work orders of 3 phases; the operator holds phases 1 and 2 (120 jobs), phase 3
 * is unassigned (60 jobs).
 */
describe('operator queue pages (job-assignment limit/offset, unassigned_limit/unassigned_offset)', () => {
  const h = useHarness()
  let operator: { key: string; token: string }
  let production: string
  let siteOrder: string[] = []
  let unassignedOrder: string[] = []

  beforeAll(async () => {
    production = (await userWithScope(h, 'planner.pages', 'production')).token
    operator = await userWithScope(h, 'op.pages', 'operator')
    const product = await makeProduct(h.svc.db, { phases: [{ name: 'Taglio' }, { name: 'Piega' }, { name: 'Collaudo' }] })
    for (let i = 0; i < 60; i++) {
      const wo = await makeWorkOrder(h.svc.db, product, { code: `PG-${String(i).padStart(3, '0')}`, quantity: 2, operator: operator.key })
      await h.svc.db.updateTable('jobs').set({ operator_id: null }).where('id', '=', wo.jobs[2]!).execute()
      siteOrder.push(wo.jobs[0]!, wo.jobs[1]!)
      unassignedOrder.push(wo.jobs[2]!)
    }
    await setSettings(h.svc.db, { allow_unassigned_jobs: true })
  }, 120_000)

  const get = async (query: string, token = operator.token) => {
    const res = await h.request('GET', `/api/job-assignment?user_key=${operator.key}${query}`, { token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.detail
  }
  const keys = (rows: { _key: string }[]) => rows.map((r) => r._key)

  test('the first screen is bounded: 50 of each list, with more', async () => {
    const first = await get('')
    const mine = first.assigned_jobs_by_operator[0]
    expect(mine.jobs).toHaveLength(QUEUE_PAGE_DEFAULT)
    expect(mine.more).toBe(true)
    expect(keys(mine.jobs)).toEqual(siteOrder.slice(0, QUEUE_PAGE_DEFAULT))
    expect(keys(first.unassigned_jobs)).toEqual(unassignedOrder.slice(0, QUEUE_PAGE_DEFAULT))
    expect(first.unassigned_more).toBe(true)
    // The service as the bench calls it (no paging asked): the same bounded answer.
    const svc = await getJobAssignment(h.svc, { userId: operator.key, sessionId: null, scope: 'operator', tokenId: null } as never, { user_key: operator.key })
    expect(svc.assigned_jobs_by_operator[0]!.jobs).toHaveLength(QUEUE_PAGE_DEFAULT)
    expect(svc.unassigned_jobs).toHaveLength(QUEUE_PAGE_DEFAULT)
  })

  test('the next pages walk the whole queue in order, each job once; the last says no more', async () => {
    const walked: string[] = []
    for (let offset = 0, more = true; more; offset += 50) {
      const page = (await get(`&offset=${offset}&unassigned_limit=0`)).assigned_jobs_by_operator[0]
      walked.push(...keys(page.jobs))
      more = page.more
      expect(walked.length).toBeLessThanOrEqual(siteOrder.length)
    }
    expect(walked).toEqual(siteOrder)
    // unassigned_limit=0: the other list is left out, its flag still tells.
    const onlyQueue = await get('&offset=50&unassigned_limit=0')
    expect(onlyQueue.unassigned_jobs).toEqual([])
    expect(onlyQueue.unassigned_more).toBe(true)
    // A page past the end is empty, not an error.
    const past = (await get('&offset=500&unassigned_limit=0')).assigned_jobs_by_operator[0]
    expect({ jobs: past.jobs, more: past.more }).toEqual({ jobs: [], more: false })
  })

  test('the unassigned jobs page on their own (limit=0 leaves the queue out)', async () => {
    const second = await get(`&limit=0&unassigned_offset=${QUEUE_PAGE_DEFAULT}`)
    expect(second.assigned_jobs_by_operator[0].jobs).toEqual([])
    expect(second.assigned_jobs_by_operator[0].more).toBe(true)
    expect(keys(second.unassigned_jobs)).toEqual(unassignedOrder.slice(QUEUE_PAGE_DEFAULT))
    expect(second.unassigned_more).toBe(false)
    const small = await get('&limit=7&unassigned_limit=3&unassigned_offset=57')
    expect(keys(small.assigned_jobs_by_operator[0].jobs)).toEqual(siteOrder.slice(0, 7))
    expect(keys(small.unassigned_jobs)).toEqual(unassignedOrder.slice(57))
    expect(small.unassigned_more).toBe(false)
  })

  test("an independent queue keeps the operator's own order across pages", async () => {
    await setSettings(h.svc.db, { independent_queue_reordering: true })
    try {
      const own = [...siteOrder].reverse().slice(0, 70)
      const saved = await h.request('PUT', `/api/queue/operator/${operator.key}`, { token: production, body: { independent: true, jobs: own } })
      expect(saved.status, JSON.stringify(saved.body)).toBe(200)
      const expected = [...own, ...siteOrder.filter((k) => !own.includes(k))]
      const walked: string[] = []
      for (let offset = 0; offset < 200; offset += 40) {
        walked.push(...keys((await get(`&limit=40&offset=${offset}`)).assigned_jobs_by_operator[0].jobs))
      }
      expect(walked).toEqual(expected)
      // Production's board (every operator) pages the same way.
      const board = await get(`&limit=40&offset=40`, production)
      expect(keys(board.assigned_jobs_by_operator[0].jobs)).toEqual(expected.slice(40, 80))
      const all = await h.request('GET', '/api/job-assignment?limit=40&offset=40', { token: production })
      const mine = all.body.detail.assigned_jobs_by_operator.find((q: { operator: { _key: string } }) => q.operator._key === operator.key)
      expect(keys(mine.jobs)).toEqual(expected.slice(40, 80))
      expect(mine.more).toBe(true)
    } finally {
      await h.request('PUT', `/api/queue/operator/${operator.key}`, { token: production, body: { independent: false } })
      await setSettings(h.svc.db, { independent_queue_reordering: false })
    }
  })

  test('bad paging is 400 in the error envelope, naming the parameter (REST and tRPC)', async () => {
    for (const [query, path] of [
      ['limit=501', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=2.5', 'limit'],
      ['offset=abc', 'offset'],
      ['offset=100001', 'offset'],
      ['unassigned_limit=1000', 'unassigned_limit'],
      ['unassigned_offset=-5', 'unassigned_offset'],
    ] as const) {
      const res = await h.request('GET', `/api/job-assignment?user_key=${operator.key}&${query}`, { token: operator.token })
      expect(res.status, query).toBe(400)
      expect(appCode(res.body), query).toBe('INVALID_INPUT')
      expect(JSON.stringify(res.body), query).toContain(path)
    }
    const trpc = await trpcCall(h, 'jobs.assignment', 'query', { user_key: operator.key, limit: 0, unassigned_offset: 50 }, { token: operator.token })
    expect(trpc.status).toBe(200)
    const bad = await trpcCall(h, 'jobs.assignment', 'query', { user_key: operator.key, offset: -1 }, { token: operator.token })
    expect(bad.status).toBe(400)
  })
})
