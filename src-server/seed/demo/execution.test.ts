import { describe, expect, test } from 'bun:test'
import { useHarness } from '../../test/harness'
import { seedDemoExecution } from './execution'
import { seedDemoLibrary } from './test-library'
import { seedDemoUsers } from './users'
import { seedDemoWorkOrders } from './work-orders'

describe('demo execution seed', () => {
  const h = useHarness()

  test('one paused job for operatore1 and one running for capoturno, through the execution service, once', async () => {
    expect(await seedDemoExecution(h.svc)).toEqual([])
    await seedDemoUsers(h.svc)
    await seedDemoLibrary(h.svc)
    await seedDemoWorkOrders(h.svc)
    expect(await seedDemoExecution(h.svc)).toEqual(['operatore1: paused', 'capoturno: running'])
    expect(await seedDemoExecution(h.svc)).toEqual([])

    const jobs = await h.svc.db
      .selectFrom('jobs as j')
      .innerJoin('users as u', 'u.id', 'j.operator_id')
      .select(['u.username', 'j.status', 'j.active', 'j.active_batch_id'])
      .where('j.status', 'in', ['started', 'paused'])
      .execute()
    expect(jobs.find((j) => j.username === 'operatore1')).toMatchObject({ status: 'paused', active: false })
    expect(jobs.find((j) => j.username === 'operatore1')!.active_batch_id).not.toBeNull()
    expect(jobs.find((j) => j.username === 'capoturno')).toMatchObject({ status: 'started', active: true })
    // Today (the history's shifts are in the past): operatore1's job had progress already (a resume); capoturno's was new (a start).
    const types = (
      await h.svc.db.selectFrom('events').select('event_type').where('event_type', 'in', ['JOB_STARTED', 'JOB_RESUMED', 'JOB_PAUSED']).where('created_at', '>=', h.clock.now()).execute()
    )
      .map((e) => e.event_type)
      .sort()
    expect(types).toEqual(['JOB_PAUSED', 'JOB_RESUMED', 'JOB_STARTED'])
  })
})
