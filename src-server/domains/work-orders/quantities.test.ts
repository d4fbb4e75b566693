import { beforeAll, describe, expect, test } from 'bun:test'
import { adminToken, appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { userWithScope, useHarness } from '../../test/harness'
import { MAX_JOB_QUANTITY } from '../../../src/domains/jobs/schemas'
import { makeProduct } from './test-fixtures'

type Detail = {
  _key: string
  code: string
  planned_qt: number
  status: string
  phases: { _key: string; name: string; released_in_qt: number; jobs: { _key: string; quantity: number; operator_key: string | null; status: string }[] }[]
}

describe('work order quantity change (SPEC 5: the whole workload must be distributed)', () => {
  const h = useHarness()
  let admin: string
  let prod: { key: string; token: string }
  let op1: { key: string; token: string }
  let op2: { key: string; token: string }
  let product: Awaited<ReturnType<typeof makeProduct>>

  const newWo = async (quantity = 10): Promise<Detail> => {
    const res = await h.request('POST', '/api/work-order', { token: prod.token, body: { product_key: product.key, quantity } })
    expect(res.status).toBe(201)
    return res.body.detail
  }
  const change = (wo: { _key: string }, body: unknown) => h.request('PATCH', `/api/work-order/${wo._key}/update-quantities`, { token: prod.token, body })
  const jobOf = (wo: Detail, phase: number, i = 0) => wo.phases[phase]!.jobs[i]!._key
  const setUnassigned = (allowed: boolean) => h.request('PATCH', '/api/settings', { token: admin, body: { allow_unassigned_jobs: allowed } })

  beforeAll(async () => {
    admin = await adminToken(h)
    prod = await userWithScope(h, 'planner', 'production')
    op1 = await userWithScope(h, 'marco', 'operator')
    op2 = await userWithScope(h, 'giulia', 'operator')
    product = await makeProduct(h.svc.db, { code: 'VAL-1', phases: ['Montaggio', 'Collaudo'] })
  })

  test('a full distribution: jobs change, new jobs appear, phase 1 releases the new quantity; one event with before and after', async () => {
    const wo = await newWo(10)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    const res = await change(wo, {
      quantity: 15,
      phases: [
        { phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 10 }], new_jobs: [{ operator_key: op1.key, quantity: 5 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 9 }], new_jobs: [{ operator_key: op2.key, quantity: 3 }, { quantity: 3 }] },
      ],
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const after: Detail = res.body.detail
    expect(after.planned_qt).toBe(15)
    expect(after.phases.map((p) => p.released_in_qt)).toEqual([15, 0])
    expect(after.phases[0]!.jobs.map((j) => [j.quantity, j.operator_key])).toEqual([
      [10, null],
      [5, op1.key],
    ])
    expect(after.phases[1]!.jobs.map((j) => [j.quantity, j.operator_key])).toEqual([
      [9, null],
      [3, op2.key],
      [3, null],
    ])
    // New jobs carry the phase's steps like the first ones.
    const jobs = await h.svc.db.selectFrom('jobs').select(['phase_id', 'step_sequence', 'position']).where('work_order_id', '=', wo._key).execute()
    for (const j of jobs) {
      const phase = product.phases.find((p) => p.key === j.phase_id)!
      expect(j.step_sequence).toEqual(phase.steps.map((s) => ({ _key: s._key, type: s.type })))
      expect(j.position).toBe(product.phases.indexOf(phase) + 1)
    }
    const [event] = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'WORK_ORDER_QUANTITY_CHANGED').where('subject_key', '=', wo._key).execute()
    const data = event!.data as { before: { quantity: number; jobs: unknown[] }; after: { quantity: number; jobs: { new?: boolean }[] } }
    expect(data.before.quantity).toBe(10)
    expect(data.before.jobs).toHaveLength(2)
    expect(data.after.quantity).toBe(15)
    expect(data.after.jobs).toHaveLength(5)
    expect(data.after.jobs.filter((j) => j.new)).toHaveLength(3)
    expect(event!.user_id).toBe(prod.key)
  })

  test('a phase that does not add up is refused naming the phase; nothing is written', async () => {
    const wo = await newWo(10)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    const before = await tableCounts(h)
    // Phase 2 left out: its job keeps 10 of 20.
    const missing = await change(wo, { quantity: 20, phases: [{ phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 20 }] }] })
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toEqual({
      code: 'WORKLOAD_NOT_DISTRIBUTED',
      message: 'the whole workload must be distributed: phase 2 (Collaudo) has 10 of 20 pieces',
      phase_key: p2,
      phase_name: 'Collaudo',
      position: 2,
      distributed: 10,
      quantity: 20,
    })
    // Phase 1 short: phase 1 is named first.
    const short = await change(wo, {
      quantity: 20,
      phases: [
        { phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 12 }], new_jobs: [{ operator_key: op1.key, quantity: 7 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 20 }] },
      ],
    })
    expect(short.status).toBe(422)
    expect(short.body.detail).toMatchObject({ code: 'WORKLOAD_NOT_DISTRIBUTED', phase_name: 'Montaggio', distributed: 19, quantity: 20 })
    // Too much is not distributed either.
    const over = await change(wo, { quantity: 10, phases: [{ phase_key: p1, new_jobs: [{ quantity: 1 }] }] })
    expect(over.body.detail).toMatchObject({ code: 'WORKLOAD_NOT_DISTRIBUTED', phase_name: 'Montaggio', distributed: 11, quantity: 10 })
    expect(await tableCounts(h)).toEqual(before)
    const unchanged = (await h.request('GET', `/api/work-order/${wo._key}`, { token: prod.token })).body.detail
    expect(unchanged).toEqual(wo)
  })

  test("a job never goes below its done and active pieces (movableQt); closed jobs reopen when they get pieces again", async () => {
    const wo = await newWo(10)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    await h.svc.db.updateTable('jobs').set({ status: 'started', completed_qt: 6, active_qt: 2, started_at: new Date() }).where('id', '=', jobOf(wo, 0)).execute()
    await h.svc.db.updateTable('work_order_phases').set({ taken_qt: 8 }).where('work_order_id', '=', wo._key).where('phase_id', '=', p1).execute()
    const before = await tableCounts(h)
    const below = await change(wo, {
      quantity: 7,
      phases: [
        { phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 7 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 7 }] },
      ],
    })
    expect(below.status).toBe(422)
    expect(below.body.detail).toMatchObject({
      code: 'JOB_BELOW_DONE',
      message: 'phase 1 (Montaggio): a job cannot go below its 8 done or active pieces',
      job_key: jobOf(wo, 0),
      minimum: 8,
    })
    expect(await tableCounts(h)).toEqual(before)
    // Exactly the done + active pieces is fine; the rest moves to a new job of another operator.
    const split = await change(wo, {
      quantity: 10,
      phases: [{ phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 8 }], new_jobs: [{ operator_key: op2.key, quantity: 2 }] }],
    })
    expect(split.status, JSON.stringify(split.body)).toBe(200)
    expect(split.body.detail.phases[0].jobs.map((j: { quantity: number }) => j.quantity)).toEqual([8, 2])
    expect(split.body.detail.phases[0].jobs[0].status).toBe('started')

    // Its batch done (8 of 8), reducing the order to 8: the never-started job goes, the first
    // one has nothing left to do and closes, phase 2's job gets 8.
    await h.svc.db.updateTable('jobs').set({ status: 'paused', completed_qt: 8, active_qt: 0 }).where('id', '=', jobOf(wo, 0)).execute()
    const reduced = await change(wo, {
      quantity: 8,
      phases: [
        { phase_key: p1, jobs: [{ job_key: split.body.detail.phases[0].jobs[1]._key, quantity: 0 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 8 }] },
      ],
    })
    expect(reduced.status, JSON.stringify(reduced.body)).toBe(200)
    expect(reduced.body.detail.phases[0].jobs.map((j: { quantity: number; status: string }) => [j.quantity, j.status])).toEqual([[8, 'closed']])
    const [ev] = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'WORK_ORDER_QUANTITY_CHANGED').where('subject_key', '=', wo._key).orderBy('id', 'desc').execute()
    expect((ev!.data as { jobs_removed: string[] }).jobs_removed).toEqual([split.body.detail.phases[0].jobs[1]._key])
  })

  test('a never-started job with a message thread is closed, not removed, when its quantity goes', async () => {
    const wo = await newWo(10)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    const split = await change(wo, {
      quantity: 10,
      phases: [{ phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 8 }], new_jobs: [{ operator_key: op2.key, quantity: 2 }] }],
    })
    const extra = split.body.detail.phases[0].jobs[1]._key as string
    await h.svc.db.insertInto('messages').values({ context_type: 'job', context_key: extra, body: 'Lotto da verificare' }).execute()
    const reduced = await change(wo, {
      quantity: 8,
      phases: [
        { phase_key: p1, jobs: [{ job_key: extra, quantity: 0 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 8 }] },
      ],
    })
    expect(reduced.status, JSON.stringify(reduced.body)).toBe(200)
    expect(await h.svc.db.selectFrom('jobs').select(['status', 'quantity']).where('id', '=', extra).executeTakeFirst()).toEqual({ status: 'closed', quantity: 0 })
  })

  test('jobs left with nothing to do close; the work order completes when its last phase has done the new quantity, and reopens when it grows', async () => {
    const wo = await newWo(10)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    // Phase 1 did 6 and released them; phase 2 did 6.
    await h.svc.db.updateTable('jobs').set({ status: 'paused', completed_qt: 6, started_at: new Date() }).where('id', 'in', [jobOf(wo, 0), jobOf(wo, 1)]).execute()
    await h.svc.db.updateTable('work_order_phases').set({ taken_qt: 6, completed_qt: 6, released_out_qt: 6 }).where('work_order_id', '=', wo._key).where('phase_id', '=', p1).execute()
    await h.svc.db.updateTable('work_order_phases').set({ released_in_qt: 6, taken_qt: 6, completed_qt: 6 }).where('work_order_id', '=', wo._key).where('phase_id', '=', p2).execute()
    const down = await change(wo, {
      quantity: 6,
      phases: [
        { phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 6 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 6 }] },
      ],
    })
    expect(down.status, JSON.stringify(down.body)).toBe(200)
    expect(down.body.detail).toMatchObject({ planned_qt: 6, completed_qt: 6, progress: 100, status: 'completed' })
    expect(down.body.detail.phases.map((p: { jobs: { status: string }[] }) => p.jobs[0]!.status)).toEqual(['closed', 'closed'])
    const events = (await h.request('GET', `/api/work-order/${wo._key}/history`, { token: prod.token })).body.detail.map((e: { event_type: string }) => e.event_type)
    expect(events.slice(0, 2)).toEqual(['WORK_ORDER_COMPLETED', 'WORK_ORDER_QUANTITY_CHANGED'])

    // More pieces: the closed jobs open again (paused, they had started) and the work order is active.
    const up = await change(wo, {
      quantity: 9,
      phases: [
        { phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 9 }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 6 }], new_jobs: [{ operator_key: op1.key, quantity: 3 }] },
      ],
    })
    expect(up.status, JSON.stringify(up.body)).toBe(200)
    expect(up.body.detail).toMatchObject({ planned_qt: 9, completed_qt: 6, progress: 66, status: 'active' })
    expect(up.body.detail.phases[0].jobs[0].status).toBe('paused')
    expect(up.body.detail.phases[1].jobs.map((j: { status: string }) => j.status)).toEqual(['closed', 'queued'])
    expect(up.body.detail.phases[0].released_in_qt).toBe(9)
  })

  test('new jobs need an operator where unassigned jobs are not allowed; operators must be operators', async () => {
    const wo = await newWo(4)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    const body = (operator_key?: string) => ({
      quantity: 6,
      phases: [
        { phase_key: p1, new_jobs: [{ quantity: 2, ...(operator_key ? { operator_key } : {}) }] },
        { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 6 }] },
      ],
    })
    expect((await setUnassigned(false)).status).toBe(200)
    try {
      const before = await tableCounts(h)
      const res = await change(wo, body())
      expect(res.status).toBe(422)
      expect(res.body.detail).toMatchObject({ code: 'OPERATOR_REQUIRED', message: 'assign an operator to the new jobs (phase 1, Montaggio)', phase_key: p1 })
      const wrong = await change(wo, body(prod.key))
      expect(wrong.status).toBe(400)
      expect(wrong.body.detail).toMatchObject({ code: 'WRONG_OPERATOR', operator_keys: [prod.key] })
      const missingUser = await change(wo, body(MISSING_UUID))
      expect(appCode(missingUser.body)).toBe('WRONG_OPERATOR')
      expect(await tableCounts(h)).toEqual(before)
      const ok = await change(wo, body(op2.key))
      expect(ok.status).toBe(200)
      expect(ok.body.detail.phases[0].jobs.map((j: { operator_key: string | null }) => j.operator_key)).toEqual([null, op2.key])
    } finally {
      await setUnassigned(true)
    }
  })

  test('unknown phases and jobs, repeated entries, bad shapes: 400 and nothing written', async () => {
    const wo = await newWo(5)
    const other = await newWo(5)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    const before = await tableCounts(h)
    const cases: [unknown, string][] = [
      [{ quantity: 5, phases: [{ phase_key: MISSING_UUID }] }, 'UNKNOWN_PHASE'],
      [{ quantity: 5, phases: [{ phase_key: p1, jobs: [{ job_key: jobOf(other, 0), quantity: 5 }] }] }, 'UNKNOWN_JOB'],
      [{ quantity: 5, phases: [{ phase_key: p1, jobs: [{ job_key: jobOf(wo, 1), quantity: 5 }] }] }, 'UNKNOWN_JOB'],
      [{ quantity: 5, phases: [{ phase_key: p1 }, { phase_key: p1 }] }, 'INVALID_INPUT'],
      [{ quantity: 5, phases: [{ phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 2 }, { job_key: jobOf(wo, 1), quantity: 3 }] }] }, 'INVALID_INPUT'],
      [{ quantity: 0, phases: [] }, 'INVALID_INPUT'],
      [{ quantity: 5, phases: [{ phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: -1 }] }] }, 'INVALID_INPUT'],
      [{ quantity: 5, phases: [{ phase_key: p1, new_jobs: [{ quantity: 0 }] }] }, 'INVALID_INPUT'],
      [{ quantity: 5 }, 'INVALID_INPUT'],
      // Never more than one job may hold: every work order stays rebalanceable.
      [{ quantity: MAX_JOB_QUANTITY + 1, phases: [] }, 'INVALID_INPUT'],
    ]
    for (const [body, code] of cases) {
      const res = await change(wo, body)
      expect({ body, status: res.status, code: appCode(res.body) }).toEqual({ body, status: 400, code })
    }
    expect((await h.request('PATCH', `/api/work-order/${MISSING_UUID}/update-quantities`, { token: prod.token, body: { quantity: 1, phases: [] } })).status).toBe(404)
    expect(await tableCounts(h)).toEqual(before)
    // The same quantity with the same jobs is a no-op that still succeeds.
    const same = await change(wo, { quantity: 5, phases: [] })
    expect(same.status).toBe(200)
  })

  test('tRPC updateQuantities: the same rules, the code in data.appCode', async () => {
    const wo = await newWo(3)
    const [p1, p2] = wo.phases.map((p) => p._key) as [string, string]
    const refused = await trpcCall(h, 'workOrders.updateQuantities', 'mutation', { key: wo._key, change: { quantity: 4, phases: [] } }, { token: prod.token })
    expect(refused.status).toBe(422)
    expect(refused.body.error.data).toMatchObject({ appCode: 'WORKLOAD_NOT_DISTRIBUTED', extra: { phase_name: 'Montaggio', distributed: 3, quantity: 4 } })
    const ok = await trpcCall(
      h,
      'workOrders.updateQuantities',
      'mutation',
      {
        key: wo.code,
        change: {
          quantity: 4,
          phases: [
            { phase_key: p1, jobs: [{ job_key: jobOf(wo, 0), quantity: 4 }] },
            { phase_key: p2, jobs: [{ job_key: jobOf(wo, 1), quantity: 4 }] },
          ],
        },
      },
      { token: prod.token },
    )
    expect(ok.status).toBe(200)
    expect(ok.body.result.data.planned_qt).toBe(4)
  })
})

