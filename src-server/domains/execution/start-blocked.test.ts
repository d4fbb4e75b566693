import { describe, expect, test } from 'bun:test'
import { appCode, tableCounts, trpcCall } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { pauseJob, startJobs } from './start-pause'
import { completeStep } from './steps'
import { eventsOf, jobRow, makeOperator, makeSetup, newKey, type Operator } from './test-fixtures'
import { workSession } from './work-session'

/**
 * The read-only work session (issue 11): an operator opens a job of their queue that cannot
 * start (not ready, paused, another job running) to read it; the view says why it cannot start
 * (`can.start_blocked`, the same rule as every write's answer and the start itself), reading
 * changes nothing, and other operators' jobs stay refused (JOB_NOT_YOURS).
 */
describe('execution: why a job cannot start, read-only views of queued jobs', () => {
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
  const start = (keys: string[], who = op) => startJobs(h.svc, who.actor, { job_keys: keys, idempotency_key: newKey() })
  const pause = (job: string, who = op) => pauseJob(h.svc, who.actor, { job_key: job, idempotency_key: newKey() })

  test('setup', async () => {
    op = await makeOperator(h, 'op.sb')
    op2 = await makeOperator(h, 'op.sb2')
    prod = await makeOperator(h, 'prod.sb', 'production')
  }, 60_000)

  test('a not-ready job of the queue reads over REST and tRPC, says no_material, and reading writes nothing; another operator is refused', async () => {
    const s = await makeSetup(h.svc.db, { phases: [{}, {}], quantity: 4, operator: op.key })
    const downstream = s.jobs[1]![0]!
    const before = await tableCounts(h)
    const rest = await h.request('GET', `/api/job/${downstream}/work-session`, { token: op.token })
    expect(rest.status).toBe(200)
    expect(rest.body.detail.job).toMatchObject({ _key: downstream, status: 'queued', active: false, available_qt: 0 })
    expect(rest.body.detail.can).toEqual({ start: false, start_blocked: 'no_material', pause: false, new_batch: false, complete_batch: false })
    expect(rest.body.detail.batch).toBeNull()
    expect(rest.body.detail.steps.length).toBe(2)
    const rpc = await trpcCall(h, 'execution.workSession', 'query', { job_key: downstream }, { token: op.token })
    expect(rpc.body.result.data.can.start_blocked).toBe('no_material')
    // Reading is not starting: no work session, no event, no heartbeat.
    expect(await tableCounts(h)).toEqual(before)
    expect(await jobRow(h.svc.db, downstream)).toMatchObject({ active: false, status: 'queued', last_heartbeat_at: null })
    expect(await eventsOf(h.svc.db, downstream)).toEqual([])

    const other = await h.request('GET', `/api/job/${downstream}/work-session`, { token: op2.token })
    expect({ status: other.status, code: appCode(other.body) }).toEqual({ status: 403, code: 'JOB_NOT_YOURS' })
    const otherRpc = await trpcCall(h, 'execution.workSession', 'query', { job_key: downstream }, { token: op2.token })
    expect(otherRpc.status).toBe(403)
    // Production reads every job but takes none.
    const byProd = await h.request('GET', `/api/job/${downstream}/work-session`, { token: prod.token })
    expect(byProd.body.detail.can.start_blocked).toBe('not_yours')
  })

  test('another job running in a phase without parallel work: the view, the answers and the start agree (parallel_not_allowed)', async () => {
    const s = await makeSetup(h.svc.db, { phases: [{}], quantity: 6, operator: op.key, jobs: [[3, 3]] })
    const [a, b] = s.jobs[0]! as [string, string]
    await start([a])
    const blocked = await workSession(h.svc, op.actor, b)
    expect(blocked.can).toMatchObject({ start: false, start_blocked: 'parallel_not_allowed' })
    expect(await refused(start([b]))).toEqual({ status: 409, code: 'PARALLEL_JOB_NOT_ALLOWED' })
    // Pausing the running job frees the other one; the pause's answer says the paused one may resume.
    const paused = await pause(a)
    expect(paused.can).toMatchObject({ start: true, start_blocked: null })
    expect((await workSession(h.svc, op.actor, b)).can).toMatchObject({ start: true, start_blocked: null })
    // Now b runs: a paused job with an open batch cannot resume beside it.
    await start([b])
    expect((await workSession(h.svc, op.actor, a)).can).toMatchObject({ start: false, start_blocked: 'parallel_not_allowed' })
    await pause(b)
  })

  test('phases that allow parallel work: a second job may start beside a running one', async () => {
    const s = await makeSetup(h.svc.db, { phases: [{}], quantity: 6, operator: op.key, jobs: [[3, 3]], defaults: { parallel_job_allowed: true } })
    const [a, b] = s.jobs[0]! as [string, string]
    await start([a])
    expect((await workSession(h.svc, op.actor, b)).can).toMatchObject({ start: true, start_blocked: null })
    await start([b])
    await pause(a)
    await pause(b)
  })

  test('a closed job says closed', async () => {
    const s = await makeSetup(h.svc.db, { phases: [{ steps: [{ type: 'instruction' }] }], quantity: 1, operator: op.key })
    const job = s.jobs[0]![0]!
    const out = (await start([job])).jobs[0]!
    const done = await completeStep(h.svc, op.actor, { batch_key: out.batch!._key, step_key: s.phases[0]!.steps[0]!._key, idempotency_key: newKey() })
    expect(done.next).toBe('job_closed')
    expect(done.can).toMatchObject({ start: false, start_blocked: 'closed' })
    expect((await workSession(h.svc, op.actor, job)).can.start_blocked).toBe('closed')
  })
})
