import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { appCode, MINUTE, tableCounts, trpcCall } from '../../test/fixtures'
import { signIn, useHarness } from '../../test/harness'
import { listJobs } from '../jobs/list'
import { heartbeat } from './heartbeat'
import { backOnline } from './offline'
import { pauseJob, resumeJob, startJobs } from './start-pause'
import { completeStep } from './steps'
import { expireIdempotencyKeys, sweepOffline } from './sweep'
import { actorOf, eventsOf, jobRow, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { workSession } from './work-session'

const SECOND = 1000

/**
 * Work sessions: pause/resume and worked time, heartbeat (not activity; locked sessions),
 * the offline sweep (also two at once), back online, parallel jobs, unassigned jobs, sign-out,
 * permissions, and the REST and tRPC paths.
 */
describe('execution: work sessions, heartbeat, offline sweep, parallel jobs, access', () => {
  const h = useHarness()
  let op: Operator
  let op2: Operator
  let prod: Operator
  const refused = async (p: Promise<unknown>) => {
    try {
      await p
    } catch (e) {
      return { status: (e as { status?: number }).status, code: (e as { appCode?: string }).appCode }
    }
    throw new Error('expected a refusal')
  }
  const setup = (opts: Partial<Parameters<typeof makeSetup>[1]> & Pick<Parameters<typeof makeSetup>[1], 'phases'>) =>
    makeSetup(h.svc.db, { quantity: 6, operator: op.key, ...opts })
  const start = async (keys: string[], who = op) => startJobs(h.svc, who.actor, { job_keys: keys, idempotency_key: newKey() })
  const pause = (job: string, who = op) => pauseJob(h.svc, who.actor, { job_key: job, idempotency_key: newKey() })
  /** A new sign-in: the fake clock runs past the idle lock (15 min) between tests. */
  const fresh = async (o: Operator, username: string): Promise<Operator> => {
    const token = await signIn(h, username, 'password-123')
    return { ...o, token, actor: actorOf(o.key, token, o.actor.scope) }
  }
  const beat = (job: string, who = op, sessionLocked = false) => heartbeat(h.svc, who.actor, { job_key: job }, { sessionLocked })

  test('setup', async () => {
    op = await makeOperator(h, 'op.ws')
    op2 = await makeOperator(h, 'op.ws2')
    prod = await makeOperator(h, 'prod.ws', 'production')
  }, 60_000)

  test('pause ends the work session (time counted), keeps the batch open; resume opens a new session on the same batch', async () => {
    const s = await setup({ phases: [{ params: { production_batch_qt: 3, std_processing_time: 60 } }] })
    const job = s.jobs[0]![0]!
    const started = (await start([job])).jobs[0]!
    const batch = started.batch!._key
    h.clock.advance(10 * MINUTE)
    const paused = await pause(job)
    expect(paused.job).toMatchObject({ status: 'paused', active: false, active_qt: 3, time_spent_ms: 10 * MINUTE, active_batch_key: batch, work_session_key: null })
    expect(paused.batch).toMatchObject({ _key: batch, status: 'open' })
    // The answer says what the operator may do next, by the same rule as the work session view.
    expect(started.can).toEqual({ start: false, start_blocked: 'running', pause: true, new_batch: false, complete_batch: false })
    expect(paused.can).toEqual({ start: true, start_blocked: null, pause: false, new_batch: false, complete_batch: false })
    const ws1 = await h.svc.db.selectFrom('work_sessions').selectAll().where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(ws1.end_reason).toBe('user')
    expect(ws1.ended_at!.getTime() - ws1.started_at.getTime()).toBe(10 * MINUTE)
    expect((await eventsOf(h.svc.db, job, 'JOB_PAUSED'))[0]!.data).toMatchObject({ duration_ms: 10 * MINUTE, work_session_key: ws1.id })
    expect(await refused(pause(job))).toEqual({ status: 409, code: 'JOB_NOT_RUNNING' })

    h.clock.advance(5 * MINUTE) // paused time does not count
    const resumed = await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    expect(resumed.job).toMatchObject({ status: 'started', active: true, active_batch_key: batch, active_qt: 3 })
    expect(resumed.job.work_session_key).not.toBe(ws1.id)
    const types = (await eventsOf(h.svc.db, job)).map((e) => e.event_type)
    expect(types).toEqual(['JOB_STARTED', 'ACTIVE_BATCH_CHANGED', 'JOB_PAUSED', 'JOB_RESUMED'])

    h.clock.advance(3 * MINUTE)
    const view = await workSession(h.svc, op.actor, job)
    expect(view.timer).toMatchObject({
      elapsed_ms: 13 * MINUTE,
      expected_ms: 60 * 1000 * 6,
      expected_batch_ms: 60 * 1000 * 3,
      display_job_timer: true,
      server_time: h.clock.now().getTime(),
    })
    expect(view.timer.session_started_at).toBe(h.clock.now().getTime() - 3 * MINUTE)
    expect(view.work_session).toMatchObject({ _key: resumed.job.work_session_key, user_key: op.key })
    expect(view.can).toEqual({ start: false, start_blocked: 'running', pause: true, new_batch: false, complete_batch: false })
    await pause(job)
  })

  test('resume of a paused job without an open batch opens one when material is there', async () => {
    const s = await setup({ phases: [{ params: { production_batch_qt: 2, auto_new_batch: false }, steps: [{ type: 'instruction' }] }] })
    const job = s.jobs[0]![0]!
    const out = (await start([job])).jobs[0]!
    await completeStep(h.svc, op.actor, { batch_key: out.batch!._key, step_key: s.phases[0]!.steps[0]!._key, idempotency_key: newKey() })
    await pause(job)
    const resumed = await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    expect(resumed.batch).toMatchObject({ number: 2, qt_total: 2 })
    await pause(job)
  })

  test('heartbeat: only the running operator; sets last_heartbeat_at; never user activity', async () => {
    op = await fresh(op, 'op.ws')
    op2 = await fresh(op2, 'op.ws2')
    const s = await setup({ phases: [{}] })
    const job = s.jobs[0]![0]!
    await start([job])
    h.clock.advance(10 * SECOND)
    const session = await h.svc.db.selectFrom('auth_sessions').select('last_activity_at').where('id', '=', op.actor.sessionId!).executeTakeFirstOrThrow()
    h.clock.advance(20 * SECOND)
    const res = await h.request('POST', `/api/job/${job}/heartbeat`, { token: op.token })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ job_key: job, running: true, reason: null, back_online: false, server_time: h.clock.now().getTime() })
    expect((await jobRow(h.svc.db, job)).last_heartbeat_at!.getTime()).toBe(h.clock.now().getTime())
    const after = await h.svc.db.selectFrom('auth_sessions').select('last_activity_at').where('id', '=', op.actor.sessionId!).executeTakeFirstOrThrow()
    expect(after.last_activity_at.getTime()).toBe(session.last_activity_at.getTime())
    // Another operator: 403; unknown job: 404; nothing written.
    const before = await tableCounts(h)
    expect(appCode((await h.request('POST', `/api/job/${job}/heartbeat`, { token: op2.token })).body)).toBe('JOB_NOT_YOURS')
    expect((await h.request('POST', `/api/job/${crypto.randomUUID()}/heartbeat`, { token: op.token })).status).toBe(404)
    expect(await tableCounts(h)).toEqual(before)
    // A paused job: stop the heartbeat.
    await pause(job)
    expect(await beat(job)).toMatchObject({ running: false, reason: 'paused' })
  })

  test('heartbeats arriving together are written together; each gets its own answer', async () => {
    const s = await setup({ phases: [{}], jobs: [[1, 1, 1, 1, 1, 1]], defaults: { parallel_job_allowed: true } })
    const jobs = s.jobs[0]!
    await start(jobs.slice(0, 5))
    h.clock.advance(10 * SECOND)
    // Five running jobs, one never started, one someone else's: all at once.
    const answers = await Promise.all([...jobs.map((j) => beat(j)), refused(beat(jobs[0]!, op2))])
    expect(answers.slice(0, 5).map((a) => (a as { running: boolean }).running)).toEqual([true, true, true, true, true])
    expect(answers[5]).toMatchObject({ running: false, reason: 'queued' })
    expect(answers[6]).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })
    for (const j of jobs.slice(0, 5)) expect((await jobRow(h.svc.db, j)).last_heartbeat_at!.getTime()).toBe(h.clock.now().getTime())
    // The heartbeat's asynchronous commit is local to its own statement: the connections it used
    // commit synchronously again for everything else.
    const settings = await Promise.all(Array.from({ length: 12 }, () => sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(h.svc.db)))
    expect(new Set(settings.map((r) => r.rows[0]!.s))).toEqual(new Set(['on']))
    for (const j of jobs.slice(0, 5)) await pause(j)
  })

  test('heartbeat with the session locked: unsupervised work not allowed pauses the job (JOB_PAUSE_FORCED); allowed keeps it running', async () => {
    const s = await setup({ phases: [{ params: { unsupervised_work_allowed: false } }, { params: { unsupervised_work_allowed: true } }] })
    const supervised = s.jobs[0]![0]!
    const token = await signIn(h, 'op.ws', 'password-123')
    const actor = actorOf(op.key, token)
    await startJobs(h.svc, actor, { job_keys: [supervised], idempotency_key: newKey() })
    expect((await h.request('POST', '/api/session/lock', { token })).status).toBe(200)
    h.clock.advance(10 * SECOND)
    const res = await h.request('POST', `/api/job/${supervised}/heartbeat`, { token })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ running: false, reason: 'session_locked' })
    expect(await jobRow(h.svc.db, supervised)).toMatchObject({ active: false, status: 'paused' })
    const forced = await eventsOf(h.svc.db, supervised, 'JOB_PAUSE_FORCED')
    expect(forced).toHaveLength(1)
    expect(forced[0]!.data).toMatchObject({ reason: 'session_locked' })
    // Other operator actions answer 423 while locked.
    expect((await h.request('POST', `/api/job/${supervised}/resume`, { token, body: { idempotency_key: newKey() } })).status).toBe(423)

    // Unsupervised work allowed: the job keeps running while locked (session unlocked to start it).
    expect((await h.request('POST', '/api/session/unlock', { token, body: { password: 'password-123' } })).status).toBe(200)
    const free = s.jobs[1]![0]!
    await h.svc.db.updateTable('work_order_phases').set({ released_in_qt: 6 }).where('phase_id', '=', s.phases[1]!.key).execute()
    await startJobs(h.svc, actor, { job_keys: [free], idempotency_key: newKey() })
    await h.request('POST', '/api/session/lock', { token })
    const ok = await h.request('POST', `/api/job/${free}/heartbeat`, { token })
    expect(ok.body.detail).toMatchObject({ running: true, reason: null })
    expect((await jobRow(h.svc.db, free)).active).toBe(true)
    await h.request('POST', '/api/session/unlock', { token, body: { password: 'password-123' } })
    await pauseJob(h.svc, actor, { job_key: free, idempotency_key: newKey() })
  })

  test('offline sweep: silent longer than max_offline -> JOB_PAUSE_FORCED, paused offline, session ended max_offline after the last heartbeat; back online recorded once', async () => {
    const s = await setup({ phases: [{ params: { max_offline: 60 } }, { params: { max_offline: 0 } }], jobs: [[6], [{ quantity: 6, operator: op2.key }]] })
    const job = s.jobs[0]![0]!
    const never = s.jobs[1]![0]!
    await h.svc.db.updateTable('work_order_phases').set({ released_in_qt: 6 }).where('phase_id', '=', s.phases[1]!.key).execute()
    await start([job])
    await start([never], op2)
    for (let i = 0; i < 5; i++) {
      h.clock.advance(10 * SECOND)
      expect(await beat(job)).toMatchObject({ running: true, back_online: false })
    }
    const lastBeat = h.clock.now().getTime()
    h.clock.advance(60 * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([]) // exactly max_offline: not yet
    h.clock.advance(1 * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([job])
    const row = await jobRow(h.svc.db, job)
    // The client kept the session open for max_offline without a connection: that time counts.
    expect(row).toMatchObject({ active: false, status: 'paused', paused_offline: true, time_spent_ms: 110 * SECOND })
    const ws = await h.svc.db.selectFrom('work_sessions').selectAll().where('job_id', '=', job).executeTakeFirstOrThrow()
    expect(ws.end_reason).toBe('offline')
    expect(ws.ended_at!.getTime()).toBe(lastBeat + 60 * SECOND)
    const forced = await eventsOf(h.svc.db, job, 'JOB_PAUSE_FORCED')
    expect(forced).toHaveLength(1)
    expect(forced[0]).toMatchObject({ user_id: op.key, session_id: op.actor.sessionId })
    expect(forced[0]!.data).toMatchObject({ reason: 'offline', by: 'server', max_offline_s: 60 })
    expect(forced[0]!.created_at.getTime()).toBe(h.clock.now().getTime())
    // max_offline 0: never paused for silence.
    h.clock.advance(3600 * SECOND)
    expect(await sweepOffline(h.svc)).toEqual([])
    expect((await jobRow(h.svc.db, never)).active).toBe(true)

    // The client comes back: its first heartbeat records BACK_ONLINE and says stop (paused offline).
    expect(await beat(job)).toMatchObject({ running: false, reason: 'paused_offline', back_online: true })
    expect(await beat(job)).toMatchObject({ running: false, reason: 'paused_offline', back_online: false })
    expect(await eventsOf(h.svc.db, job, 'BACK_ONLINE')).toHaveLength(1)
    // The client's explicit report of the same reconnection records nothing more (offline.test.ts).
    const b = await backOnline(h.svc, op.actor, { job_key: job, idempotency_key: newKey(), offline_since: lastBeat })
    expect(b).toMatchObject({ recorded: false, job: { paused_offline: true } })
    expect(await eventsOf(h.svc.db, job, 'BACK_ONLINE')).toHaveLength(1)
    // Resume clears the offline mark.
    const resumed = await resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() })
    expect(resumed.job).toMatchObject({ active: true, paused_offline: false })
    // A running job's heartbeat after a long gap (not yet swept) records BACK_ONLINE.
    h.clock.advance(45 * SECOND)
    expect(await beat(job)).toMatchObject({ running: true, back_online: true })
    await pause(job)
    await pause(never, op2)
  })

  test('two sweeps at once pause a job once', async () => {
    const s = await setup({ phases: [{ params: { max_offline: 30 } }], jobs: [[2, 2, 2]], quantity: 6 , defaults: { parallel_job_allowed: true } })
    await start(s.jobs[0]!)
    h.clock.advance(31 * SECOND)
    const [a, b] = await Promise.all([sweepOffline(h.svc), sweepOffline(h.svc)])
    expect([...a, ...b].sort()).toEqual([...s.jobs[0]!].sort())
    for (const job of s.jobs[0]!) expect(await eventsOf(h.svc.db, job, 'JOB_PAUSE_FORCED')).toHaveLength(1)
  })

  test('parallel jobs only where every running and started job allows it', async () => {
    const s = await setup({
      phases: [{ params: { parallel_job_allowed: false } }, { params: { parallel_job_allowed: true } }, { params: { parallel_job_allowed: true } }],
    })
    for (const p of s.phases.slice(1)) await h.svc.db.updateTable('work_order_phases').set({ released_in_qt: 6 }).where('phase_id', '=', p.key).execute()
    const [strict, loose1, loose2] = [s.jobs[0]![0]!, s.jobs[1]![0]!, s.jobs[2]![0]!]
    // The queue rows carry the rule, so the operator's screen needs no extra read per job.
    const listed = await listJobs(h.svc, { work_order_key: s.workOrderKey })
    expect(Object.fromEntries(listed.rows.map((r) => [r._key, r.parallel_job_allowed]))).toEqual({
      [strict]: false,
      [loose1]: true,
      [loose2]: true,
    })
    expect(await refused(start([strict, loose1]))).toEqual({ status: 409, code: 'PARALLEL_JOB_NOT_ALLOWED' })
    expect((await jobRow(h.svc.db, strict)).status).toBe('queued')
    const both = await start([loose1, loose2])
    expect(both.jobs.map((j) => j.job.active)).toEqual([true, true])
    expect(await refused(start([strict]))).toEqual({ status: 409, code: 'PARALLEL_JOB_NOT_ALLOWED' })
    await pause(loose1)
    await pause(loose2)
    await start([strict])
    expect(await refused(start([loose1]))).toEqual({ status: 409, code: 'PARALLEL_JOB_NOT_ALLOWED' })
    expect(await refused(start([strict]))).toEqual({ status: 409, code: 'JOB_ALREADY_RUNNING' })
    await pause(strict)
  })

  test('assignment: another operator\'s job 403; unassigned jobs become the operator\'s where settings allow, else 403', async () => {
    const s = await setup({ phases: [{}], jobs: [[{ quantity: 2, operator: op2.key }, { quantity: 2, operator: null }, { quantity: 2, operator: null }]], defaults: { parallel_job_allowed: true } })
    const [theirs, free1, free2] = s.jobs[0]!
    expect(await refused(start([theirs!]))).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })
    const taken = await start([free1!])
    expect(taken.jobs[0]!.job.operator_key).toBe(op.key)
    expect((await eventsOf(h.svc.db, free1!, 'JOB_STARTED'))[0]!.data).toMatchObject({ assigned_to_self: true })
    await h.svc.db.insertInto('settings').values({ key: 'allow_unassigned_jobs', value: 'false' }).onConflict((oc) => oc.column('key').doUpdateSet({ value: 'false' })).execute()
    expect(await refused(start([free2!]))).toEqual({ status: 403, code: 'UNASSIGNED_JOBS_NOT_ALLOWED' })
    await h.svc.db.deleteFrom('settings').where('key', '=', 'allow_unassigned_jobs').execute()
    await pause(free1!)
  })

  test('jobs of a closed or archived work order cannot start or resume (409, nothing written)', async () => {
    const s = await setup({ phases: [{}], jobs: [[3]] })
    const job = s.jobs[0]![0]!
    await h.svc.db.updateTable('work_orders').set({ archived_at: h.clock.now() }).where('id', '=', s.workOrderKey).execute()
    const before = await tableCounts(h)
    expect(await refused(start([job]))).toEqual({ status: 409, code: 'WORK_ORDER_ARCHIVED' })
    await h.svc.db.updateTable('work_orders').set({ archived_at: null, status: 'closed', closed_at: h.clock.now() }).where('id', '=', s.workOrderKey).execute()
    expect(await refused(resumeJob(h.svc, op.actor, { job_key: job, idempotency_key: newKey() }))).toEqual({ status: 409, code: 'WORK_ORDER_CLOSED' })
    expect(await tableCounts(h)).toEqual(before)
    expect(await jobRow(h.svc.db, job)).toMatchObject({ active: false, status: 'queued' })
  })

  test('signing out with a running job pauses it (logout and DELETE session/{key})', async () => {
    const s = await setup({ phases: [{}], jobs: [[3, 3]], defaults: { parallel_job_allowed: true } })
    const [a, b] = s.jobs[0]!
    const t1 = await signIn(h, 'op.ws', 'password-123')
    await startJobs(h.svc, actorOf(op.key, t1), { job_keys: [a!], idempotency_key: newKey() })
    expect((await h.request('POST', '/api/logout', { token: t1 })).status).toBe(200)
    expect(await jobRow(h.svc.db, a!)).toMatchObject({ active: false, status: 'paused' })
    expect((await eventsOf(h.svc.db, a!, 'JOB_PAUSED'))[0]!.data).toMatchObject({ reason: 'sign_out' })
    const t2 = await signIn(h, 'op.ws', 'password-123')
    await startJobs(h.svc, actorOf(op.key, t2), { job_keys: [b!], idempotency_key: newKey() })
    const res = await h.request('DELETE', `/api/session/${t2.split('.')[0]}`, { token: t2 })
    expect(res.status).toBe(200)
    expect(await jobRow(h.svc.db, b!)).toMatchObject({ active: false, status: 'paused' })
    const ws = await h.svc.db.selectFrom('work_sessions').select('end_reason').where('job_id', '=', b!).executeTakeFirstOrThrow()
    expect(ws.end_reason).toBe('sign_out')
  })

  test('permissions: production reads, cannot act; an operator reads own and unassigned jobs only', async () => {
    op = await fresh(op, 'op.ws')
    op2 = await fresh(op2, 'op.ws2')
    prod = await fresh(prod, 'prod.ws')
    const s = await setup({ phases: [{}], jobs: [[{ quantity: 3, operator: op.key }, { quantity: 3, operator: op2.key }]], defaults: { parallel_job_allowed: true } })
    const [mine, theirs] = s.jobs[0]!
    const out = (await start([mine!])).jobs[0]!
    const view = await trpcCall(h, 'execution.workSession', 'query', { job_key: mine }, { token: prod.token })
    expect(view.status).toBe(200)
    expect(view.body.result.data.job._key).toBe(mine)
    expect((await h.request('GET', `/api/batch/${out.batch!._key}`, { token: prod.token })).status).toBe(200)
    const act = await h.request('POST', `/api/job/${theirs}/start`, { token: prod.token, body: { idempotency_key: newKey() } })
    expect({ status: act.status, code: appCode(act.body) }).toEqual({ status: 403, code: 'NOT_AUTHORISED' })
    const other = await h.request('GET', `/api/job/${mine}/work-session`, { token: op2.token })
    expect({ status: other.status, code: appCode(other.body) }).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })
    expect((await h.request('GET', `/api/batch/${out.batch!._key}`, { token: op2.token })).status).toBe(403)
    expect((await h.request('GET', `/api/component-batch?batch_key=${out.batch!._key}`, { token: op2.token })).status).toBe(403)
    await pause(mine!)
  })

  test('REST: an operator runs a job through the documented paths', async () => {
    op = await fresh(op, 'op.ws')
    const s = await setup({ phases: [{ params: { production_batch_qt: 2 }, bom: [{ quantity: 3, quantity_per: 'item' }] }], quantity: 2 })
    const job = s.jobs[0]![0]!
    const [instr, form] = s.phases[0]!.steps.map((x) => x._key)
    const field = s.phases[0]!.fields[1]!.f0!
    const auth = { token: op.token }
    const started = await h.request('POST', `/api/job/${job}/start`, { ...auth, body: { idempotency_key: newKey() } })
    expect(started.status).toBe(200)
    const batch = started.body.detail.batch._key
    const ws = await h.request('GET', `/api/job/${job}/work-session`, auth)
    expect(ws.body.detail).toMatchObject({ job: { _key: job, active: true }, phase: { position: 1, phase_count: 1, is_last: true }, batch: { _key: batch } })
    expect(ws.body.detail.steps[1].fields[0]).toMatchObject({ _key: field, type: 'text', mandatory: true })
    expect((await h.request('GET', `/api/batch/${batch}`, auth)).body.detail).toMatchObject({ _key: batch, qt_total: 2, step_data: [{ _key: instr }, { _key: form }] })
    expect((await h.request('GET', `/api/component-batch?batch_key=${batch}`, auth)).body.detail.components[0]).toMatchObject({ batch_quantity: 6 })
    // Traceability level none: nothing to declare, and declaring is refused (traceability-batch.test.ts has the rest).
    expect((await h.request('GET', `/api/batch/${batch}/serials`, auth)).body.detail).toMatchObject({ batch_key: batch, required: false, pieces: [], complete: true })
    const refused = await h.request('PUT', `/api/batch/${batch}/serial-temp-links?idempotency_key=${newKey()}`, { ...auth, body: [{ piece: 1, serial_code: 'S-1' }] })
    expect({ status: refused.status, code: appCode(refused.body) }).toEqual({ status: 400, code: 'SERIAL_DECLARATION_INVALID' })
    const saved = await h.request('PUT', `/api/batch/${batch}/steps/${form}`, { ...auth, body: { form_data: [{ field_key: field, value: 'ok' }], idempotency_key: newKey() } })
    expect(saved.status).toBe(200)
    expect((await h.request('POST', `/api/batch/${batch}/steps/${instr}/complete`, { ...auth, body: { idempotency_key: newKey() } })).body.detail.next).toBe('continue')
    const missingKey = await h.request('POST', `/api/batch/${batch}/steps/${form}/complete`, { ...auth, body: {} })
    expect({ status: missingKey.status, code: appCode(missingKey.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
    const done = await h.request('POST', `/api/batch/${batch}/steps/${form}/complete`, { ...auth, body: { idempotency_key: newKey() } })
    expect(done.body.detail).toMatchObject({ next: 'job_closed', job: { status: 'closed' }, completed_batch: { qt_total: 2, consumed: [{ quantity: 6 }] } })
    const closed = await h.request('POST', `/api/job/${job}/start`, { ...auth, body: { idempotency_key: newKey() } })
    expect({ status: closed.status, code: appCode(closed.body), message: closed.body.detail.message }).toEqual({ status: 409, code: 'JOB_CLOSED', message: 'job closed: redirecting' })
  })

  test('old idempotency keys expire in the sweep', async () => {
    const before = (await h.svc.db.selectFrom('idempotency_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
    expect(Number(before)).toBeGreaterThan(0)
    h.clock.advance(25 * 3600 * SECOND)
    expect(await expireIdempotencyKeys(h.svc)).toBe(Number(before))
  })
})
