import { describe, expect, test } from 'bun:test'
import { makeProduct } from '../../domains/work-orders/test-fixtures'
import { useHarness } from '../../test/harness'
import { seedDemoLibrary } from './test-library'
import { seedDemoUsers } from './users'
import { seedDemoWorkOrders } from './work-orders'

describe('demo work orders seed', () => {
  const h = useHarness()

  test('skips while no product has a process, then fills an empty plant once', async () => {
    await seedDemoUsers(h.svc)
    await makeProduct(h.svc.db, { code: 'DEMO-RAW' })
    expect(await seedDemoWorkOrders(h.svc)).toEqual([])
    await seedDemoLibrary(h.svc)
    const created = await seedDemoWorkOrders(h.svc)
    expect(created).toHaveLength(7)
    expect(await seedDemoWorkOrders(h.svc)).toEqual([])

    const wos = await h.svc.db.selectFrom('work_orders').selectAll().orderBy('sequence').execute()
    expect(wos.map((w) => w.code)).toEqual(created)
    expect(new Set(wos.map((w) => w.status))).toEqual(new Set(['active', 'completed']))
    const today = h.clock.now().toISOString().slice(0, 10)
    expect(wos.some((w) => w.status === 'active' && w.due_by !== null && w.due_by < today)).toBe(true)
    expect(wos.some((w) => w.status === 'active' && w.completed_qt > 0)).toBe(true)
    const jobs = await h.svc.db.selectFrom('jobs').select(['operator_id', 'completed_qt', 'quantity', 'work_order_id', 'phase_id']).execute()
    expect(jobs.some((j) => j.operator_id === null)).toBe(true)
    expect(jobs.some((j) => j.operator_id !== null)).toBe(true)
    // Every phase of every work order is fully distributed.
    const sums = new Map<string, number>()
    for (const j of jobs) sums.set(`${j.work_order_id}/${j.phase_id}`, (sums.get(`${j.work_order_id}/${j.phase_id}`) ?? 0) + j.quantity)
    for (const [k, sum] of sums) expect({ k, sum }).toEqual({ k, sum: wos.find((w) => k.startsWith(w.id))!.planned_qt })
    const events = await h.svc.db.selectFrom('events').select('event_type').where('event_type', 'like', 'WORK_ORDER_%').execute()
    expect(events.filter((e) => e.event_type === 'WORK_ORDER_CREATED')).toHaveLength(7)
    expect(events.filter((e) => e.event_type === 'WORK_ORDER_COMPLETED').length).toBeGreaterThan(0)
    // Progress comes from batches completed in work sessions in the past, never written by hand.
    const made = await h.svc.db
      .selectFrom('jobs as j')
      .select(['j.completed_qt', (eb) => eb.selectFrom('batches as b').select((b) => b.fn.coalesce(b.fn.sum<number>('b.qt_total'), b.lit(0)).as('n')).whereRef('b.job_id', '=', 'j.id').where('b.status', '=', 'completed').as('batched')])
      .execute()
    expect(made.some((j) => j.completed_qt > 0)).toBe(true)
    for (const j of made) expect(Number(j.batched)).toBe(j.completed_qt)
    const sessions = await h.svc.db.selectFrom('work_sessions').select(['started_at', 'ended_at']).execute()
    expect(sessions.length).toBeGreaterThan(0)
    expect(sessions.every((s) => s.ended_at !== null && s.ended_at < h.clock.now())).toBe(true)
  })
})
