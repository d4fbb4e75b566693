import { describe, expect, test } from 'bun:test'
import { makeProduct } from '../../domains/work-orders/test-fixtures'
import { useHarness } from '../../test/harness'
import { seedDemoIssues } from './issues'
import { seedDemoLibraries } from './libraries'
import { seedDemoUsers } from './users'
import { seedDemoWorkOrders } from './work-orders'

describe('demo issues seed', () => {
  const h = useHarness()

  test('issues in every state on demo jobs, work orders, a product and the plant; the first job of the first work order critical; once only', async () => {
    await seedDemoUsers(h.svc)
    await seedDemoLibraries(h.svc)
    await makeProduct(h.svc.db, { code: 'DEMO-A', phases: ['Montaggio', 'Collaudo'] })
    await makeProduct(h.svc.db, { code: 'DEMO-B', phases: ['Montaggio', 'Collaudo', 'Imballaggio'] })
    await seedDemoWorkOrders(h.svc)

    const created = await seedDemoIssues(h.svc)
    expect(created).toHaveLength(8)
    expect(await seedDemoIssues(h.svc)).toEqual([])

    const issues = await h.svc.db.selectFrom('issues').selectAll().orderBy('code').execute()
    expect(issues.map((i) => i.code)).toEqual(created)
    expect(new Set(issues.map((i) => i.state))).toEqual(new Set(['open', 'closed', 'reopened']))
    expect(new Set(issues.map((i) => i.context_type))).toEqual(new Set(['job', 'work_order', 'product', 'generic']))
    expect(issues.some((i) => i.escalated_at !== null && i.critical)).toBe(true)
    expect(issues.some((i) => i.state !== 'closed' && !i.critical)).toBe(true)

    const events = (await h.svc.db.selectFrom('events').select('event_type').where('subject_type', '=', 'issue').execute()).map((e) => e.event_type)
    for (const type of ['ISSUE_OPENED', 'ISSUE_CLOSED', 'ISSUE_REOPENED', 'ISSUE_REOPENED_CRITICAL', 'ISSUE_MADE_CRITICAL', 'ISSUE_MADE_NON_CRITICAL', 'ISSUE_ESCALATED']) {
      expect({ type, present: events.includes(type) }).toEqual({ type, present: true })
    }

    // The first work order's first job carries a critical issue: the job is marked, the work order is not.
    const [first] = await h.svc.db.selectFrom('work_orders').select(['id', 'critical']).orderBy('sequence').limit(1).execute()
    expect(first!.critical).toBe(false)
    const firstJob = await h.svc.db.selectFrom('jobs').select('critical').where('work_order_id', '=', first!.id).where('position', '=', 1).executeTakeFirstOrThrow()
    expect(firstJob.critical).toBe(true)
    // The marks agree with the issues everywhere: work orders by their own issues, jobs by theirs.
    const open = issues.filter((i) => i.critical && i.state !== 'closed')
    const marked = await h.svc.db.selectFrom('work_orders').select('id').where('critical', '=', true).execute()
    expect(new Set(marked.map((m) => m.id))).toEqual(new Set(open.flatMap((i) => (i.work_order_id && !i.job_id ? [i.work_order_id] : []))))
    const markedJobs = await h.svc.db.selectFrom('jobs').select('id').where('critical', '=', true).execute()
    expect(new Set(markedJobs.map((m) => m.id))).toEqual(new Set(open.flatMap((i) => (i.job_id ? [i.job_id] : []))))
    expect(marked.length).toBeGreaterThan(0)
  })
})
