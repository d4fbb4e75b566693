import { beforeAll, describe, expect, test } from 'bun:test'
import { historyCategory } from '../../../src/domains/work-orders/history'
import type { HistoryEntry } from '../../../src/domains/work-orders/schemas'
import { appCode, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { makeIssueType } from '../issues/test-fixtures'
import { makeProduct, makeUser, makeWorkOrder, type MadeWorkOrder, setJobState } from '../jobs/test-fixtures'

describe('work order history (GET work-order/{id}/history): events in words, issues and messages, filters, pages', () => {
  const h = useHarness()
  let prod: { key: string; token: string }
  let op1: string
  let op2: string
  let wo: MadeWorkOrder
  let other: MadeWorkOrder
  let stepKey: string
  let issueKey: string

  const history = async (query = '', token = prod.token) => {
    const res = await h.request('GET', `/api/work-order/${wo.id}/history${query}`, { token })
    expect(res.status).toBe(200)
    return res.body.detail as HistoryEntry[]
  }
  const types = (rows: HistoryEntry[]) => rows.map((e) => e.event_type)

  beforeAll(async () => {
    prod = await userWithScope(h, 'planner', 'production quality')
    op1 = await makeUser(h.svc.db, { username: 'op.uno', name: 'Ugo', surname: 'Uno' })
    op2 = await makeUser(h.svc.db, { username: 'op.due', name: 'Dario', surname: 'Due' })
    const product = await makeProduct(h.svc.db, { phases: [{ name: 'Taglio' }, { name: 'Collaudo' }] })
    wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    other = await makeWorkOrder(h.svc.db, product, { quantity: 5, operator: op1 })
    const phase = await h.svc.db.selectFrom('product_phases').select('steps').where('id', '=', wo.phases[0]!).executeTakeFirstOrThrow()
    stepKey = phase.steps[0]!._key
    const [cut, test2] = wo.jobs as [string, string]

    // Execution events as the execution service writes them (job subject, work order and phase in the data).
    const jobEvent = (job: string, phaseKey: string, event_type: string, data: Record<string, unknown>) =>
      h.svc.db
        .insertInto('events')
        .values({ event_type, user_id: op1, subject_type: 'job', subject_key: job, data: JSON.stringify({ work_order_key: wo.id, phase_key: phaseKey, ...data }) })
        .execute()
    await jobEvent(cut, wo.phases[0]!, 'JOB_STARTED', {})
    await jobEvent(cut, wo.phases[0]!, 'ACTIVE_BATCH_CHANGED', { batch_number: 1, qt_total: 4 })
    await jobEvent(cut, wo.phases[0]!, 'STEP_COMPLETED', { step_key: stepKey, step_type: 'instruction' })
    await jobEvent(cut, wo.phases[0]!, 'JOB_PAUSED', { reason: 'no_material', duration_ms: 60_000 })
    // Corrections and a reassignment through the services.
    await setJobState(h.svc.db, cut, { status: 'paused', completed: 2, released: 2 }, h.clock.now())
    expect((await h.request('POST', '/api/job/update', { token: prod.token, body: { job_key: cut, action: 'update_times', time_spent_ms: 3_600_000 } })).status).toBe(200)
    expect((await h.request('POST', '/api/job/assign', { token: prod.token, body: { job_keys: [test2], operator_key: op2 } })).status).toBe(200)
    // An issue on the first job, a message in the work order's thread; and noise on another work order.
    const type = await makeIssueType(h.svc.db, 'HX')
    const issue = await h.request('POST', '/api/issue', { token: prod.token, body: { type_key: type, title: 'Bava sul pezzo', job_key: cut } })
    expect(issue.status).toBe(201)
    issueKey = issue.body.detail._key
    expect((await h.request('POST', `/api/issue/${issueKey}/action`, { token: prod.token, body: { action: 'close' } })).status).toBe(200)
    const message = await h.request('POST', '/api/message', { token: prod.token, body: { context_type: 'work_order', context_key: wo.id, body: 'Materiale in arrivo' } })
    expect(message.status).toBe(201)
    await h.request('POST', '/api/message', { token: prod.token, body: { context_type: 'work_order', context_key: other.id, body: 'Altro ordine' } })
    await h.request('POST', '/api/job/update', { token: prod.token, body: { job_key: other.jobs[0], action: 'update_times', time_spent_ms: 1 } })
  }, 60_000)

  test('every event of the work order, its jobs, its issues and its threads, newest first, with their data in words', async () => {
    const rows = await history()
    expect(types(rows)).toEqual([
      'MESSAGE_POSTED',
      'ISSUE_CLOSED',
      'ISSUE_OPENED',
      'JOB_ASSIGNED',
      'JOB_TIMES_UPDATED',
      'JOB_PAUSED',
      'STEP_COMPLETED',
      'ACTIVE_BATCH_CHANGED',
      'JOB_STARTED',
    ])
    const [message, closed, opened, assigned, times, paused, step] = rows as HistoryEntry[]
    expect(message).toMatchObject({ subject_type: 'message', thread: 'work_order', job_key: null, user_name: 'planner' })
    expect(closed).toMatchObject({ job_key: wo.jobs[0], phase_key: wo.phases[0], issue: { title: 'Bava sul pezzo', state: 'closed' } })
    expect(opened!.data).toMatchObject({ title: 'Bava sul pezzo' })
    // Who the job went to and from, by name.
    expect(assigned).toMatchObject({ job_key: wo.jobs[1], phase_key: wo.phases[1], data: { operator_key: op2, previous_operator_key: op1 } })
    expect(assigned!.names).toEqual({ [op2]: 'Dario Due', [op1]: 'Ugo Uno' })
    // Corrections from -> to, the pause reason, the step by name.
    expect(times!.data).toMatchObject({ time_spent_ms: { to: 3_600_000 } })
    expect(paused).toMatchObject({ user_name: 'Ugo Uno', data: { reason: 'no_material' } })
    expect(step!.names).toEqual({ [stepKey]: 'Leggi' })
    expect(rows.map((r) => historyCategory(r))).toEqual(['messages', 'issues', 'issues', 'assignment', 'corrections', 'execution', 'execution', 'execution', 'execution'])
  })

  test('filters: category and phase, combined; keyset pages that meet without gaps', async () => {
    expect(types(await history('?category=corrections'))).toEqual(['JOB_TIMES_UPDATED'])
    expect(types(await history('?category=issues'))).toEqual(['ISSUE_CLOSED', 'ISSUE_OPENED'])
    expect(types(await history('?category=messages'))).toEqual(['MESSAGE_POSTED'])
    expect(types(await history('?category=assignment'))).toEqual(['JOB_ASSIGNED'])
    // The second phase: only its job's events; the work order's own thread is not a phase's.
    expect(types(await history(`?phase_key=${wo.phases[1]}`))).toEqual(['JOB_ASSIGNED'])
    expect(types(await history(`?phase_key=${wo.phases[0]}&category=execution`))).toEqual(['JOB_PAUSED', 'STEP_COMPLETED', 'ACTIVE_BATCH_CHANGED', 'JOB_STARTED'])

    const all = await history()
    const first = await history('?limit=4')
    const second = await history(`?limit=4&cursor=${first.at(-1)!._key}`)
    const third = await history(`?limit=4&cursor=${second.at(-1)!._key}`)
    expect([...first, ...second, ...third].map((r) => r._key)).toEqual(all.map((r) => r._key))
    // tRPC takes the same filter (and the direction its infinite queries add).
    const viaTrpc = await trpcCall(h, 'workOrders.history', 'query', { key: wo.id, category: 'issues', limit: 1, direction: 'forward' }, { token: prod.token })
    expect(viaTrpc.body.result.data.map((r: HistoryEntry) => r.event_type)).toEqual(['ISSUE_CLOSED'])
  })

  test('bad filters are 400 with a message; other scopes are refused', async () => {
    for (const q of ['?category=everything', '?phase_key=nope', '?cursor=abc', '?limit=0', '?limit=501']) {
      const res = await h.request('GET', `/api/work-order/${wo.id}/history${q}`, { token: prod.token })
      expect({ q, status: res.status, code: appCode(res.body) }).toEqual({ q, status: 400, code: 'INVALID_INPUT' })
      expect(res.body.detail.message).toBeTruthy()
    }
    const lib = await userWithScope(h, 'hx.library', 'library')
    expect((await h.request('GET', `/api/work-order/${wo.id}/history`, { token: lib.token })).status).toBe(403)
    const reader = await userWithScope(h, 'hx.reporting', 'reporting')
    expect((await history('', reader.token)).length).toBeGreaterThan(0)
  })
})
