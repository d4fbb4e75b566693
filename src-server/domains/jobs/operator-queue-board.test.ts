import { beforeAll, describe, expect, test } from 'bun:test'
import { userWithScope, useHarness } from '../../test/harness'
import { makeProduct, makeUser, makeWorkOrder, type MadeWorkOrder, setSettings } from './test-fixtures'

/**
 * What the "operator queues" screen does, as the server sees it: reorder an independent queue,
 * turn independent ordering off (the queue is the site order again, with the setting still on),
 * move a job to another operator's independent queue and give it a place there.
 */
describe('operator queues board: reorder, back to the site order, reassign into an independent queue', () => {
  const h = useHarness()
  let production: string
  let anna: string
  let bruno: string
  let wos: MadeWorkOrder[]

  const queue = async (key: string) => {
    const res = await h.request('GET', `/api/job-assignment?user_key=${key}`, { token: production })
    expect(res.status).toBe(200)
    return res.body.detail.assigned_jobs_by_operator[0] as { operator: { independent: boolean }; jobs: { _key: string }[] }
  }
  const keys = async (key: string) => (await queue(key)).jobs.map((j) => j._key)
  const save = (key: string, body: unknown) => h.request('PUT', `/api/queue/operator/${key}`, { token: production, body })
  const job = (i: number) => wos[i]!.jobs[0]!

  beforeAll(async () => {
    production = (await userWithScope(h, 'planner', 'production')).token
    anna = await makeUser(h.svc.db, { username: 'anna' })
    bruno = await makeUser(h.svc.db, { username: 'bruno' })
    await setSettings(h.svc.db, { independent_queue_reordering: true })
    const product = await makeProduct(h.svc.db, { phases: [{ name: 'Saldatura' }] })
    wos = []
    for (const code of ['WQ-1', 'WQ-2', 'WQ-3', 'WQ-4']) wos.push(await makeWorkOrder(h.svc.db, product, { code, quantity: 3, operator: anna }))
  }, 60_000)

  test('turning independent ordering off, with the setting on, puts the queue back in site order', async () => {
    expect((await save(anna, { independent: true })).status).toBe(200)
    expect((await save(anna, { jobs: [job(3), job(0)] })).status).toBe(200)
    expect(await keys(anna)).toEqual([job(3), job(0), job(1), job(2)])
    const off = await save(anna, { independent: false })
    expect(off.status).toBe(200)
    expect(off.body.detail.operator.independent).toBe(false)
    expect(off.body.detail.jobs.map((j: { _key: string }) => j._key)).toEqual([job(0), job(1), job(2), job(3)])
    // On again: the old own order is gone, the queue starts from the site order.
    expect((await save(anna, { independent: true })).status).toBe(200)
    expect(await keys(anna)).toEqual([job(0), job(1), job(2), job(3)])
  })

  test('a job moved to another independent queue joins its end, then takes the place it is given there', async () => {
    expect((await save(bruno, { independent: true })).status).toBe(200)
    // Jobs without a place of their own follow the site order, after the placed ones.
    expect((await h.request('POST', '/api/job/assign', { token: production, body: { job_keys: [job(2)], operator_key: bruno } })).status).toBe(200)
    expect((await h.request('POST', '/api/job/assign', { token: production, body: { job_keys: [job(0)], operator_key: bruno } })).status).toBe(200)
    expect(await keys(bruno)).toEqual([job(0), job(2)])
    expect((await save(bruno, { jobs: [job(2), job(0)] })).status).toBe(200)
    expect(await keys(bruno)).toEqual([job(2), job(0)])
    // A third one arrives: at the end, although it comes before WQ-3 in the site queue.
    expect((await h.request('POST', '/api/job/assign', { token: production, body: { job_keys: [job(1)], operator_key: bruno } })).status).toBe(200)
    expect(await keys(bruno)).toEqual([job(2), job(0), job(1)])
    // The screen then gives it the place it was dropped at.
    expect((await save(bruno, { jobs: [job(1), job(2), job(0)] })).status).toBe(200)
    expect(await keys(bruno)).toEqual([job(1), job(2), job(0)])
    expect(await keys(anna)).toEqual([job(3)])
  })
})
