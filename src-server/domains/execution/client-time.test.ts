import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { CLIENT_TIME_SKEW_MS } from '../../../src/domains/execution/rules'
import type { Db } from '../../db/connect'
import type { AppError } from '../../errors'
import { useHarness } from '../../test/harness'
import { assignJobs } from '../jobs/assign'
import { updateJob as productionUpdate } from '../jobs/corrections'
import { completeBatch } from './batches'
import { heartbeat } from './heartbeat'
import { pauseJob, resumeJob, startJobs } from './start-pause'
import { completeStep, saveStep } from './steps'
import { sweepOffline } from './sweep'
import { eventsOf, jobRow, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { workSession } from './work-session'

const SECOND = 1000
const MAX_OFFLINE_S = 120

/**
 * Writes kept on the tablet while offline and sent later (issue 24): each carries the time it was
 * made (`client_time`), recorded in its events; one ahead of the server's clock past the skew is
 * refused; a retry of a write already accepted answers its first outcome even when its client
 * time has aged. A job still running refuses one made longer ago than max_offline. A job the
 * server force-paused for silence meanwhile judges each by that pause point: made before it,
 * accepted into the paused job (which stays paused); made after it, refused as past max_offline.
 */
describe('execution: client_time of writes kept offline', () => {
  const h = useHarness()
  let op: Operator
  let other: Operator
  let production: Operator

  const startedJob = async (params: Record<string, unknown> = {}, steps?: { type: 'instruction' }[], quantity = 1) => {
    const s = await makeSetup(h.svc.db, { quantity, operator: op.key, phases: [{ params: { max_offline: MAX_OFFLINE_S, production_batch_qt: 1, ...params }, steps }] })
    const job = s.jobs[0]![0]!
    await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })
    const view = await workSession(h.svc, op.actor, job)
    return { s, job, batch: view.batch!._key, steps: s.phases[0]!.steps, field: Object.values(s.phases[0]!.fields[1] ?? {})[0]! }
  }
  const refused = async (p: Promise<unknown>): Promise<AppError> => {
    try {
      await p
    } catch (e) {
      return e as AppError
    }
    throw new Error('expected a refusal')
  }
  const refusal = async (p: Promise<unknown>) => {
    const e = await refused(p)
    return { status: e.status, code: e.appCode }
  }
  const beat = (job: string) => heartbeat(h.svc, op.actor, { job_key: job }, { sessionLocked: false })
  const kinds = ['JOB_PAUSE_FORCED', 'JOB_PAUSED', 'STEP_COMPLETED', 'STEP_EDITED', 'BATCH_COMPLETED', 'ACTIVE_BATCH_CHANGED']
  /** The job's execution events after its start (which opened the first batch), with their client times. */
  const timeline = async (job: string) => {
    const events = (await eventsOf(h.svc.db, job)).filter((e) => kinds.includes(e.event_type))
    expect(events[0]).toMatchObject({ event_type: 'ACTIVE_BATCH_CHANGED', data: { previous_batch_key: null } })
    return events.slice(1).map((e) => [e.event_type, (e.data as { client_time?: number }).client_time ?? null])
  }
  const stepRows = (batch: string) =>
    h.svc.db.selectFrom('batch_steps').select(['step_key', 'done', 'done_at', 'form_data']).where('batch_id', '=', batch).orderBy('position').execute()

  test('setup', async () => {
    op = await makeOperator(h, 'op.client-time')
    other = await makeOperator(h, 'op.client-time-2')
    production = await makeOperator(h, 'prod.client-time', 'production')
  }, 60_000)

  test('steps, answers and the batch made offline are recorded with their client time, in order, once', async () => {
    const { job, batch, steps, field } = await startedJob({ step_check: true })
    const madeAt = h.clock.now().getTime()
    h.clock.advance(90 * SECOND)
    const first = { batch_key: batch, step_key: steps[0]!._key, idempotency_key: newKey(), client_time: madeAt }
    await completeStep(h.svc, op.actor, first)
    const answer = { field_key: field, value: 'misura 12,5' }
    await saveStep(h.svc, op.actor, { batch_key: batch, step_key: steps[1]!._key, form_data: [answer], idempotency_key: newKey(), client_time: madeAt + SECOND })
    const last = { batch_key: batch, step_key: steps[1]!._key, idempotency_key: newKey(), client_time: madeAt + 2 * SECOND }
    const out = await completeStep(h.svc, op.actor, last)
    expect(out.completed_batch?._key).toBe(batch)
    // The same write sent again (the answer was lost on the way back): its first outcome, nothing new.
    h.clock.advance(MAX_OFFLINE_S * SECOND)
    expect(await completeStep(h.svc, op.actor, last)).toEqual(out)
    expect(await completeStep(h.svc, op.actor, first)).toMatchObject({ next: 'continue' })

    const events = (await eventsOf(h.svc.db, job)).filter((e) => ['STEP_COMPLETED', 'STEP_EDITED', 'BATCH_COMPLETED'].includes(e.event_type))
    expect(events.map((e) => [e.event_type, (e.data as { client_time?: number }).client_time])).toEqual([
      ['STEP_COMPLETED', madeAt],
      ['STEP_EDITED', madeAt + SECOND],
      ['STEP_COMPLETED', madeAt + 2 * SECOND],
      ['BATCH_COMPLETED', madeAt + 2 * SECOND],
    ])
    // The step and the batch are dated when they were done on the tablet.
    const batchRow = await h.svc.db.selectFrom('batches').select('completed_at').where('id', '=', batch).executeTakeFirstOrThrow()
    expect(batchRow.completed_at?.getTime()).toBe(madeAt + 2 * SECOND)
    expect((await stepRows(batch)).map((r) => r.done_at?.getTime())).toEqual([madeAt, madeAt + 2 * SECOND])
  })

  test('a job still running (it beats) refuses a write made longer ago than max_offline (409 CLIENT_TIME_PAST_MAX_OFFLINE), writing nothing', async () => {
    const { job, batch, steps } = await startedJob({ step_check: true })
    const madeAt = h.clock.now().getTime()
    h.clock.advance(100 * SECOND)
    await beat(job)
    h.clock.advance(21 * SECOND)
    const before = (await eventsOf(h.svc.db, job)).length
    expect(await refusal(completeStep(h.svc, op.actor, { batch_key: batch, step_key: steps[0]!._key, idempotency_key: newKey(), client_time: madeAt }))).toEqual({
      status: 409,
      code: 'CLIENT_TIME_PAST_MAX_OFFLINE',
    })
    expect(await refusal(pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey(), client_time: madeAt }))).toEqual({
      status: 409,
      code: 'CLIENT_TIME_PAST_MAX_OFFLINE',
    })
    expect(await eventsOf(h.svc.db, job)).toHaveLength(before)
    expect((await jobRow(h.svc.db, job)).active).toBe(true)
    // Within max_offline it goes through, and the pause records when it was made.
    const paused = await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey(), client_time: h.clock.now().getTime() - 5 * SECOND })
    expect(paused.job.active).toBe(false)
    const [pause] = await eventsOf(h.svc.db, job, 'JOB_PAUSED')
    expect(pause!.data).toMatchObject({ client_time: h.clock.now().getTime() - 5 * SECOND })
  })

  test('a client time ahead of the server past the skew is refused (400 CLIENT_TIME_IN_FUTURE); within it, accepted', async () => {
    const { batch } = await startedJob({ step_check: false }, [{ type: 'instruction' }])
    const now = h.clock.now().getTime()
    expect(await refusal(completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey(), client_time: now + CLIENT_TIME_SKEW_MS + SECOND }))).toEqual({
      status: 400,
      code: 'CLIENT_TIME_IN_FUTURE',
    })
    const out = await completeBatch(h.svc, op.actor, { batch_key: batch, idempotency_key: newKey(), client_time: now + SECOND })
    expect(out.completed_batch?._key).toBe(batch)
  })

  test('max_offline 0 (never paused for silence): no age limit', async () => {
    const never = await startedJob({ step_check: true, max_offline: 0 })
    const madeAt = h.clock.now().getTime()
    h.clock.advance(3_600 * SECOND)
    expect(await sweepOffline(h.svc)).not.toContain(never.job)
    await completeStep(h.svc, op.actor, { batch_key: never.batch, step_key: never.steps[0]!._key, idempotency_key: newKey(), client_time: madeAt })
    await pauseJob(h.svc, op.actor, { job_key: never.job, idempotency_key: newKey() })
  })

  test('the sweep force-paused the job: the writes made before its pause point are accepted into the paused job, in order, once; those made after it are refused with the max_offline reason, item by item', async () => {
    const { job, batch, steps, field } = await startedJob({ step_check: true })
    const lastContact = h.clock.now().getTime() // the start is the job's last sign of life
    const at = (s: number) => lastContact + s * SECOND
    const answer = { field_key: field, value: 'misura 12,5' }
    const w1 = { batch_key: batch, step_key: steps[0]!._key, idempotency_key: newKey(), client_time: at(10) }
    const w2 = { batch_key: batch, step_key: steps[1]!._key, form_data: [answer], idempotency_key: newKey(), client_time: at(20) }
    // Made after the pause point (a tablet whose max_offline was longer than the server's, or whose clock ran ahead).
    const w3 = { batch_key: batch, step_key: steps[1]!._key, idempotency_key: newKey(), client_time: at(MAX_OFFLINE_S + 5) }
    const w4 = { job_key: job, idempotency_key: newKey(), client_time: at(MAX_OFFLINE_S + 6) }
    h.clock.advance((MAX_OFFLINE_S + 10) * SECOND)
    expect(await sweepOffline(h.svc)).toContain(job)
    // The tablet comes back long after: every write is older than max_offline by now.
    h.clock.advance(600 * SECOND)

    const out1 = await completeStep(h.svc, op.actor, w1)
    expect(out1).toMatchObject({ next: 'paused', job: { active: false, status: 'paused', paused_offline: true }, completed_batch: null })
    expect(await saveStep(h.svc, op.actor, w2)).toMatchObject({ next: 'paused' })
    const late = await refused(completeStep(h.svc, op.actor, w3))
    expect({ status: late.status, code: late.appCode }).toEqual({ status: 409, code: 'CLIENT_TIME_PAST_MAX_OFFLINE' })
    expect(late.extra).toMatchObject({ client_time: at(MAX_OFFLINE_S + 5), paused_at: at(MAX_OFFLINE_S), max_offline_s: MAX_OFFLINE_S })
    expect(await refusal(pauseJob(h.svc, op.actor, w4))).toEqual({ status: 409, code: 'CLIENT_TIME_PAST_MAX_OFFLINE' })
    // Sent again (the answers were lost on the way back): their first outcomes, nothing new; the refused one stays refused.
    expect(await completeStep(h.svc, op.actor, w1)).toEqual(out1)
    expect(await refusal(completeStep(h.svc, op.actor, w3))).toEqual({ status: 409, code: 'CLIENT_TIME_PAST_MAX_OFFLINE' })

    expect(await timeline(job)).toEqual([
      ['JOB_PAUSE_FORCED', null],
      ['STEP_COMPLETED', at(10)],
      ['STEP_EDITED', at(20)],
    ])
    // The job stays paused for silence with its batch open, holding what was accepted (the step dated when it was done).
    expect(await jobRow(h.svc.db, job)).toMatchObject({ active: false, status: 'paused', paused_offline: true, active_batch_id: batch, time_spent_ms: MAX_OFFLINE_S * SECOND })
    const rows = await stepRows(batch)
    expect(rows.map((r) => [r.done, r.done_at?.getTime() ?? null, r.form_data])).toEqual([
      [true, at(10), []],
      [false, null, [answer]],
    ])
    // The operator resumes as today and completes the refused step online.
    await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    const done = await completeStep(h.svc, op.actor, { batch_key: batch, step_key: steps[1]!._key, idempotency_key: newKey() })
    expect(done.completed_batch?._key).toBe(batch)
  })

  test('a batch completion and a pause made before the pause point: progress, the batch, the work time and the daily rollup follow; the job stays paused and opens no batch until resumed', async () => {
    const { s, job, batch, steps, field } = await startedJob({ step_check: true, auto_new_batch: true }, undefined, 2)
    const lastContact = h.clock.now().getTime()
    const at = (sec: number) => lastContact + sec * SECOND
    h.clock.advance((MAX_OFFLINE_S + 3) * SECOND)
    expect(await sweepOffline(h.svc)).toContain(job)
    h.clock.advance(300 * SECOND)

    await completeStep(h.svc, op.actor, { batch_key: batch, step_key: steps[0]!._key, idempotency_key: newKey(), client_time: at(10) })
    const answer = { field_key: field, value: 'coppia 7,25' }
    const last = { batch_key: batch, step_key: steps[1]!._key, form_data: [answer], idempotency_key: newKey(), client_time: at(20) }
    const completed = await completeStep(h.svc, op.actor, last)
    expect(completed).toMatchObject({
      completed_batch: { _key: batch, qt_total: 1 },
      next: 'paused',
      batch: null,
      job: { active: false, status: 'paused', completed_qt: 1, active_qt: 0, active_batch_key: null },
    })
    const paused = await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey(), client_time: at(30) })
    expect(paused.job).toMatchObject({ active: false, status: 'paused', paused_offline: false, time_spent_ms: 30 * SECOND })
    expect(await completeStep(h.svc, op.actor, last)).toEqual(completed)

    expect(await timeline(job)).toEqual([
      ['JOB_PAUSE_FORCED', null],
      ['STEP_COMPLETED', at(10)],
      ['STEP_EDITED', at(20)],
      ['STEP_COMPLETED', at(20)],
      ['BATCH_COMPLETED', at(20)],
      ['ACTIVE_BATCH_CHANGED', null],
      ['JOB_PAUSED', at(30)],
    ])
    const [pause] = await eventsOf(h.svc.db, job, 'JOB_PAUSED')
    expect(pause!.data).toMatchObject({ reason: 'user', duration_ms: 30 * SECOND, after_forced_pause: { ended_at_before: at(MAX_OFFLINE_S), cut_ms: (MAX_OFFLINE_S - 30) * SECOND } })
    const b = await h.svc.db.selectFrom('batches').select(['status', 'completed_at', 'completed_by']).where('id', '=', batch).executeTakeFirstOrThrow()
    expect(b).toEqual({ status: 'completed', completed_at: new Date(at(20)), completed_by: op.key })
    const session = await h.svc.db.selectFrom('work_sessions').select(['ended_at', 'end_reason']).where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(session).toEqual({ ended_at: new Date(at(30)), end_reason: 'user' })
    const material = await h.svc.db.selectFrom('work_order_phases').select(['taken_qt', 'completed_qt']).where('work_order_id', '=', s.workOrderKey).executeTakeFirstOrThrow()
    expect(material).toEqual({ taken_qt: 1, completed_qt: 1 })
    // The daily rollup (kept by the triggers on work_sessions and batches) as it is, and as a rebuild from scratch makes it.
    const rollupOf = async (db: Db) =>
      (
        await sql<Record<string, unknown>>`select user_id, sessions, run_ms::float8 as run_ms, pause_ms::float8 as pause_ms, offline_ms::float8 as offline_ms,
          batches, pieces::int as pieces from report_daily where job_id = ${job}`.execute(db)
      ).rows
    const rollup = async () => {
      const kept = await rollupOf(h.svc.db)
      let rebuilt: unknown = null
      await h.svc.db
        .transaction()
        .execute(async (trx) => {
          await sql`select report_daily_rebuild()`.execute(trx)
          rebuilt = await rollupOf(trx)
          throw new Error('rollback')
        })
        .catch((e: Error) => {
          if (e.message !== 'rollback') throw e
        })
      expect(rebuilt).toEqual(kept)
      return kept
    }
    expect(await rollup()).toEqual([{ user_id: op.key, sessions: 1, run_ms: 30 * SECOND, pause_ms: 0, offline_ms: 0, batches: 1, pieces: 1 }])

    // Resumed as today: a new session and the next batch; the time between counts as the operator's pause.
    const resumed = await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    expect(resumed.batch).toMatchObject({ number: 2, qt_total: 1 })
    const gap = h.clock.now().getTime() - at(30)
    expect(await rollup()).toEqual([{ user_id: op.key, sessions: 2, run_ms: 30 * SECOND, pause_ms: gap, offline_ms: 0, batches: 1, pieces: 1 }])
    await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
  })

  test('before the sweep ran: a kept write reaching a job silent past max_offline force-pauses it by the same rule, then is judged by that pause point', async () => {
    const { job, batch, steps } = await startedJob({ step_check: true })
    const lastContact = h.clock.now().getTime()
    h.clock.advance(200 * SECOND)
    const after = { batch_key: batch, step_key: steps[0]!._key, idempotency_key: newKey(), client_time: lastContact + (MAX_OFFLINE_S + 10) * SECOND }
    expect(await refusal(completeStep(h.svc, op.actor, after))).toEqual({ status: 409, code: 'CLIENT_TIME_PAST_MAX_OFFLINE' })
    // The refusal wrote nothing, the pause included.
    expect((await jobRow(h.svc.db, job)).active).toBe(true)
    const out = await completeStep(h.svc, op.actor, { batch_key: batch, step_key: steps[0]!._key, idempotency_key: newKey(), client_time: lastContact + 10 * SECOND })
    expect(out).toMatchObject({ next: 'paused', job: { active: false, paused_offline: true } })
    expect(await timeline(job)).toEqual([
      ['JOB_PAUSE_FORCED', null],
      ['STEP_COMPLETED', lastContact + 10 * SECOND],
    ])
    const session = await h.svc.db.selectFrom('work_sessions').select(['ended_at', 'end_reason']).where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(session).toEqual({ ended_at: new Date(lastContact + MAX_OFFLINE_S * SECOND), end_reason: 'offline' })
    expect(await sweepOffline(h.svc)).not.toContain(job)
  })

  test('paused by production, reassigned, written online or made before the closed session: refused as before', async () => {
    // Production pauses the job while the tablet is offline: the sweep leaves a paused job alone.
    const a = await startedJob({ step_check: true })
    const aStart = h.clock.now().getTime()
    h.clock.advance(30 * SECOND)
    await productionUpdate(h.svc, production.actor, { job_key: a.job, action: 'pause' })
    h.clock.advance(200 * SECOND)
    expect(await sweepOffline(h.svc)).not.toContain(a.job)
    const aWrite = { batch_key: a.batch, step_key: a.steps[0]!._key, idempotency_key: newKey(), client_time: aStart + 10 * SECOND }
    expect(await refusal(completeStep(h.svc, op.actor, aWrite))).toEqual({ status: 409, code: 'JOB_NOT_RUNNING' })

    // Force-paused by the sweep, then given to another operator.
    const b = await startedJob({ step_check: true })
    const bStart = h.clock.now().getTime()
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    expect(await sweepOffline(h.svc)).toContain(b.job)
    await assignJobs(h.svc, production.actor, { job_keys: [b.job], operator_key: other.key })
    const bWrite = { batch_key: b.batch, step_key: b.steps[0]!._key, idempotency_key: newKey(), client_time: bStart + 10 * SECOND }
    expect(await refusal(completeStep(h.svc, op.actor, bWrite))).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })

    // Force-paused by the sweep: a write sent online (no client time), or one made before the session the pause closed.
    const c = await startedJob({ step_check: true })
    const cStart = h.clock.now().getTime()
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    expect(await sweepOffline(h.svc)).toContain(c.job)
    const step = { batch_key: c.batch, step_key: c.steps[0]!._key }
    expect(await refusal(completeStep(h.svc, op.actor, { ...step, idempotency_key: newKey() }))).toEqual({ status: 409, code: 'JOB_NOT_RUNNING' })
    const before = cStart - CLIENT_TIME_SKEW_MS - SECOND
    expect(await refusal(completeStep(h.svc, op.actor, { ...step, idempotency_key: newKey(), client_time: before }))).toEqual({ status: 409, code: 'JOB_NOT_RUNNING' })
    expect(await refusal(pauseJob(h.svc, op.actor, { job_key: c.job, idempotency_key: newKey() }))).toEqual({ status: 409, code: 'JOB_NOT_RUNNING' })
    for (const j of [a.job, b.job, c.job]) expect(await eventsOf(h.svc.db, j, 'STEP_COMPLETED')).toEqual([])
  })
})
