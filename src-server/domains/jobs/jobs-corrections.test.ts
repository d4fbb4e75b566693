import { beforeAll, describe, expect, test } from 'bun:test'
import { type CorrectionRefusal, correctionRefusal, JOB_CORRECTIONS } from '../../../src/domains/jobs/rules'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { type Harness, userWithScope, useHarness } from '../../test/harness'
import { eventsOf, type JobStateSpec, jobRow, makeProduct, makeUser, makeWorkOrder, type MadeWorkOrder, phaseRow, setJobState } from './test-fixtures'

type Body = Record<string, unknown>

describe('production corrections (POST job/update)', () => {
  const h = useHarness()
  let production: string
  let op: string
  // Three phases: continuous, job, continuous release.
  let product: Awaited<ReturnType<typeof makeProduct>>
  let traced: Awaited<ReturnType<typeof makeProduct>>

  beforeAll(async () => {
    production = (await userWithScope(h, 'planner', 'production')).token
    op = await makeUser(h.svc.db, { username: 'op1' })
    product = await makeProduct(h.svc.db, {
      phases: [{ name: 'Taglio' }, { name: 'Montaggio', parameters: { release_style: 'job' } }, { name: 'Collaudo' }],
    })
    traced = await makeProduct(h.svc.db, { phases: [{ name: 'Assemblaggio seriali', traceability: true }] })
  }, 60_000)

  const update = (body: Body, token = production) => h.request('POST', '/api/job/update', { token, body })
  const now = () => h.clock.now()

  /** Every refusal: its status and code, and not a row changed anywhere. */
  async function refused(body: Body, status: number, code: string) {
    const before = await tableCounts(h)
    const job = body.job_key && body.job_key !== MISSING_UUID ? await jobRow(h.svc.db, body.job_key as string) : null
    const res = await update(body)
    expect({ action: body.action, status: res.status, code: appCode(res.body) }).toEqual({ action: body.action, status, code })
    expect(await tableCounts(h)).toEqual(before)
    if (job) expect(await jobRow(h.svc.db, job.id)).toEqual(job)
    return res
  }

  test('reset progress: only without active pieces and with progress; released pieces come back from downstream', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    const [cut] = wo.jobs as [string]
    await refused({ job_key: cut, action: 'reset_progress' }, 409, 'JOB_NO_PROGRESS')
    await setJobState(h.svc.db, cut, { status: 'paused', completed: 4, released: 4, active_qt: 2 }, now())
    await refused({ job_key: cut, action: 'reset_progress' }, 409, 'JOB_HAS_ACTIVE_PIECES')
    await h.svc.db.updateTable('batches').set({ status: 'completed' }).where('job_id', '=', cut).execute()
    await setJobState(h.svc.db, cut, { active_qt: 0, completed: 6, released: 6 }, now())

    const res = await update({ job_key: cut, action: 'reset_progress' })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ completed_qt: 0, remaining_qt: 10, status: 'paused', material: { taken_qt: 0, completed_qt: 0, released_out_qt: 0 } })
    expect(await jobRow(h.svc.db, cut)).toMatchObject({ completed_qt: 0, released_qt: 0 })
    expect(await phaseRow(h.svc.db, wo.id, wo.phases[1]!)).toMatchObject({ released_in_qt: 0, taken_qt: 0 })
    const [event] = (await eventsOf(h.svc.db, 'JOB_PROGRESS_RESET')).filter((e) => e.subject_key === cut)
    expect(event?.data).toEqual({
      work_order_key: wo.id,
      phase_key: wo.phases[0],
      completed_qt: { from: 6, to: 0 },
      released_back: 6,
      changed: ['completed_qt', 'released_qt'],
      changes: { completed_qt: { from: 6, to: 0 }, released_qt: { from: 6, to: 0 } },
    })
  })

  test('reset progress is refused when the next phase already took the released pieces', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    await setJobState(h.svc.db, wo.jobs[0]!, { status: 'paused', completed: 5, released: 5 }, now())
    // Montaggio took 3 of the 5 into a batch: only 2 are still free downstream.
    await setJobState(h.svc.db, wo.jobs[1]!, { status: 'paused', active_qt: 3 }, now())
    const res = await refused({ job_key: wo.jobs[0], action: 'reset_progress' }, 409, 'DOWNSTREAM_CONSUMED')
    expect(res.body.detail).toMatchObject({ released_back: 5, still_free_downstream: 2 })
  })

  test('reset progress of the last phase reopens a closed job and a completed work order', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 2, operator: op })
    // Everything done and released down to the last phase, which finished too.
    await setJobState(h.svc.db, wo.jobs[0]!, { status: 'closed', completed: 2, released: 2 }, now())
    await setJobState(h.svc.db, wo.jobs[1]!, { status: 'closed', completed: 2, released: 2 }, now())
    await setJobState(h.svc.db, wo.jobs[2]!, { status: 'closed', completed: 2, released: 2 }, now())
    await h.svc.db.updateTable('work_orders').set({ completed_qt: 2, status: 'completed' }).where('id', '=', wo.id).execute()
    const res = await update({ job_key: wo.jobs[2], action: 'reset_progress' })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ status: 'paused', closed_at: null, completed_qt: 0, work_order: { completed_qt: 0, status: 'active' } })
    expect((await phaseRow(h.svc.db, wo.id, wo.phases[2]!)).released_out_qt).toBe(0)
    expect((await eventsOf(h.svc.db, 'WORK_ORDER_REOPENED')).some((e) => e.subject_key === wo.id)).toBe(true)
  })

  test('cancel active pieces: only with active pieces and not while running; the batch is cancelled, material returns', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    const [cut] = wo.jobs as [string]
    await refused({ job_key: cut, action: 'cancel_active_pieces' }, 409, 'JOB_NO_ACTIVE_PIECES')
    await setJobState(h.svc.db, cut, { running: true, completed: 2, active_qt: 3 }, now())
    await refused({ job_key: cut, action: 'cancel_active_pieces' }, 409, 'JOB_RUNNING')
    expect((await update({ job_key: cut, action: 'pause' })).status).toBe(200)
    const batch = (await jobRow(h.svc.db, cut)).active_batch_id
    const res = await update({ job_key: cut, action: 'cancel_active_pieces' })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ active_qt: 0, active_batch_key: null, remaining_qt: 8, material: { taken_qt: 2, available_qt: 8 } })
    expect((await h.svc.db.selectFrom('batches').select('status').where('id', '=', batch!).executeTakeFirstOrThrow()).status).toBe('cancelled')
    const [event] = (await eventsOf(h.svc.db, 'JOB_ACTIVE_PIECES_CANCELLED')).filter((e) => e.subject_key === cut)
    expect(event?.data).toEqual({
      work_order_key: wo.id,
      phase_key: wo.phases[0],
      pieces: 3,
      batch_key: batch,
      changed: ['active_qt', 'active_batch_id'],
      changes: { active_qt: { from: 3, to: 0 }, active_batch_id: { from: batch, to: null } },
    })
  })

  test('update progress: guards, material limits, releases per style, closing and the work order progress', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    const [cut, assembly, test] = wo.jobs as [string, string, string]
    await refused({ job_key: cut, action: 'update_progress', completed_qt: 11 }, 422, 'PROGRESS_ABOVE_QUANTITY')
    // Phase 1 (continuous): 3 done, released at once; the queued job counts as started.
    const up = await update({ job_key: cut, action: 'update_progress', completed_qt: 3 })
    expect(up.status).toBe(200)
    expect(up.body.detail).toMatchObject({ completed_qt: 3, status: 'paused', material: { taken_qt: 3, completed_qt: 3, released_out_qt: 3 } })
    expect((await phaseRow(h.svc.db, wo.id, wo.phases[1]!)).released_in_qt).toBe(3)
    // Phase 2 has only 3 pieces released.
    const short = await refused({ job_key: assembly, action: 'update_progress', completed_qt: 4 }, 409, 'NOT_ENOUGH_MATERIAL')
    expect(short.body.detail.available).toBe(3)
    // Phase 2 ('job' style) keeps its pieces until the job closes.
    expect((await update({ job_key: assembly, action: 'update_progress', completed_qt: 2 })).status).toBe(200)
    expect((await phaseRow(h.svc.db, wo.id, wo.phases[2]!)).released_in_qt).toBe(0)
    // Pulling phase 1 back below what phase 2 took is refused; to what is still free it is fine.
    await refused({ job_key: cut, action: 'update_progress', completed_qt: 1 }, 409, 'DOWNSTREAM_CONSUMED')
    const down = await update({ job_key: cut, action: 'update_progress', completed_qt: 2 })
    expect(down.body.detail).toMatchObject({ completed_qt: 2, material: { released_out_qt: 2 } })
    expect((await phaseRow(h.svc.db, wo.id, wo.phases[1]!)).released_in_qt).toBe(2)
    // Phase 1 to its whole quantity: closes, everything released; phase 2 closes and releases all ('job').
    expect((await update({ job_key: cut, action: 'update_progress', completed_qt: 10 })).body.detail.status).toBe('closed')
    const closed = await update({ job_key: assembly, action: 'update_progress', completed_qt: 10 })
    expect(closed.body.detail).toMatchObject({ status: 'closed', material: { released_out_qt: 10 } })
    expect(closed.body.detail.closed_at).toBe(now().getTime())
    // The last phase completing the planned quantity completes the work order.
    const done = await update({ job_key: test, action: 'update_progress', completed_qt: 10 })
    expect(done.body.detail.work_order).toMatchObject({ completed_qt: 10, status: 'completed' })
    expect((await eventsOf(h.svc.db, 'WORK_ORDER_COMPLETED')).some((e) => e.subject_key === wo.id)).toBe(true)
    // Back down: the job opens again, the work order too.
    const reopened = await update({ job_key: test, action: 'update_progress', completed_qt: 9 })
    expect(reopened.body.detail).toMatchObject({ status: 'paused', closed_at: null, work_order: { completed_qt: 9, status: 'active' } })
    const events = (await eventsOf(h.svc.db, 'JOB_PROGRESS_UPDATED')).filter((e) => e.subject_key === cut)
    expect(events[0]?.data).toEqual({
      work_order_key: wo.id,
      phase_key: wo.phases[0],
      completed_qt: { from: 0, to: 3 },
      released: 3,
      released_back: 0,
      status: { from: 'queued', to: 'paused' },
      changed: ['completed_qt', 'released_qt', 'status'],
      changes: { completed_qt: { from: 0, to: 3 }, released_qt: { from: 0, to: 3 }, status: { from: 'queued', to: 'paused' } },
    })
    // The same value again changes nothing.
    const count = (await eventsOf(h.svc.db, 'JOB_PROGRESS_UPDATED')).length
    expect((await update({ job_key: test, action: 'update_progress', completed_qt: 9 })).status).toBe(200)
    expect((await eventsOf(h.svc.db, 'JOB_PROGRESS_UPDATED')).length).toBe(count)
  })

  test('update progress is refused with active pieces, with traceability, and while running', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    await setJobState(h.svc.db, wo.jobs[0]!, { status: 'paused', active_qt: 2 }, now())
    await refused({ job_key: wo.jobs[0], action: 'update_progress', completed_qt: 1 }, 409, 'JOB_HAS_ACTIVE_PIECES')
    const tracedWo = await makeWorkOrder(h.svc.db, traced, { quantity: 5, operator: op })
    await refused({ job_key: tracedWo.jobs[0], action: 'update_progress', completed_qt: 1 }, 409, 'JOB_HAS_TRACEABILITY')
    const detail = await h.request('GET', `/api/job/${tracedWo.jobs[0]}`, { token: production })
    expect(detail.body.detail.has_traceability).toBe(true)
    const running = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    await setJobState(h.svc.db, running.jobs[0]!, { running: true }, now())
    await refused({ job_key: running.jobs[0], action: 'update_progress', completed_qt: 1 }, 409, 'JOB_RUNNING')
    await refused({ job_key: running.jobs[0], action: 'reset_progress' }, 409, 'JOB_NO_PROGRESS')
  })

  test('update times: started jobs only', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    await refused({ job_key: wo.jobs[0], action: 'update_times', time_spent_ms: 60_000 }, 409, 'JOB_NOT_STARTED')
    await setJobState(h.svc.db, wo.jobs[0]!, { status: 'paused', time_spent_ms: 90_000 }, now())
    const res = await update({ job_key: wo.jobs[0], action: 'update_times', time_spent_ms: 3_600_000 })
    expect(res.status).toBe(200)
    expect(res.body.detail.time_spent_ms).toBe(3_600_000)
    const [event] = (await eventsOf(h.svc.db, 'JOB_TIMES_UPDATED')).filter((e) => e.subject_key === wo.jobs[0])
    expect(event?.data).toMatchObject({ time_spent_ms: { from: 90_000, to: 3_600_000 }, changes: { time_spent_ms: { from: 90_000, to: 3_600_000 } } })
    for (const bad of [-1, 1.5, 1e15]) {
      const r = await update({ job_key: wo.jobs[0], action: 'update_times', time_spent_ms: bad })
      expect({ bad, status: r.status, code: appCode(r.body) }).toEqual({ bad, status: 400, code: 'INVALID_INPUT' })
    }
  })

  test('pause job: running jobs only; the work session ends and its time is counted', async () => {
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
    const [job] = wo.jobs as [string]
    await refused({ job_key: job, action: 'pause' }, 409, 'JOB_NOT_RUNNING')
    await setJobState(h.svc.db, job, { running: true, active_qt: 2, time_spent_ms: 1_000 }, now())
    const res = await update({ job_key: job, action: 'pause' })
    expect(res.status).toBe(200)
    // The fixture's session started 10 minutes ago; the open batch stays.
    expect(res.body.detail).toMatchObject({ active: false, status: 'paused', time_spent_ms: 601_000, active_qt: 2 })
    const session = await h.svc.db.selectFrom('work_sessions').selectAll().where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(session.ended_at?.getTime()).toBe(now().getTime())
    expect(session.end_reason).toBe('paused_by_production')
    const [event] = (await eventsOf(h.svc.db, 'JOB_PAUSED')).filter((e) => e.subject_key === job)
    expect(event?.data).toEqual({
      work_order_key: wo.id,
      phase_key: wo.phases[0],
      work_session_key: session.id,
      reason: 'paused_by_production',
      elapsed_ms: 600_000,
    })
    await refused({ job_key: job, action: 'pause' }, 409, 'JOB_NOT_RUNNING')
  })

  test('the server refuses exactly what correctionRefusal says, whatever the state', async () => {
    const states: { spec: JobStateSpec }[] = [
      { spec: {} },
      { spec: { status: 'paused', completed: 2 } },
      { spec: { status: 'paused', active_qt: 2 } },
      { spec: { running: true, completed: 1, active_qt: 1 } },
      { spec: { running: true } },
      { spec: { status: 'closed', completed: 10 } },
    ]
    for (const { spec } of states) {
      for (const action of JOB_CORRECTIONS) {
        const wo: MadeWorkOrder = await makeWorkOrder(h.svc.db, product, { quantity: 10, operator: op })
        const key = wo.jobs[0]!
        await setJobState(h.svc.db, key, spec, now())
        const job = await jobRow(h.svc.db, key)
        const expected: CorrectionRefusal | null = correctionRefusal(action, job)
        const body: Body = { job_key: key, action }
        if (action === 'update_progress') body.completed_qt = Math.min(job.quantity, job.completed_qt + 1)
        if (action === 'update_times') body.time_spent_ms = 5_000
        const res = await update(body)
        const code = res.status === 200 ? null : appCode(res.body)
        expect({ spec, action, code }).toEqual({ spec, action, code: expected })
      }
    }
  })

  test('unknown jobs, archived work orders, permissions; tRPC calls the same rules', async () => {
    const missing = await update({ job_key: MISSING_UUID, action: 'pause' })
    expect({ status: missing.status, code: appCode(missing.body) }).toEqual({ status: 404, code: 'UNKNOWN_JOB' })
    const archived = await makeWorkOrder(h.svc.db, product, { quantity: 1, archived: true })
    await refused({ job_key: archived.jobs[0], action: 'update_times', time_spent_ms: 1 }, 409, 'WORK_ORDER_ARCHIVED')
    for (const bad of [{ job_key: MISSING_UUID, action: 'explode' }, { job_key: 'x', action: 'pause' }, { job_key: MISSING_UUID, action: 'update_progress' }]) {
      expect((await update(bad)).status).toBe(400)
    }
    const operator = (await userWithScope(h, 'op.user', 'operator')).token
    const wo = await makeWorkOrder(h.svc.db, product, { quantity: 3 })
    expect(appCode((await update({ job_key: wo.jobs[0], action: 'pause' }, operator)).body)).toBe('NOT_AUTHORISED')
    const viaTrpc = await trpcCall(h, 'jobs.update', 'mutation', { job_key: wo.jobs[0], action: 'update_progress', completed_qt: 1 }, { token: production })
    expect(viaTrpc.body.result.data.completed_qt).toBe(1)
    const refusedTrpc = await trpcCall(h, 'jobs.update', 'mutation', { job_key: wo.jobs[0], action: 'pause' }, { token: production })
    expect(refusedTrpc.body.error.data.appCode).toBe('JOB_NOT_RUNNING')
  })
})

export type { Harness }
