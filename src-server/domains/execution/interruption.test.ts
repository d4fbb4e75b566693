import { describe, expect, test } from 'bun:test'
import { JOB_REASON_MAX } from '../../../src/domains/jobs/schemas'
import { appCode, MINUTE, tableCounts, trpcCall } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { interruptionOf } from './interruption'
import { pauseJob, resumeJob, startJobs } from './start-pause'
import { eventsOf, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { workSession } from './work-session'

type Body = Record<string, unknown>

/**
 * Issue 26: production pauses or reassigns a job with an optional reason; the event records it
 * and the operator's work-session read says who did it, when and why (REST, tRPC); a too long
 * or wrong reason is refused with a clear 400 and nothing written; permissions do not change.
 */
describe('execution: who paused or reassigned the job, and why', () => {
  const h = useHarness()
  let op: Operator
  let op2: Operator
  let prod: Operator
  let both: Operator

  const job = async (operator: string = op.key) => (await makeSetup(h.svc.db, { quantity: 4, operator, phases: [{}] })).jobs[0]![0]!
  const start = (key: string, who = op) => startJobs(h.svc, who.actor, { job_keys: [key], idempotency_key: newKey() })
  const update = (body: Body, who = prod) => h.request('POST', '/api/job/update', { token: who.token, body })
  const assign = (body: Body, who = prod) => h.request('POST', '/api/job/assign', { token: who.token, body })
  const view = (key: string, who = op) => h.request('GET', `/api/job/${key}/work-session`, { token: who.token })
  const named = (o: Operator, name: string, surname: string) => h.svc.db.updateTable('users').set({ name, surname }).where('id', '=', o.key).execute()

  test('setup', async () => {
    op = await makeOperator(h, 'op.int')
    op2 = await makeOperator(h, 'op.int2')
    prod = await makeOperator(h, 'prod.int', 'production')
    both = await makeOperator(h, 'capo.int', 'operator production')
    await named(op, 'Anna', 'Tornio')
    await named(op2, 'Bruno', 'Fresa')
    await named(prod, 'Mario', 'Rossi')
  }, 60_000)

  test('production pauses with a reason: the event records it, the operator reads who, when and why (REST and tRPC)', async () => {
    const key = await job()
    await start(key)
    h.clock.advance(5 * MINUTE)
    const at = h.clock.now().getTime()
    const res = await update({ job_key: key, action: 'pause', reason: '  cambio stampo ' })
    expect(res.status).toBe(200)
    const [event] = await eventsOf(h.svc.db, key, 'JOB_PAUSED')
    expect(event!.data).toMatchObject({ reason: 'paused_by_production', reason_text: 'cambio stampo' })
    expect(event!.user_id).toBe(prod.key)

    const expected = { kind: 'paused', by_key: prod.key, by_name: 'Mario Rossi', at, reason: 'cambio stampo', operator_key: null, operator_name: null }
    const rest = await view(key)
    expect(rest.status).toBe(200)
    expect(rest.body.detail.interruption).toEqual(expected)
    const trpc = await trpcCall(h, 'execution.workSession', 'query', { job_key: key }, { token: op.token })
    expect(trpc.body.result.data.interruption).toEqual(expected)
    // Production reading the same job (it paused it itself): nothing to explain.
    expect((await view(key, prod)).body.detail.interruption).toBeNull()

    // The operator resumes: it runs again, the pause is history.
    await resumeJob(h.svc, op.actor, { job_key: key, idempotency_key: newKey() })
    expect((await workSession(h.svc, op.actor, key)).interruption).toBeNull()
    // Their own pause afterwards needs no explaining either.
    await pauseJob(h.svc, op.actor, { job_key: key, idempotency_key: newKey() })
    expect((await workSession(h.svc, op.actor, key)).interruption).toBeNull()
  })

  test('without a reason, or a blank one: who and when, no reason; the event has no reason_text', async () => {
    for (const body of [{}, { reason: '   ' }, { reason: null }]) {
      const key = await job()
      await start(key)
      expect((await update({ job_key: key, action: 'pause', ...body })).status).toBe(200)
      const [event] = await eventsOf(h.svc.db, key, 'JOB_PAUSED')
      expect(event!.data.reason_text).toBeUndefined()
      expect((await workSession(h.svc, op.actor, key)).interruption).toMatchObject({ kind: 'paused', by_name: 'Mario Rossi', reason: null })
    }
  })

  test('a reason too long, not text, or on another correction: 400 naming the field, nothing written', async () => {
    const key = await job()
    await start(key)
    const refused = async (body: Body, path: string, kind: string, via: (b: Body) => Promise<{ status: number; body: any }>) => {
      const before = await tableCounts(h)
      const res = await via(body)
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
      const issues = res.body.detail?.issues ?? res.body.error?.data?.extra?.issues
      expect(issues).toContainEqual(expect.objectContaining({ path, kind }))
      expect(await tableCounts(h)).toEqual(before)
      return issues as { message: string; limit?: number }[]
    }
    const tooLong = 'x'.repeat(JOB_REASON_MAX + 1)
    const [issue] = await refused({ job_key: key, action: 'pause', reason: tooLong }, 'reason', 'max_length', (b) => update(b))
    expect(issue).toMatchObject({ limit: JOB_REASON_MAX, message: `a reason may have at most ${JOB_REASON_MAX} characters` })
    await refused({ job_key: key, action: 'pause', reason: 42 }, 'reason', 'type', (b) => update(b))
    await refused({ job_key: key, action: 'update_times', time_spent_ms: 1000, reason: 'x' }, 'reason', 'unknown_key', (b) => update(b))
    await refused({ job_keys: [key], operator_key: op2.key, reason: tooLong }, 'reason', 'max_length', (b) => assign(b))
    const viaTrpc = (b: Body) => trpcCall(h, 'jobs.update', 'mutation', b, { token: prod.token })
    await refused({ job_key: key, action: 'pause', reason: tooLong }, 'reason', 'max_length', viaTrpc)
    // Exactly the limit (after trimming) is fine.
    expect((await update({ job_key: key, action: 'pause', reason: ` ${'y'.repeat(JOB_REASON_MAX)} ` })).status).toBe(200)
  })

  test('permissions are unchanged: an operator may neither pause nor reassign through production calls', async () => {
    const key = await job()
    await start(key)
    expect(appCode((await update({ job_key: key, action: 'pause', reason: 'fine turno' }, op)).body)).toBe('NOT_AUTHORISED')
    expect(appCode((await assign({ job_keys: [key], operator_key: op2.key, reason: 'x' }, op)).body)).toBe('NOT_AUTHORISED')
    expect((await eventsOf(h.svc.db, key, 'JOB_PAUSED')).length).toBe(0)
    // A chief with both permissions pausing their own job: their pause, no confirmation owed.
    const own = await job(both.key)
    await start(own, both)
    expect((await update({ job_key: own, action: 'pause', reason: 'riunione' }, both)).status).toBe(200)
    expect((await workSession(h.svc, both.actor, own)).interruption).toBeNull()
    await pauseJob(h.svc, op.actor, { job_key: key, idempotency_key: newKey() })
  })

  test('reassigned with a reason: the new operator reads by whom and why; the old one is refused with it', async () => {
    const key = await job()
    await start(key)
    expect((await update({ job_key: key, action: 'pause', reason: 'cambio stampo' })).status).toBe(200)
    h.clock.advance(MINUTE)
    const at = h.clock.now().getTime()
    const res = await assign({ job_keys: [key], operator_key: op2.key, reason: 'Anna passa al collaudo' })
    expect(res.status).toBe(200)
    const [event] = await eventsOf(h.svc.db, key, 'JOB_ASSIGNED')
    expect(event!.data).toMatchObject({ operator_key: op2.key, previous_operator_key: op.key, reason_text: 'Anna passa al collaudo' })

    const expected = { kind: 'reassigned', by_key: prod.key, by_name: 'Mario Rossi', at, reason: 'Anna passa al collaudo', operator_key: op2.key, operator_name: 'Bruno Fresa' }
    expect((await view(key, op2)).body.detail.interruption).toEqual(expected)
    // The operator it was taken from cannot read it any more (as before), and learns why.
    const away = await view(key, op)
    expect({ status: away.status, code: appCode(away.body) }).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })
    expect(away.body.detail.interruption).toEqual(expected)
    const awayTrpc = await trpcCall(h, 'execution.workSession', 'query', { job_key: key }, { token: op.token })
    expect(awayTrpc.body.error.data.extra.interruption).toEqual(expected)
    // Someone it was never given to learns nothing.
    const stranger = await makeOperator(h, 'op.int3')
    const other = await view(key, stranger)
    expect(other.status).toBe(403)
    expect(other.body.detail.interruption).toBeUndefined()

    // The new operator resumes: nothing left to explain.
    await resumeJob(h.svc, op2.actor, { job_key: key, idempotency_key: newKey() })
    expect((await workSession(h.svc, op2.actor, key)).interruption).toBeNull()
    await pauseJob(h.svc, op2.actor, { job_key: key, idempotency_key: newKey() })
  })

  test('the rule: only production pauses and reassignments by someone else, and only the latest turn', () => {
    const turn = (event_type: string, user_id: string | null, data: Record<string, unknown> = {}) => ({ event_type, user_id, user_name: 'Mario Rossi', at: 1, data, operator_name: null })
    expect(interruptionOf(undefined, 'me')).toBeNull()
    expect(interruptionOf(turn('JOB_PAUSED', 'boss', { reason: 'paused_by_production' }), 'me')?.kind).toBe('paused')
    expect(interruptionOf(turn('JOB_PAUSED', 'boss', { reason: 'paused_by_production' }), 'boss')).toBeNull()
    expect(interruptionOf(turn('JOB_PAUSED', 'me', { reason: 'user' }), 'me')).toBeNull()
    expect(interruptionOf(turn('JOB_PAUSE_FORCED', null, { reason: 'offline' }), 'me')).toBeNull()
    expect(interruptionOf(turn('JOB_PAUSED', 'boss', { reason: 'sign_out' }), 'me')).toBeNull()
    expect(interruptionOf(turn('JOB_RESUMED', 'other', {}), 'me')).toBeNull()
    expect(interruptionOf(turn('JOB_UNASSIGNED', 'boss', { operator_key: null, reason_text: 'fermo' }), 'me')).toMatchObject({ kind: 'reassigned', operator_key: null, reason: 'fermo' })
  })
})
