import { beforeAll, describe, expect, test } from 'bun:test'
import { HOUR, MINUTE } from '../../test/fixtures'
import { useHarness } from '../../test/harness'
import { runSweeps } from '../../sweeps'
import { escalateIssue, escalateOverdue } from './escalation'
import { actOnIssue, getIssue } from './service'
import { criticalMarks, type IssueWorld, issueEvents, makeIssueWorld, openIssue } from './test-fixtures'

/** Automatic escalation under the fake clock, and several sweeps at once. */
describe('issues: escalation sweep', () => {
  const h = useHarness()
  let w: IssueWorld
  beforeAll(async () => {
    w = await makeIssueWorld(h, 'esc')
  })
  const act = (key: string, action: Parameters<typeof actOnIssue>[3]) => actOnIssue(h.svc, w.quality.actor, key, action)
  const escalations = async (key: string) => (await issueEvents(h.svc.db, key)).filter((e) => e.event_type === 'ISSUE_ESCALATED')

  test('at the deadline (not a second before) the issue turns critical, with an event by nobody and the marks; close-within 0 never', async () => {
    const due = await openIssue(h, w, { type_key: w.types.hours4, job_key: w.wo.jobs[0]! })
    const never = await openIssue(h, w, { type_key: w.types.plain, job_key: w.wo.jobs[1]! })
    h.clock.advance(4 * HOUR - 1000)
    expect(await escalateOverdue(h.svc)).toEqual([])
    h.clock.advance(1000)
    expect((await runSweeps(h.svc)).escalated).toEqual([due._key])
    const issue = await getIssue(h.svc, due._key)
    expect(issue).toMatchObject({ critical: true, state: 'open', escalated_at: h.clock.now().getTime(), close_within: 4 })
    expect(issue.history.at(-1)).toMatchObject({
      event_type: 'ISSUE_ESCALATED',
      user_key: null,
      user_name: null,
      timestamp: h.clock.now().getTime(),
      data: { code: due.code, critical: true, close_within_hours: 4, opened_at: due.opened_at },
    })
    // An issue on a job marks that job (not its work order).
    expect(await criticalMarks(h.svc.db, w.wo)).toEqual({ work_order: false, jobs: [true, false] })
    h.clock.advance(1000 * HOUR)
    expect(await escalateOverdue(h.svc)).toEqual([])
    expect((await getIssue(h.svc, never._key)).critical).toBe(false)
    await act(due._key, 'close')
  })

  test('a closed issue does not escalate; a reopened one counts from its reopening', async () => {
    const issue = await openIssue(h, w, { type_key: w.types.hours4 })
    h.clock.advance(HOUR)
    await act(issue._key, 'close')
    h.clock.advance(10 * HOUR)
    expect(await escalateOverdue(h.svc)).toEqual([])
    await act(issue._key, 'reopen')
    h.clock.advance(4 * HOUR - MINUTE)
    expect(await escalateOverdue(h.svc)).toEqual([])
    h.clock.advance(MINUTE)
    expect(await escalateOverdue(h.svc)).toEqual([issue._key])
    await act(issue._key, 'close')
  })

  test('made non-critical after its deadline, the issue stays so until reopened; then it escalates again from the reopening', async () => {
    const issue = await openIssue(h, w, { type_key: w.types.hours4 })
    h.clock.advance(5 * HOUR)
    expect(await escalateOverdue(h.svc)).toEqual([issue._key])
    await act(issue._key, 'make_non_critical')
    h.clock.advance(100 * HOUR)
    expect(await escalateOverdue(h.svc)).toEqual([])
    await act(issue._key, 'close')
    const reopened = await act(issue._key, 'reopen')
    expect(reopened).toMatchObject({ critical: false, state: 'reopened' })
    h.clock.advance(4 * HOUR)
    expect(await escalateOverdue(h.svc)).toEqual([issue._key])
    expect(await escalations(issue._key)).toHaveLength(2)
    await act(issue._key, 'close')
  })

  test('made non-critical before the deadline it still escalates; made critical by hand and back after the deadline it does not', async () => {
    const early = await openIssue(h, w, { type_key: w.types.hours4, critical: true })
    const byHand = await openIssue(h, w, { type_key: w.types.hours4 })
    h.clock.advance(HOUR)
    await act(early._key, 'make_non_critical')
    await act(byHand._key, 'make_critical')
    h.clock.advance(4 * HOUR)
    await act(byHand._key, 'make_non_critical')
    expect(await escalateOverdue(h.svc)).toEqual([early._key])
    expect(await escalations(byHand._key)).toEqual([])
    await act(early._key, 'close')
    await act(byHand._key, 'close')
  })

  test('two sweeps at once escalate each issue once', async () => {
    const issues = await Promise.all(Array.from({ length: 8 }, (_, i) => openIssue(h, w, { type_key: w.types.hours4, job_key: w.wo2.jobs[i % 2]! })))
    h.clock.advance(4 * HOUR)
    const [a, b] = await Promise.all([escalateOverdue(h.svc), escalateOverdue(h.svc)])
    expect([...a, ...b].sort()).toEqual(issues.map((i) => i._key).sort())
    for (const i of issues) expect(await escalations(i._key)).toHaveLength(1)
    expect(await criticalMarks(h.svc.db, w.wo2)).toEqual({ work_order: false, jobs: [true, true] })

    // The same issue from two transactions at once: one escalates it, the other skips it.
    await act(issues[0]!._key, 'close')
    await act(issues[0]!._key, 'reopen')
    expect((await getIssue(h.svc, issues[0]!._key)).critical).toBe(true)
    const fresh = await openIssue(h, w, { type_key: w.types.hours4 })
    h.clock.advance(4 * HOUR)
    const results = await Promise.all([escalateIssue(h.svc.db, fresh._key, h.clock.now()), escalateIssue(h.svc.db, fresh._key, h.clock.now())])
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await escalations(fresh._key)).toHaveLength(1)
  })
})
