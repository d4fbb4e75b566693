import { describe, expect, test } from 'bun:test'
import { OFFLINE_SINCE_SKEW_MS } from '../../../src/domains/execution/rules'
import { appCode } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { heartbeat } from './heartbeat'
import * as offline from './offline'
import { pauseJob, resumeJob, startJobs } from './start-pause'
import { sweepOffline } from './sweep'
import { eventsOf, jobRow, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { workSession } from './work-session'

const SECOND = 1000
const MAX_OFFLINE_S = 60

/**
 * Offline periods (issue 11): one reconnection records one BACK_ONLINE whoever reports it and
 * however often; offline_since cannot lie in the future; the work time never runs backwards
 * around an offline period; a job silent since its start counts its work time up to the forced
 * pause.
 */
describe('execution: offline periods, back online, work time', () => {
  const h = useHarness()
  let op: Operator

  const oneJob = async () => {
    const s = await makeSetup(h.svc.db, { quantity: 2, operator: op.key, phases: [{ params: { max_offline: MAX_OFFLINE_S } }] })
    return s.jobs[0]![0]!
  }
  const start = (job: string) => startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })
  const beat = (job: string) => heartbeat(h.svc, op.actor, { job_key: job }, { sessionLocked: false })
  const backOnline = (job: string, offlineSince?: number) =>
    offline.backOnline(h.svc, op.actor, { job_key: job, idempotency_key: newKey(), ...(offlineSince === undefined ? {} : { offline_since: offlineSince }) })
  const backOnlineEvents = (job: string) => eventsOf(h.svc.db, job, 'BACK_ONLINE')
  const elapsed = async (job: string) => (await workSession(h.svc, op.actor, job)).timer.elapsed_ms
  /** Runs the job for 30 s with three heartbeats; returns the server time of the last one. */
  const runAndBeat = async (job: string) => {
    await start(job)
    let last = 0
    for (let i = 0; i < 3; i++) {
      h.clock.advance(10 * SECOND)
      last = (await beat(job)).server_time
    }
    return last
  }

  test('setup', async () => {
    op = await makeOperator(h, 'op.offline')
  }, 60_000)

  test('one reconnection = one BACK_ONLINE: the client calling back-online three times and the heartbeat record it once', async () => {
    const job = await oneJob()
    const lastBeat = await runAndBeat(job)
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([job])

    const first = await backOnline(job, lastBeat)
    expect(first).toMatchObject({ recorded: true, job: { active: false, paused_offline: true } })
    h.clock.advance(SECOND)
    expect((await backOnline(job, lastBeat)).recorded).toBe(false)
    expect((await backOnline(job, lastBeat)).recorded).toBe(false)
    expect(await beat(job)).toMatchObject({ running: false, reason: 'paused_offline', back_online: false })
    const events = await backOnlineEvents(job)
    expect(events).toHaveLength(1)
    expect(events[0]!.data).toMatchObject({ detected_by: 'client', offline_since: lastBeat, offline_ms: h.clock.now().getTime() - SECOND - lastBeat })

    // The next offline period is a new reconnection: recorded again, once.
    await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    h.clock.advance(45 * SECOND)
    expect((await beat(job)).back_online).toBe(true)
    expect((await backOnline(job)).recorded).toBe(false)
    expect((await beat(job)).back_online).toBe(false)
    expect(await backOnlineEvents(job)).toHaveLength(2)
    await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
  })

  test('the heartbeat first, then the client: still one BACK_ONLINE', async () => {
    const job = await oneJob()
    const lastBeat = await runAndBeat(job)
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    await sweepOffline(h.svc)
    expect((await beat(job)).back_online).toBe(true)
    expect((await backOnline(job, lastBeat)).recorded).toBe(false)
    const events = await backOnlineEvents(job)
    expect(events).toHaveLength(1)
    expect(events[0]!.data).toMatchObject({ detected_by: 'heartbeat', paused_offline: true, offline_since: lastBeat })
  })

  test('a retry with the same idempotency key answers the first outcome and writes nothing', async () => {
    const job = await oneJob()
    const lastBeat = await runAndBeat(job)
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    await sweepOffline(h.svc)
    const key = newKey()
    const a = await offline.backOnline(h.svc, op.actor, { job_key: job, idempotency_key: key, offline_since: lastBeat })
    const b = await offline.backOnline(h.svc, op.actor, { job_key: job, idempotency_key: key, offline_since: lastBeat })
    expect(b).toEqual(a)
    expect(await backOnlineEvents(job)).toHaveLength(1)
  })

  test('back online before the sweep ran: the job is force-paused by the same rule, then BACK_ONLINE once', async () => {
    const job = await oneJob()
    const lastBeat = await runAndBeat(job)
    h.clock.advance((MAX_OFFLINE_S + 3) * SECOND)
    const res = await backOnline(job, lastBeat)
    expect(res).toMatchObject({ recorded: true, job: { active: false, status: 'paused', paused_offline: true } })
    expect(await eventsOf(h.svc.db, job, 'JOB_PAUSE_FORCED')).toHaveLength(1)
    // 30 s of heartbeats plus the max_offline the client kept the session open.
    expect((await jobRow(h.svc.db, job)).time_spent_ms).toBe((30 + MAX_OFFLINE_S) * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([])
    expect(await backOnlineEvents(job)).toHaveLength(1)
  })

  test('offline_since in the future (beyond the clock skew) is refused with 400 and writes nothing; within it is accepted', async () => {
    const job = await oneJob()
    const lastBeat = await runAndBeat(job)
    h.clock.advance((MAX_OFFLINE_S + 5) * SECOND)
    await sweepOffline(h.svc)
    const future = h.clock.now().getTime() + OFFLINE_SINCE_SKEW_MS + SECOND
    const key = newKey()
    const res = await h.request('POST', `/api/job/${job}/back-online`, { token: op.token, body: { idempotency_key: key, offline_since: future } })
    expect(res.status).toBe(400)
    expect(appCode(res.body)).toBe('OFFLINE_SINCE_IN_FUTURE')
    expect(await backOnlineEvents(job)).toHaveLength(0)
    expect(await h.svc.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).toHaveLength(0)
    expect((await jobRow(h.svc.db, job)).last_heartbeat_at!.getTime()).toBe(lastBeat)

    const skewed = h.clock.now().getTime() + OFFLINE_SINCE_SKEW_MS - SECOND
    const ok = await h.request('POST', `/api/job/${job}/back-online`, { token: op.token, body: { idempotency_key: newKey(), offline_since: skewed } })
    expect(ok.status).toBe(200)
    expect(ok.body.detail.recorded).toBe(true)
    expect(await backOnlineEvents(job)).toHaveLength(1)
  })

  test('the work time never runs backwards around an offline period', async () => {
    const job = await oneJob()
    const lastBeat = await runAndBeat(job)
    // Offline: the server still counts the open session (what the operator's timer shows) ...
    h.clock.advance(MAX_OFFLINE_S * SECOND)
    const shownAtClose = await elapsed(job)
    expect(shownAtClose).toBe(lastBeat - (lastBeat - 30 * SECOND) + MAX_OFFLINE_S * SECOND)
    // ... the sweep pauses it: the time stays where the client closed the session, not at the last heartbeat.
    h.clock.advance(5 * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([job])
    const afterPause = await elapsed(job)
    expect(afterPause).toBe(shownAtClose)
    const ws = await h.svc.db.selectFrom('work_sessions').selectAll().where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(ws.ended_at!.getTime()).toBe(lastBeat + MAX_OFFLINE_S * SECOND)
    expect(ws.end_reason).toBe('offline')
    // Back online and resumed: it goes on from there.
    await backOnline(job, lastBeat)
    await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    h.clock.advance(5 * SECOND)
    expect(await elapsed(job)).toBe(afterPause + 5 * SECOND)
    await pauseJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
  })

  test('a job force-paused before its first heartbeat counts its work time up to the forced pause, not 0 s', async () => {
    const job = await oneJob()
    await start(job)
    const startedAt = h.clock.now().getTime()
    h.clock.advance((MAX_OFFLINE_S + 7) * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([job])
    const row = await jobRow(h.svc.db, job)
    expect(row).toMatchObject({ active: false, paused_offline: true, time_spent_ms: MAX_OFFLINE_S * SECOND })
    const forced = await eventsOf(h.svc.db, job, 'JOB_PAUSE_FORCED')
    expect(forced[0]!.data).toMatchObject({ duration_ms: MAX_OFFLINE_S * SECOND, last_heartbeat_at: startedAt })
  })
})
