import { describe, expect, test } from 'bun:test'
import { useHarness } from '../../test/harness'
import { componentBatch } from './batches'
import { newBatch, pauseJob, resumeJob, startJobs } from './start-pause'
import { completeStep } from './steps'
import { eventsOf, jobRow, makeOperator, makeSetup, materialRows, newKey, type Operator, runBatch } from './test-fixtures'

/**
 * Batches and material flow (DOMAIN.md "Running a job", "Material flow between phases"):
 * batch sizes, the last smaller, never above the released material, auto_new_batch, release
 * styles across three phases, consumption per bom, job close and work order progress.
 */
describe('execution: batches, material flow, job close', () => {
  const h = useHarness()
  let op: Operator
  let op2: Operator
  // These tests leave jobs running side by side: their phases allow parallel work (the rule has its own tests).
  const setup = (opts: Omit<Parameters<typeof makeSetup>[1], 'defaults'>) => makeSetup(h.svc.db, { ...opts, defaults: { parallel_job_allowed: true } })
  const start = (keys: string[], who = op) => startJobs(h.svc, who.actor, { job_keys: keys, idempotency_key: newKey() })
  const run = (batchKey: string, who = op) => runBatch(h.svc, who.actor, batchKey, completeStep)
  const refused = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      return { status: (e as { status?: number }).status, code: (e as { appCode?: string }).appCode }
    }
    throw new Error('expected a refusal')
  }

  test('setup', async () => {
    op = await makeOperator(h, 'op.batches')
    op2 = await makeOperator(h, 'op.batches2')
  }, 60_000)

  test('start opens a work session and a batch of production_batch_qt; events with user, session and server time', async () => {
    const s = await setup({ phases: [{ params: { production_batch_qt: 4 } }], quantity: 10, operator: op.key })
    const job = s.jobs[0]![0]!
    h.clock.advance(1000)
    const out = (await start([job])).jobs[0]!
    expect(out.next).toBe('continue')
    expect(out.job).toMatchObject({ status: 'started', active: true, active_qt: 4, completed_qt: 0, remaining_qt: 6, available_qt: 6 })
    expect(out.batch).toMatchObject({ qt_total: 4, number: 1, status: 'open' })
    expect(out.batch!.step_data.map((d) => d._key)).toEqual(s.phases[0]!.steps.map((st) => st._key))
    const ws = await h.svc.db.selectFrom('work_sessions').selectAll().where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(ws).toMatchObject({ id: out.job.work_session_key, user_id: op.key, auth_session_id: op.actor.sessionId, ended_at: null })
    const [mat] = await materialRows(h.svc.db, s.workOrderKey)
    expect(mat).toMatchObject({ released_in_qt: 10, taken_qt: 4 })
    const events = await eventsOf(h.svc.db, job)
    expect(events.map((e) => e.event_type)).toEqual(['JOB_STARTED', 'ACTIVE_BATCH_CHANGED'])
    for (const e of events) {
      expect(e).toMatchObject({ user_id: op.key, session_id: op.actor.sessionId, subject_type: 'job' })
      expect(e.created_at.getTime()).toBe(h.clock.now().getTime())
    }
    expect(events[1]!.data).toMatchObject({ batch_key: out.batch!._key, qt_total: 4 })
  })

  test('batches of production_batch_qt, the last one smaller; auto_new_batch opens each; the job closes when done', async () => {
    const s = await setup({ phases: [{ params: { production_batch_qt: 4, auto_new_batch: true } }], quantity: 10, operator: op.key })
    const job = s.jobs[0]![0]!
    let out = (await start([job])).jobs[0]!
    const sizes: number[] = [out.batch!.qt_total]
    const nexts: string[] = []
    while (out.next !== 'job_closed') {
      out = await run(out.batch!._key)
      nexts.push(out.next)
      if (out.batch) sizes.push(out.batch.qt_total)
    }
    expect(sizes).toEqual([4, 4, 2])
    expect(nexts).toEqual(['batch_opened', 'batch_opened', 'job_closed'])
    expect(out.completed_batch).toMatchObject({ qt_total: 2 })
    expect(out.job).toMatchObject({ status: 'closed', active: false, completed_qt: 10, active_qt: 0, remaining_qt: 0, released_qt: 10, work_session_key: null })
    expect(out.batch).toBeNull()
    const row = await jobRow(h.svc.db, job)
    expect(row.closed_at?.getTime()).toBe(h.clock.now().getTime())
    const ws = await h.svc.db.selectFrom('work_sessions').selectAll().where('job_id', '=', job).execute()
    expect(ws).toHaveLength(1)
    expect(ws[0]!.end_reason).toBe('closed')
    // Single phase = the last phase: the work order's progress and status follow.
    const wo = await h.svc.db.selectFrom('work_orders').selectAll().where('id', '=', s.workOrderKey).executeTakeFirstOrThrow()
    expect(wo).toMatchObject({ completed_qt: 10, status: 'completed' })
    const types = (await eventsOf(h.svc.db, job)).map((e) => e.event_type)
    expect(types.filter((t) => t === 'BATCH_COMPLETED')).toHaveLength(3)
    expect(types.at(-1)).toBe('JOB_CLOSED')
    expect((await eventsOf(h.svc.db, s.workOrderKey, 'WORK_ORDER_COMPLETED')).length).toBe(1)
    // A closed job cannot start again ('redirecting').
    expect(await refused(start([job]))).toEqual({ status: 409, code: 'JOB_CLOSED' })
  })

  test('production_batch_qt 0 = the whole job quantity in one batch', async () => {
    const s = await setup({ phases: [{ params: { production_batch_qt: 0 } }], quantity: 7, operator: op.key })
    const out = (await start([s.jobs[0]![0]!])).jobs[0]!
    expect(out.batch!.qt_total).toBe(7)
    const done = await run(out.batch!._key)
    expect(done.next).toBe('job_closed')
  })

  test('auto_new_batch off: the operator opens the next batch; only one open batch at a time', async () => {
    const s = await setup({ phases: [{ params: { production_batch_qt: 5, auto_new_batch: false } }], quantity: 8, operator: op.key })
    const job = s.jobs[0]![0]!
    const first = (await start([job])).jobs[0]!
    const after = await run(first.batch!._key)
    expect(after.next).toBe('await_new_batch')
    expect(after.batch).toBeNull()
    expect(after.job).toMatchObject({ active: true, status: 'started', completed_qt: 5, active_batch_key: null, available_qt: 3 })
    const opened = await newBatch(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    expect(opened.batch).toMatchObject({ qt_total: 3, number: 2 })
    expect(await refused(newBatch(h.svc, op.actor, { job_key: job, idempotency_key: newKey() }))).toEqual({ status: 409, code: 'BATCH_ALREADY_OPEN' })
    expect((await run(opened.batch!._key)).next).toBe('job_closed')
  })

  test('release styles across three phases: continuous, release_batch, job; batches never above the released material', async () => {
    const s = await setup({
      phases: [
        { params: { production_batch_qt: 3, release_style: 'continuous', auto_new_batch: false } },
        { params: { production_batch_qt: 0, release_style: 'release_batch', release_batch_qt: 4 } },
        { params: { production_batch_qt: 0, release_style: 'job' } },
      ],
      quantity: 10,
      operator: op.key,
      jobs: [[10], [{ quantity: 10, operator: op2.key }], [{ quantity: 10, operator: op2.key }]],
    })
    const [j1, j2, j3] = [s.jobs[0]![0]!, s.jobs[1]![0]!, s.jobs[2]![0]!]
    const mat = async () => (await materialRows(h.svc.db, s.workOrderKey)).map((m) => [m.released_in_qt, m.taken_qt, m.completed_qt, m.released_out_qt])

    // Phase 2 has nothing yet: refused, and nothing written.
    const eventsBefore = (await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
    expect(await refused(start([j2], op2))).toEqual({ status: 422, code: 'NO_MATERIAL' })
    expect((await h.svc.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toBe(eventsBefore)
    expect((await jobRow(h.svc.db, j2)).status).toBe('queued')

    // Phase 1, batch of 3: continuous releases the 3 pieces at once.
    let p1 = (await start([j1])).jobs[0]!
    p1 = await run(p1.batch!._key)
    expect(p1.completed_batch!.released_qt).toBe(3)
    expect(await mat()).toEqual([
      [10, 3, 3, 3],
      [3, 0, 0, 0],
      [0, 0, 0, 0],
    ])

    // Phase 2 (batch 0 = whole quantity) takes only the 3 released pieces.
    let p2 = (await start([j2], op2)).jobs[0]!
    expect(p2.batch!.qt_total).toBe(3)
    p2 = await run(p2.batch!._key, op2)
    // 3 < release lot of 4: nothing released yet; no material for the next piece.
    expect(p2.completed_batch!.released_qt).toBe(0)
    expect(p2.next).toBe('no_material')
    expect(p2.job).toMatchObject({ active: true, available_qt: 0, released_qt: 0 })

    // Phase 1 releases 3 more: phase 2 opens a batch of 3 and releases one lot of 4.
    p1 = await newBatch(h.svc, op.actor, { job_key: j1, idempotency_key: newKey() })
    p1 = await run(p1.batch!._key)
    p2 = await newBatch(h.svc, op2.actor, { job_key: j2, idempotency_key: newKey() })
    expect(p2.batch!.qt_total).toBe(3)
    p2 = await run(p2.batch!._key, op2)
    expect(p2.completed_batch!.released_qt).toBe(4)
    expect(p2.job.released_qt).toBe(4)
    expect(await mat()).toEqual([
      [10, 6, 6, 6],
      [6, 6, 6, 4],
      [4, 0, 0, 0],
    ])

    // Phase 3 (job style) works the 4 pieces; releases nothing until it closes; the work order's progress follows the last phase.
    let p3 = (await start([j3], op2)).jobs[0]!
    expect(p3.batch!.qt_total).toBe(4)
    p3 = await run(p3.batch!._key, op2)
    expect(p3.completed_batch!.released_qt).toBe(0)
    let wo = await h.svc.db.selectFrom('work_orders').selectAll().where('id', '=', s.workOrderKey).executeTakeFirstOrThrow()
    expect(wo).toMatchObject({ completed_qt: 4, status: 'active' })

    // Phase 1 finishes (3 + 1): continuous releases every piece; its job closes.
    p1 = await newBatch(h.svc, op.actor, { job_key: j1, idempotency_key: newKey() })
    expect(p1.batch!.qt_total).toBe(3)
    p1 = await run(p1.batch!._key)
    p1 = await newBatch(h.svc, op.actor, { job_key: j1, idempotency_key: newKey() })
    expect(p1.batch!.qt_total).toBe(1)
    p1 = await run(p1.batch!._key)
    expect(p1.next).toBe('job_closed')

    // Phase 2 takes the last 4 (auto_new_batch), and closing releases the remainder (lot of 4 + 2 left).
    p2 = await newBatch(h.svc, op2.actor, { job_key: j2, idempotency_key: newKey() })
    expect(p2.batch!.qt_total).toBe(4)
    p2 = await run(p2.batch!._key, op2)
    expect(p2.next).toBe('job_closed')
    expect(p2.completed_batch!.released_qt).toBe(6)
    expect(p2.job.released_qt).toBe(10)

    // Phase 3 finishes; closing releases all 10 (finished goods); work order completed.
    p3 = await newBatch(h.svc, op2.actor, { job_key: j3, idempotency_key: newKey() })
    expect(p3.batch!.qt_total).toBe(6)
    p3 = await run(p3.batch!._key, op2)
    expect(p3.next).toBe('job_closed')
    expect(p3.completed_batch!.released_qt).toBe(10)
    expect(await mat()).toEqual([
      [10, 10, 10, 10],
      [10, 10, 10, 10],
      [10, 10, 10, 10],
    ])
    wo = await h.svc.db.selectFrom('work_orders').selectAll().where('id', '=', s.workOrderKey).executeTakeFirstOrThrow()
    expect(wo).toMatchObject({ completed_qt: 10, status: 'completed' })
  })

  test('release style job with two jobs in a phase: each job releases its own output when it closes', async () => {
    const s = await setup({
      phases: [{ params: { production_batch_qt: 0, release_style: 'job' } }, { params: { production_batch_qt: 0 } }],
      quantity: 10,
      operator: op.key,
      jobs: [[6, { quantity: 4, operator: op2.key }], [10]],
    })
    const [a, b] = s.jobs[0]!
    const outA = (await start([a!])).jobs[0]!
    const outB = (await start([b!], op2)).jobs[0]!
    expect([outA.batch!.qt_total, outB.batch!.qt_total]).toEqual([6, 4])
    const doneB = await run(outB.batch!._key, op2)
    expect(doneB.next).toBe('job_closed')
    expect(doneB.completed_batch!.released_qt).toBe(4)
    let m = await materialRows(h.svc.db, s.workOrderKey)
    expect([m[0]!.released_out_qt, m[1]!.released_in_qt]).toEqual([4, 4])
    expect((await jobRow(h.svc.db, a!)).released_qt).toBe(0)
    const doneA = await run(outA.batch!._key)
    expect(doneA.completed_batch!.released_qt).toBe(6)
    m = await materialRows(h.svc.db, s.workOrderKey)
    expect([m[0]!.released_out_qt, m[1]!.released_in_qt]).toEqual([10, 10])
  })

  test('no material for the next piece: next no_material, then the operator pauses (reason no_material)', async () => {
    const s = await setup({
      phases: [{ params: { production_batch_qt: 2, auto_new_batch: false } }, { params: { production_batch_qt: 5, auto_new_batch: true } }],
      quantity: 6,
      operator: op.key,
    })
    const [j1, j2] = [s.jobs[0]![0]!, s.jobs[1]![0]!]
    const p1 = (await start([j1])).jobs[0]!
    await run(p1.batch!._key)
    await pauseJob(h.svc, op.actor, { job_key: j1, idempotency_key: newKey() })
    const p2 = (await start([j2])).jobs[0]!
    expect(p2.batch!.qt_total).toBe(2)
    const done = await run(p2.batch!._key)
    expect(done.next).toBe('no_material')
    expect(done.job).toMatchObject({ active: true, active_batch_key: null, available_qt: 0 })
    expect(await refused(newBatch(h.svc, op.actor, { job_key: j2, idempotency_key: newKey() }))).toEqual({ status: 422, code: 'NO_MATERIAL' })
    const paused = await pauseJob(h.svc, op.actor, { job_key: j2, idempotency_key: newKey(), reason: 'no_material' })
    expect(paused.next).toBe('paused')
    expect(paused.job).toMatchObject({ active: false, status: 'paused' })
    const ev = (await eventsOf(h.svc.db, j2, 'JOB_PAUSED')).at(-1)!
    expect(ev.data).toMatchObject({ reason: 'no_material' })
    // Resuming without material is refused; nothing written.
    expect(await refused(resumeJob(h.svc, op.actor, { job_key: j2, idempotency_key: newKey() }))).toEqual({ status: 422, code: 'NO_MATERIAL' })
  })

  test('components consumed per bom (per item, per batch, per job) recorded in BATCH_COMPLETED; component-batch shows them', async () => {
    const s = await setup({
      phases: [
        {
          params: { production_batch_qt: 4 },
          bom: [
            { quantity: 2, quantity_per: 'item', code: 'SCREW-X' },
            { quantity: 1, quantity_per: 'batch', code: 'BOX-X' },
            { quantity: 5, quantity_per: 'job', code: 'JIG-X' },
          ],
        },
      ],
      quantity: 10,
      operator: op.key,
    })
    const job = s.jobs[0]![0]!
    let out = (await start([job])).jobs[0]!
    const cb = await componentBatch(h.svc, op.actor, out.batch!._key)
    expect(cb.qt_total).toBe(4)
    expect(cb.components.map((c) => [c.item_code, c.quantity, c.quantity_per, c.batch_quantity])).toEqual([
      ['SCREW-X', 2, 'item', 8],
      ['BOX-X', 1, 'batch', 1],
      ['JIG-X', 5, 'job', 5],
    ])
    const consumed: unknown[] = []
    while (out.next !== 'job_closed') {
      out = await run(out.batch!._key)
      consumed.push(out.completed_batch!.consumed.map((c) => [c.item_code, c.quantity]))
    }
    expect(consumed).toEqual([
      [
        ['SCREW-X', 8],
        ['BOX-X', 1],
        ['JIG-X', 5],
      ],
      [
        ['SCREW-X', 8],
        ['BOX-X', 1],
      ],
      [
        ['SCREW-X', 4],
        ['BOX-X', 1],
      ],
    ])
    const events = await eventsOf(h.svc.db, job, 'BATCH_COMPLETED')
    expect(events.map((e) => (e.data.consumed as { quantity: number }[]).reduce((n, c) => n + c.quantity, 0))).toEqual([14, 9, 5])
  })
})
