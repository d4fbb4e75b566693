import { describe, expect, test } from 'bun:test'
import { CLIENT_TIME_SKEW_MS } from '../../../src/domains/execution/rules'
import { useHarness } from '../../test/harness'
import { completeBatch } from './batches'
import { pauseJob, startJobs } from './start-pause'
import { completeStep, saveStep } from './steps'
import { sweepOffline } from './sweep'
import { eventsOf, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { workSession } from './work-session'

const SECOND = 1000
const MAX_OFFLINE_S = 120

/**
 * Writes kept on the tablet while offline and sent later (issue 24): each carries the time it was
 * made (`client_time`), recorded in its events; one made longer ago than the phase's max_offline,
 * or ahead of the server's clock past the skew, is refused with its code and writes nothing; a
 * retry of a write already accepted answers its first outcome even when its client time has aged.
 */
describe('execution: client_time of writes kept offline', () => {
  const h = useHarness()
  let op: Operator

  const startedJob = async (params: Record<string, unknown> = {}, steps?: { type: 'instruction' }[]) => {
    const s = await makeSetup(h.svc.db, { quantity: 1, operator: op.key, phases: [{ params: { max_offline: MAX_OFFLINE_S, production_batch_qt: 1, ...params }, steps }] })
    const job = s.jobs[0]![0]!
    await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })
    const view = await workSession(h.svc, op.actor, job)
    return { s, job, batch: view.batch!._key, steps: s.phases[0]!.steps, field: Object.values(s.phases[0]!.fields[1] ?? {})[0]! }
  }
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      return { status: (e as { status: number }).status, code: (e as { appCode: string }).appCode }
    }
    throw new Error('expected a refusal')
  }

  test('setup', async () => {
    op = await makeOperator(h, 'op.client-time')
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
  })

  test('a write made longer ago than max_offline is refused (409 CLIENT_TIME_PAST_MAX_OFFLINE) and writes nothing', async () => {
    const { job, batch, steps } = await startedJob({ step_check: true })
    const madeAt = h.clock.now().getTime()
    h.clock.advance((MAX_OFFLINE_S + 1) * SECOND)
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

  test('max_offline 0 (never paused for silence): no age limit; a job force-paused meanwhile refuses the write as not running', async () => {
    const never = await startedJob({ step_check: true, max_offline: 0 })
    const madeAt = h.clock.now().getTime()
    h.clock.advance(3_600 * SECOND)
    await completeStep(h.svc, op.actor, { batch_key: never.batch, step_key: never.steps[0]!._key, idempotency_key: newKey(), client_time: madeAt })
    await pauseJob(h.svc, op.actor, { job_key: never.job, idempotency_key: newKey() })

    const silent = await startedJob({ step_check: true })
    const silentAt = h.clock.now().getTime()
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    expect(await sweepOffline(h.svc)).toContain(silent.job)
    expect(
      await refusal(completeStep(h.svc, op.actor, { batch_key: silent.batch, step_key: silent.steps[0]!._key, idempotency_key: newKey(), client_time: silentAt + SECOND })),
    ).toEqual({ status: 409, code: 'JOB_NOT_RUNNING' })
  })
})
