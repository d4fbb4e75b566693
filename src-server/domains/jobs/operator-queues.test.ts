import { beforeAll, describe, expect, test } from 'bun:test'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { eventsOf, jobRow, makeProduct, makeUser, makeWorkOrder, type MadeWorkOrder, setJobState, setSettings } from './test-fixtures'

describe('operator queues (job-assignment, queue/operator)', () => {
  const h = useHarness()
  let production: string
  let operator: { key: string; token: string }
  let colleague: string
  let wos: MadeWorkOrder[]

  beforeAll(async () => {
    production = (await userWithScope(h, 'planner', 'production')).token
    operator = await userWithScope(h, 'op.queue', 'operator')
    colleague = await makeUser(h.svc.db, { username: 'collega' })
    const product = await makeProduct(h.svc.db, { phases: [{ name: 'Montaggio' }, { name: 'Collaudo' }] })
    // Site queue: WO-1, WO-2, WO-3. The operator has phase 1 and 2 of WO-1, phase 1 of WO-2 and WO-3.
    wos = []
    for (const code of ['WO-1', 'WO-2', 'WO-3']) wos.push(await makeWorkOrder(h.svc.db, product, { code, quantity: 5, operator: operator.key }))
    await h.svc.db.updateTable('jobs').set({ operator_id: null }).where('id', 'in', [wos[1]!.jobs[1]!, wos[2]!.jobs[1]!]).execute()
    await h.svc.db.updateTable('jobs').set({ operator_id: colleague }).where('id', '=', wos[2]!.jobs[1]!).execute()
    await setJobState(h.svc.db, wos[2]!.jobs[0]!, { status: 'closed', completed: 5 })
  }, 60_000)

  const assignment = async (query = '', token = production) => {
    const res = await h.request('GET', `/api/job-assignment${query}`, { token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.detail
  }
  const queueOf = (detail: any, key: string) => detail.assigned_jobs_by_operator.find((q: any) => q.operator._key === key)
  const save = (key: string, body: unknown, token = production) => h.request('PUT', `/api/queue/operator/${key}`, { token, body })

  test('each operator gets their open jobs in site order; the unassigned ones come apart', async () => {
    const detail = await assignment()
    const mine = queueOf(detail, operator.key)
    const [w1, w2] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    // WO-3's phase 1 job is closed: not in the queue.
    expect(mine.jobs.map((j: any) => j._key)).toEqual([w1.jobs[0], w1.jobs[1], w2.jobs[0]])
    expect(mine.operator).toMatchObject({ username: 'op.queue', independent: false })
    expect(mine.more).toBe(false)
    expect(queueOf(detail, colleague).jobs.map((j: any) => j._key)).toEqual([wos[2]!.jobs[1]])
    expect(detail.unassigned_jobs.map((j: any) => j._key)).toEqual([w2.jobs[1]])
    // user_key narrows to one operator.
    const one = await assignment(`?user_key=${colleague}`)
    expect(one.assigned_jobs_by_operator).toHaveLength(1)
    // Moving a work order in the site queue moves its jobs in every operator's queue.
    await h.svc.db.updateTable('work_orders').set({ sequence: 0 }).where('id', '=', w2.id).execute()
    expect(queueOf(await assignment(), operator.key).jobs.map((j: any) => j._key)).toEqual([w2.jobs[0], w1.jobs[0], w1.jobs[1]])
  })

  test('independent ordering needs the setting; reordering needs independent ordering', async () => {
    const before = await tableCounts(h)
    const off = await save(operator.key, { independent: true })
    expect(off.status).toBe(409)
    expect(off.body.detail).toEqual({ code: 'QUEUE_REORDERING_DISABLED', message: 'the settings do not allow independent queue reordering' })
    const [w1, w2] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    const notIndependent = await save(operator.key, { jobs: [w1.jobs[1]] })
    expect({ status: notIndependent.status, code: appCode(notIndependent.body) }).toEqual({ status: 409, code: 'QUEUE_NOT_INDEPENDENT' })
    expect(await tableCounts(h)).toEqual(before)

    await setSettings(h.svc.db, { independent_queue_reordering: true })
    const on = await save(operator.key, { independent: true })
    expect(on.status).toBe(200)
    expect(on.body.detail.operator.independent).toBe(true)
    // The current site order becomes the operator's own order.
    expect((await jobRow(h.svc.db, w2.jobs[0]!)).queue_position).toBe(1)
    expect((await jobRow(h.svc.db, w1.jobs[1]!)).queue_position).toBe(3)

    const reordered = await save(operator.key, { jobs: [w1.jobs[1], w2.jobs[0]] })
    expect(reordered.status).toBe(200)
    // Listed first, the others after in their order.
    expect(reordered.body.detail.jobs.map((j: any) => j._key)).toEqual([w1.jobs[1], w2.jobs[0], w1.jobs[0]])
    expect(queueOf(await assignment(), operator.key).jobs.map((j: any) => j._key)).toEqual([w1.jobs[1], w2.jobs[0], w1.jobs[0]])
    const events = await eventsOf(h.svc.db, 'OPERATOR_QUEUE_UPDATED')
    expect(events.map((e) => e.data)).toEqual([{ independent: { from: false, to: true } }, { jobs: [w1.jobs[1], w2.jobs[0]] }])
    expect(events[0]!.subject_key).toBe(operator.key)

    // A new job assigned to an independent operator goes to the end of their queue.
    const extra = await makeWorkOrder(h.svc.db, { id: w1.productId, phases: w1.phases }, { quantity: 1 })
    await h.svc.db.updateTable('work_orders').set({ sequence: -5 }).where('id', '=', extra.id).execute()
    expect((await h.request('POST', '/api/job/assign', { token: production, body: { job_keys: [extra.jobs[0]], operator_key: operator.key } })).status).toBe(200)
    expect(queueOf(await assignment(), operator.key).jobs.map((j: any) => j._key)).toEqual([w1.jobs[1], w2.jobs[0], w1.jobs[0], extra.jobs[0]])
    // The same order when only this operator's queue is read (its own query: the operator's screen).
    expect(queueOf(await assignment(`?user_key=${operator.key}`), operator.key).jobs.map((j: any) => j._key)).toEqual([w1.jobs[1], w2.jobs[0], w1.jobs[0], extra.jobs[0]])
  })

  test('the listed jobs must be open jobs of that operator, each once', async () => {
    const before = await tableCounts(h)
    const foreign = await save(operator.key, { jobs: [wos[2]!.jobs[1]] })
    expect(foreign.status).toBe(422)
    expect(foreign.body.detail).toMatchObject({ code: 'JOB_NOT_IN_QUEUE', job_key: wos[2]!.jobs[1] })
    const closed = await save(operator.key, { jobs: [wos[2]!.jobs[0]] })
    expect(appCode(closed.body)).toBe('JOB_NOT_IN_QUEUE')
    const twice = await save(operator.key, { jobs: [wos[0]!.jobs[0], wos[0]!.jobs[0]] })
    expect({ status: twice.status, code: appCode(twice.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    const missing = await save(MISSING_UUID, { independent: false })
    expect({ status: missing.status, code: appCode(missing.body) }).toEqual({ status: 404, code: 'WRONG_USER_ID' })
    const notOperator = await makeUser(h.svc.db, { scope: 'quality' })
    const after = await tableCounts(h)
    const wrong = await save(notOperator, { independent: true })
    expect({ status: wrong.status, code: appCode(wrong.body) }).toEqual({ status: 422, code: 'WRONG_OPERATOR' })
    expect(await tableCounts(h)).toEqual(after)
    expect(after.users).toBe((before.users ?? 0) + 1)
  })

  test('an operator reads and orders only their own queue, and cannot switch independent ordering', async () => {
    const own = await assignment('', operator.token)
    expect(own.assigned_jobs_by_operator.map((q: any) => q.operator._key)).toEqual([operator.key])
    const other = await h.request('GET', `/api/job-assignment?user_key=${colleague}`, { token: operator.token })
    expect({ status: other.status, code: appCode(other.body) }).toEqual({ status: 403, code: 'OWN_QUEUE_ONLY' })
    const [w1, w2] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    const mine = await save(operator.key, { jobs: [w1.jobs[0]] }, operator.token)
    expect(mine.status).toBe(200)
    expect(mine.body.detail.jobs[0]._key).toBe(w1.jobs[0])
    const flag = await save(operator.key, { independent: false }, operator.token)
    expect({ status: flag.status, code: appCode(flag.body) }).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    const theirs = await save(colleague, { jobs: [] }, operator.token)
    expect({ status: theirs.status, code: appCode(theirs.body) }).toEqual({ status: 403, code: 'OWN_QUEUE_ONLY' })
    const viaTrpc = await trpcCall(h, 'jobs.assignment', 'query', {}, { token: operator.token })
    expect(viaTrpc.body.result.data.assigned_jobs_by_operator[0].jobs[0]._key).toBe(w1.jobs[0])
    void w2
  })

  test('with the setting off, queues follow the site order again; turning independent off forgets the own order', async () => {
    const [w1, w2] = wos as [MadeWorkOrder, MadeWorkOrder, MadeWorkOrder]
    await setSettings(h.svc.db, { independent_queue_reordering: false })
    const siteOrder = queueOf(await assignment(), operator.key)
    expect(siteOrder.operator.independent).toBe(false)
    // The extra work order made earlier leads the site queue (sequence -5).
    expect(siteOrder.jobs.slice(1, 4).map((j: any) => j._key)).toEqual([w2.jobs[0], w1.jobs[0], w1.jobs[1]])
    // Turning it off is always allowed.
    const off = await save(operator.key, { independent: false })
    expect(off.status).toBe(200)
    const positions = await h.svc.db.selectFrom('jobs').select('queue_position').where('operator_id', '=', operator.key).execute()
    expect(positions.every((p) => p.queue_position === null)).toBe(true)
    const [last] = (await eventsOf(h.svc.db, 'OPERATOR_QUEUE_UPDATED')).slice(-1)
    expect(last?.data).toEqual({ independent: { from: true, to: false } })
    // Nothing to change: no event.
    const count = (await eventsOf(h.svc.db, 'OPERATOR_QUEUE_UPDATED')).length
    expect((await save(operator.key, { independent: false })).status).toBe(200)
    expect((await eventsOf(h.svc.db, 'OPERATOR_QUEUE_UPDATED')).length).toBe(count)
  })

  test('other permissions are refused', async () => {
    const quality = (await userWithScope(h, 'q.user', 'quality')).token
    expect(appCode((await h.request('GET', '/api/job-assignment', { token: quality })).body)).toBe('NOT_AUTHORISED')
    expect(appCode((await save(operator.key, { independent: false }, quality)).body)).toBe('NOT_AUTHORISED')
  })
})
