import { describe, expect, test } from 'bun:test'
import { type Harness, useHarness } from '../../test/harness'
import * as ex from './service'
import { eventsOf, jobRow, makeOperator, makeSetup, materialRows, newKey, type Operator, runBatch } from './test-fixtures'

describe('execution: batches, material flow, job close', () => {
  const h = useHarness()
  let op: Operator
  const start = (keys: string[], who = op) => ex.startJobs(h.svc, who.actor, { job_keys: keys, idempotency_key: newKey() })

  test('setup', async () => {
    op = await makeOperator(h, 'op.batches')
  }, 60_000)

  test('start opens a work session and a batch of production_batch_qt; events in order', async () => {
    const s = await makeSetup(h.svc.db, { phases: [{ params: { production_batch_qt: 4 } }], quantity: 10, operator: op.key })
    const job = s.jobs[0]![0]!
    const res = await start([job])
    const out = res.jobs[0]!
    expect(out.next).toBe('continue')
    expect(out.job).toMatchObject({ status: 'started', active: true, active_qt: 4, completed_qt: 0, remaining_qt: 6, available_qt: 6 })
    expect(out.batch).toMatchObject({ qt_total: 4, number: 1, status: 'open' })
    expect(out.batch!.step_data.map((d) => d._key)).toEqual(s.phases[0]!.steps.map((st) => st._key))
    expect(out.job.work_session_key).toBeString()
    const [mat] = await materialRows(h.svc.db, s.workOrderKey)
    expect(mat).toMatchObject({ released_in_qt: 10, taken_qt: 4 })
    const events = await eventsOf(h.svc.db, job)
    expect(events.map((e) => e.event_type)).toEqual(['JOB_STARTED', 'ACTIVE_BATCH_CHANGED'])
    expect(events[0]).toMatchObject({ user_id: op.key, session_id: op.actor.sessionId })
    expect(events[0]!.created_at.getTime()).toBe(h.clock.now().getTime())
  })
})
