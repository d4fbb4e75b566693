import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { type Harness, userWithScope, useHarness } from '../../test/harness'
import { untilBlockedOnLock } from '../../test/wait'
import { rebalancePhase } from './rebalance'
import {
  addJob,
  eventsOf,
  jobRow,
  makeDepartment,
  makeProduct,
  makeUser,
  makeWorkOrder,
  phaseRow,
  setJobState,
  setSettings,
} from './test-fixtures'

const phaseJobs = (h: Harness, woId: string, phaseId: string) =>
  h.svc.db.selectFrom('jobs').selectAll().where('work_order_id', '=', woId).where('phase_id', '=', phaseId).orderBy('quantity', 'desc').orderBy('id').execute()

describe('assignment', () => {
  const h = useHarness()
  let production: string
  let productionKey: string
  let operatorOnly: string
  let deptA: string
  let op1: string
  let op2: string
  let product: Awaited<ReturnType<typeof makeProduct>>

  beforeAll(async () => {
    const p = await userWithScope(h, 'planner', 'production')
    production = p.token
    productionKey = p.key
    operatorOnly = (await userWithScope(h, 'op.reader', 'operator')).token
    deptA = await makeDepartment(h.svc.db, 'ASM')
    op1 = await makeUser(h.svc.db, { username: 'op1', surname: 'Alfa', department_id: deptA })
    op2 = await makeUser(h.svc.db, { username: 'op2', surname: 'Beta' })
    product = await makeProduct(h.svc.db, { phases: [{ name: 'Montaggio', department_id: deptA }, { name: 'Collaudo' }] })
  }, 60_000)

  const assign = (job_keys: string[], operator_key: string | null, token = production) =>
    h.request('POST', '/api/job/assign', { token, body: { job_keys, operator_key } })

  test('assign, then reassign: the rows change and each change is an event', async () => {
    const wo = await makeWorkOrder(h.svc.db, product)
    const res = await assign([wo.jobs[0]!], op1)
    expect(res.status).toBe(200)
    expect(res.body.detail).toHaveLength(1)
    expect(res.body.detail[0]).toMatchObject({ _key: wo.jobs[0], operator_key: op1, operator_username: 'op1' })
    await h.svc.db.updateTable('jobs').set({ queue_position: 3 }).where('id', '=', wo.jobs[0]!).execute()
    expect((await assign([wo.jobs[0]!], op2)).status).toBe(200)
    const row = await jobRow(h.svc.db, wo.jobs[0]!)
    expect(row.operator_id).toBe(op2)
    // The position belonged to the previous operator's own order.
    expect(row.queue_position).toBeNull()
    const events = (await eventsOf(h.svc.db, 'JOB_ASSIGNED')).filter((e) => e.subject_key === wo.jobs[0])
    expect(events.map((e) => e.data)).toEqual([
      { work_order_key: wo.id, phase_key: wo.phases[0], operator_key: op1, previous_operator_key: null },
      { work_order_key: wo.id, phase_key: wo.phases[0], operator_key: op2, previous_operator_key: op1 },
    ])
    expect(events[0]!.user_id).toBe(productionKey)
    // The same operator again changes nothing and records nothing.
    expect((await assign([wo.jobs[0]!], op2)).status).toBe(200)
    expect((await eventsOf(h.svc.db, 'JOB_ASSIGNED')).filter((e) => e.subject_key === wo.jobs[0])).toHaveLength(2)
  })

  test('only enabled, not archived users with the operator permission; unknown users are wrong IDs', async () => {
    const wo = await makeWorkOrder(h.svc.db, product)
    const disabled = await makeUser(h.svc.db, { enabled: false })
    const archived = await makeUser(h.svc.db, { archived: true })
    const notOperator = await makeUser(h.svc.db, { scope: 'quality' })
    const before = await tableCounts(h)
    for (const key of [disabled, archived, notOperator, productionKey]) {
      const res = await assign([wo.jobs[0]!], key)
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 422, code: 'WRONG_OPERATOR' })
    }
    const missing = await assign([wo.jobs[0]!], MISSING_UUID)
    expect({ status: missing.status, code: appCode(missing.body) }).toEqual({ status: 404, code: 'WRONG_USER_ID' })
    const unknownJob = await assign([MISSING_UUID], op1)
    expect({ status: unknownJob.status, code: appCode(unknownJob.body) }).toEqual({ status: 404, code: 'UNKNOWN_JOB' })
    expect(await tableCounts(h)).toEqual(before)
    expect((await jobRow(h.svc.db, wo.jobs[0]!)).operator_id).toBeNull()
  })

  test('a running job cannot be reassigned (409), a closed one is not changed; all or nothing', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { operator: op1 })
    await setJobState(h.svc.db, wo.jobs[0]!, { running: true, active_qt: 2 })
    const before = await tableCounts(h)
    const res = await assign([wo.jobs[1]!, wo.jobs[0]!], op2)
    expect(res.status).toBe(409)
    expect(res.body.detail).toEqual({ code: 'JOB_RUNNING', message: 'the job is running: pause it first' })
    expect(await tableCounts(h)).toEqual(before)
    expect((await jobRow(h.svc.db, wo.jobs[1]!)).operator_id).toBe(op1)
    // Naming the operator it already has is fine.
    expect((await assign([wo.jobs[0]!], op1)).status).toBe(200)
    await setJobState(h.svc.db, wo.jobs[1]!, { status: 'closed' })
    const closed = await assign([wo.jobs[1]!], op2)
    expect({ status: closed.status, code: appCode(closed.body) }).toEqual({ status: 409, code: 'JOB_CLOSED' })
    const archived = await makeWorkOrder(h.svc.db, product, { archived: true })
    const refused = await assign([archived.jobs[0]!], op2)
    expect({ status: refused.status, code: appCode(refused.body) }).toEqual({ status: 409, code: 'WORK_ORDER_ARCHIVED' })
  })

  test('unassigning only where the settings allow unassigned jobs', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { operator: op1 })
    await setSettings(h.svc.db, { allow_unassigned_jobs: false })
    const before = await tableCounts(h)
    const refused = await assign([wo.jobs[0]!], null)
    expect(refused.status).toBe(422)
    expect(refused.body.detail).toEqual({ code: 'UNASSIGNED_JOBS_NOT_ALLOWED', message: 'the settings do not allow jobs without an operator' })
    expect(await tableCounts(h)).toEqual(before)
    await setSettings(h.svc.db, { allow_unassigned_jobs: true })
    expect((await assign([wo.jobs[0]!, wo.jobs[1]!], null)).status).toBe(200)
    expect((await jobRow(h.svc.db, wo.jobs[0]!)).operator_id).toBeNull()
    const [event] = (await eventsOf(h.svc.db, 'JOB_UNASSIGNED')).filter((e) => e.subject_key === wo.jobs[0])
    expect(event?.data).toMatchObject({ operator_key: null, previous_operator_key: op1 })
  })

  test('the operator choice: eligible operators, optionally of a department', async () => {
    const all = await trpcCall(h, 'jobs.operators', 'query', {}, { token: production })
    const keys = (all.body.result.data as { _key: string }[]).map((o) => o._key)
    expect(keys).toContain(op1)
    expect(keys).toContain(op2)
    expect(keys).not.toContain(productionKey)
    const ofDept = await trpcCall(h, 'jobs.operators', 'query', { department_key: deptA }, { token: production })
    expect((ofDept.body.result.data as { _key: string }[]).map((o) => o._key)).toEqual([op1])
  })

  test('only production assigns', async () => {
    const wo = await makeWorkOrder(h.svc.db, product)
    const res = await assign([wo.jobs[0]!], op1, operatorOnly)
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    const viaTrpc = await trpcCall(h, 'jobs.assign', 'mutation', { job_keys: [wo.jobs[0]], operator_key: op1 }, { token: production })
    expect(viaTrpc.body.result.data[0].operator_key).toBe(op1)
  })
})

describe('rebalancing (SPEC 5)', () => {
  const h = useHarness()
  let production: string
  let op1: string
  let op2: string
  let product: Awaited<ReturnType<typeof makeProduct>>

  beforeAll(async () => {
    production = (await userWithScope(h, 'planner', 'production')).token
    op1 = await makeUser(h.svc.db, { username: 'op1' })
    op2 = await makeUser(h.svc.db, { username: 'op2' })
    product = await makeProduct(h.svc.db, { phases: [{ name: 'Montaggio', parameters: { release_style: 'job' } }, { name: 'Collaudo' }] })
  }, 60_000)

  type Row = { job_key?: string; quantity: number; operator_key: string | null }
  const rebalance = (wo: { id: string; phases: string[] }, phase: number, jobs: Row[], token = production) =>
    h.request('POST', '/api/job/rebalance', { token, body: { work_order_key: wo.id, phase_key: wo.phases[phase], jobs } })

  test('split a job between two operators: the new job copies the steps and the phase position', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const res = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 6, operator_key: op1 },
      { quantity: 4, operator_key: op2 },
    ])
    expect(res.status).toBe(200)
    const jobs = await phaseJobs(h, wo.id, wo.phases[0]!)
    expect(jobs.map((j) => [j.quantity, j.operator_id])).toEqual([
      [6, op1],
      [4, op2],
    ])
    expect(jobs[1]!.step_sequence).toEqual(jobs[0]!.step_sequence)
    expect(jobs[1]!.position).toBe(1)
    expect(jobs[1]!.status).toBe('queued')
    expect(res.body.detail.created).toEqual([jobs[1]!.id])
    expect(res.body.detail.jobs.map((j: { quantity: number }) => j.quantity).sort()).toEqual([4, 6])
    const [event] = (await eventsOf(h.svc.db, 'JOBS_REBALANCED')).filter((e) => e.subject_key === wo.id)
    expect(event?.data).toEqual({
      phase_key: wo.phases[0],
      total: 10,
      before: [{ job_key: wo.jobs[0], quantity: 10, operator_key: op1 }],
      changed: [{ job_key: wo.jobs[0], quantity: 6, operator_key: op1 }],
      created: [{ job_key: jobs[1]!.id, quantity: 4, operator_key: op2 }],
      removed: [],
      closed: [],
    })
  })

  test('quantities must match the phase total: QUANTITIES_MISMATCH, nothing written', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const before = await tableCounts(h)
    const more = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 6, operator_key: op1 },
      { quantity: 5, operator_key: op2 },
    ])
    expect(more.status).toBe(422)
    expect(more.body.detail).toEqual({ code: 'QUANTITIES_MISMATCH', message: 'quantities mismatch', expected: 10, actual: 11 })
    const less = await rebalance(wo, 0, [{ job_key: wo.jobs[0], quantity: 9, operator_key: op1 }])
    expect(less.body.detail).toMatchObject({ code: 'QUANTITIES_MISMATCH', expected: 10, actual: 9 })
    expect(await tableCounts(h)).toEqual(before)
  })

  test('new jobs need an operator, even where unassigned jobs are allowed', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    await setSettings(h.svc.db, { allow_unassigned_jobs: true })
    const notOperator = await makeUser(h.svc.db, { scope: 'quality' })
    const before = await tableCounts(h)
    const res = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 6, operator_key: op1 },
      { quantity: 4, operator_key: null },
    ])
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual({ code: 'NEW_JOBS_NEED_OPERATOR', message: 'assign an operator to the new jobs' })
    const wrong = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 6, operator_key: op1 },
      { quantity: 4, operator_key: notOperator },
    ])
    expect({ status: wrong.status, code: appCode(wrong.body) }).toEqual({ status: 422, code: 'WRONG_OPERATOR' })
    // A new row left at 0 pieces is no job at all.
    expect((await rebalance(wo, 0, [{ job_key: wo.jobs[0], quantity: 10, operator_key: op1 }, { quantity: 0, operator_key: null }])).status).toBe(200)
    expect(await tableCounts(h)).toEqual(before)
  })

  test("a job's done and active pieces cannot be moved away", async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const second = await addJob(h.svc.db, wo, 0, 0, op2)
    await setJobState(h.svc.db, wo.jobs[0]!, { status: 'paused', completed: 3, active_qt: 2 })
    const before = await tableCounts(h)
    const res = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 4, operator_key: op1 },
      { job_key: second, quantity: 6, operator_key: op2 },
    ])
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual({ code: 'JOB_BELOW_DONE', message: "a job's done and active pieces cannot be moved away", job_key: wo.jobs[0], minimum: 5 })
    expect(await tableCounts(h)).toEqual(before)
    // Down to exactly its done and active pieces is fine: the open batch will finish it.
    const ok = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 5, operator_key: op1 },
      { job_key: second, quantity: 5, operator_key: op2 },
    ])
    expect(ok.status).toBe(200)
    expect((await jobRow(h.svc.db, wo.jobs[0]!)).status).toBe('paused')
  })

  test('jobs left with nothing to do: removed when never started, closed (and released) otherwise', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const idle = await addJob(h.svc.db, wo, 0, 0, op2)
    const started = await addJob(h.svc.db, wo, 0, 0, op2)
    await h.svc.db.updateTable('jobs').set({ quantity: 6 }).where('id', '=', wo.jobs[0]!).execute()
    await h.svc.db.updateTable('jobs').set({ quantity: 2 }).where('id', 'in', [idle, started]).execute()
    await setJobState(h.svc.db, started, { status: 'paused', time_spent_ms: 60_000 })
    await setJobState(h.svc.db, wo.jobs[0]!, { status: 'paused', completed: 4 })
    const res = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 4, operator_key: op1 },
      { job_key: idle, quantity: 0, operator_key: op2 },
      { job_key: started, quantity: 0, operator_key: op2 },
      { quantity: 6, operator_key: op2 },
    ])
    expect(res.status).toBe(200)
    expect(res.body.detail.removed).toEqual([idle])
    expect(res.body.detail.closed.sort()).toEqual([wo.jobs[0], started].sort())
    expect(await h.svc.db.selectFrom('jobs').select('id').where('id', '=', idle).executeTakeFirst()).toBeUndefined()
    expect(await jobRow(h.svc.db, started)).toMatchObject({ status: 'closed', quantity: 0 })
    // Release style 'job': closing the job releases its 4 pieces to the next phase.
    const closed = await jobRow(h.svc.db, wo.jobs[0]!)
    expect(closed).toMatchObject({ status: 'closed', quantity: 4, completed_qt: 4, released_qt: 4 })
    expect((await phaseRow(h.svc.db, wo.id, wo.phases[0]!)).released_out_qt).toBe(4)
    expect((await phaseRow(h.svc.db, wo.id, wo.phases[1]!)).released_in_qt).toBe(4)
    const sum = (await phaseJobs(h, wo.id, wo.phases[0]!)).reduce((s, j) => s + j.quantity, 0)
    expect(sum).toBe(10)
  })

  test('a never-started job with an issue or a message thread is closed, not removed (its records stay)', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const withIssue = await addJob(h.svc.db, wo, 0, 0, op2)
    const withThread = await addJob(h.svc.db, wo, 0, 0, op2)
    await h.svc.db.updateTable('jobs').set({ quantity: 6 }).where('id', '=', wo.jobs[0]!).execute()
    await h.svc.db.updateTable('jobs').set({ quantity: 2 }).where('id', 'in', [withIssue, withThread]).execute()
    const type = await h.svc.db.insertInto('issue_types').values({ code: 'RB', name: 'Rebalance' }).returning('id').executeTakeFirstOrThrow()
    await h.svc.db
      .insertInto('issues')
      .values({ code: 'ISS-RB-1', type_id: type.id, title: 'Pezzo graffiato', context_type: 'job', job_id: withIssue, work_order_id: wo.id, opened_at: h.clock.now() })
      .execute()
    await h.svc.db.insertInto('messages').values({ context_type: 'job', context_key: withThread, body: 'Attenzione al lotto' }).execute()
    const res = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 10, operator_key: op1 },
      { job_key: withIssue, quantity: 0, operator_key: op2 },
      { job_key: withThread, quantity: 0, operator_key: op2 },
    ])
    expect(res.status).toBe(200)
    expect(res.body.detail.removed).toEqual([])
    expect(res.body.detail.closed.sort()).toEqual([withIssue, withThread].sort())
    expect(await jobRow(h.svc.db, withIssue)).toMatchObject({ status: 'closed', quantity: 0 })
  })

  test('closed jobs, running jobs, strangers and duplicates are refused with their codes', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const other = await addJob(h.svc.db, wo, 0, 0, op2)
    const before = await tableCounts(h)
    const stranger = await makeWorkOrder(h.svc.db, product, { quantity: 10 })
    const counts = await tableCounts(h)
    const cases: [Row[], number, string, number?][] = [
      [[{ job_key: stranger.jobs[0], quantity: 10, operator_key: op1 }], 422, 'UNKNOWN_JOB'],
      [[{ job_key: wo.jobs[1], quantity: 10, operator_key: op1 }], 422, 'UNKNOWN_JOB'],
      [[{ job_key: wo.jobs[0], quantity: 5, operator_key: op1 }, { job_key: wo.jobs[0], quantity: 5, operator_key: op1 }], 400, 'INVALID_INPUT'],
    ]
    for (const [rows, status, code] of cases) {
      const res = await rebalance(wo, 0, rows)
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status, code })
    }
    const wrongPhase = await h.request('POST', '/api/job/rebalance', {
      token: production,
      body: { work_order_key: wo.id, phase_key: MISSING_UUID, jobs: [{ quantity: 1, operator_key: op1 }] },
    })
    expect({ status: wrongPhase.status, code: appCode(wrongPhase.body) }).toEqual({ status: 422, code: 'UNKNOWN_PHASE' })
    const wrongWo = await h.request('POST', '/api/job/rebalance', {
      token: production,
      body: { work_order_key: MISSING_UUID, phase_key: wo.phases[0], jobs: [{ quantity: 1, operator_key: op1 }] },
    })
    expect({ status: wrongWo.status, code: appCode(wrongWo.body) }).toEqual({ status: 404, code: 'UNKNOWN_WORK_ORDER' })
    // Running: its operator stays, and its last remaining pieces cannot be taken away.
    await setJobState(h.svc.db, wo.jobs[0]!, { running: true, completed: 4 })
    const reassign = await rebalance(wo, 0, [{ job_key: wo.jobs[0], quantity: 10, operator_key: op2 }])
    expect({ status: reassign.status, code: appCode(reassign.body) }).toEqual({ status: 409, code: 'JOB_RUNNING' })
    const drain = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 4, operator_key: op1 },
      { job_key: other, quantity: 6, operator_key: op2 },
    ])
    expect({ status: drain.status, code: appCode(drain.body) }).toEqual({ status: 409, code: 'JOB_RUNNING' })
    // Moving some of its remaining pieces while it runs is fine.
    expect(
      (
        await rebalance(wo, 0, [
          { job_key: wo.jobs[0], quantity: 7, operator_key: op1 },
          { job_key: other, quantity: 3, operator_key: op2 },
        ])
      ).status,
    ).toBe(200)
    await setJobState(h.svc.db, other, { status: 'closed' })
    const closed = await rebalance(wo, 0, [
      { job_key: wo.jobs[0], quantity: 8, operator_key: op1 },
      { job_key: other, quantity: 2, operator_key: op2 },
    ])
    expect({ status: closed.status, code: appCode(closed.body) }).toEqual({ status: 409, code: 'JOB_CLOSED' })
    void before
    void counts
  })

  test('an archived work order is not rebalanced; only production rebalances', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 4, archived: true })
    const res = await rebalance(wo, 0, [{ job_key: wo.jobs[0], quantity: 4, operator_key: op1 }])
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 409, code: 'WORK_ORDER_ARCHIVED' })
    const operator = (await userWithScope(h, 'op.user', 'operator')).token
    const live = await makeWorkOrder(h.svc.db, product, { quantity: 4 })
    const refused = await rebalance(live, 0, [{ job_key: live.jobs[0], quantity: 4, operator_key: op1 }], operator)
    expect(refused.status).toBe(403)
    const viaTrpc = await trpcCall(
      h,
      'jobs.rebalance',
      'mutation',
      { work_order_key: live.id, phase_key: live.phases[0], jobs: [{ job_key: live.jobs[0], quantity: 1, operator_key: op1 }, { quantity: 3, operator_key: op2 }] },
      { token: production },
    )
    expect(viaTrpc.body.result.data.created).toHaveLength(1)
  })

  test('two rebalances of the same phase at once serialise: one wins, the other sees its result', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op1 })
    const actor = { userId: (await h.svc.db.selectFrom('users').select('id').where('username', '=', 'planner').executeTakeFirstOrThrow()).id, sessionId: null, scope: 'production', tokenId: null }
    const input = (keep: number) => ({
      work_order_key: wo.id,
      phase_key: wo.phases[0]!,
      jobs: [
        { job_key: wo.jobs[0], quantity: keep, operator_key: op1 },
        { quantity: 10 - keep, operator_key: op2 },
      ],
    })
    let holder: Promise<unknown> | undefined
    let release: () => void = () => {}
    if (h.svc.dbKind === 'postgres') {
      // Hold the phase row on another connection so both rebalances queue up behind it.
      const locked = new Promise<void>((resolve) => {
        holder = h.svc.db.transaction().execute(async (trx) => {
          await sql`select 1 from work_order_phases where work_order_id = ${wo.id} and phase_id = ${wo.phases[0]} for update`.execute(trx)
          resolve()
          await new Promise<void>((r) => {
            release = r
          })
        })
      })
      await locked
    }
    const a = rebalancePhase(h.svc, actor, input(6))
    const b = rebalancePhase(h.svc, actor, input(7))
    if (h.svc.dbKind === 'postgres') {
      let settled = false
      void Promise.allSettled([a, b]).then(() => {
        settled = true
      })
      await untilBlockedOnLock(h.svc.db, 2, 'both rebalances waiting behind the held phase row')
      expect(settled).toBe(false)
      release()
      await holder
    }
    const results = await Promise.allSettled([a, b])
    const ok = results.filter((r) => r.status === 'fulfilled')
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(ok).toHaveLength(1)
    expect(failed).toHaveLength(1)
    expect(failed[0]!.reason.appCode).toBe('QUANTITIES_MISMATCH')
    const jobs = await phaseJobs(h, wo.id, wo.phases[0]!)
    expect(jobs.reduce((s, j) => s + j.quantity, 0)).toBe(10)
    expect(jobs).toHaveLength(2)
    expect((await eventsOf(h.svc.db, 'JOBS_REBALANCED')).filter((e) => e.subject_key === wo.id)).toHaveLength(1)
  })
})
