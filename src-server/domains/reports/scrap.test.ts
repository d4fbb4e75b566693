import { oeeReport } from './oee'
import { describe, expect, test } from 'bun:test'
import { useHarness } from '../../test/harness'
import { startJobs } from '../execution/start-pause'
import { eventsOf, makeOperator, makeSetup, newKey } from '../execution/test-fixtures'

/** Scrap declared at batch completion (issue 16: OEE quality needs it): stored, in the event, refused above the batch. */
describe('reports: scrapped pieces at batch completion', () => {
  const h = useHarness()

  test('the operator declares scrap when completing a batch; more than the batch is refused and nothing changes', async () => {
    h.clock.set('2026-11-12T08:00:00Z')
    const op = await makeOperator(h, 'scrap.op')
    const s = await makeSetup(h.svc.db, {
      quantity: 6,
      operator: op.key,
      phases: [{ steps: [{ type: 'instruction' }], params: { production_batch_qt: 3, std_processing_time: 60, step_check: false } }],
    })
    const job = s.jobs[0]![0]!
    const started = await startJobs(h.svc, op.actor, { job_keys: [job], idempotency_key: newKey() })
    const batch = started.jobs[0]!.job.active_batch_key!
    h.clock.advance(3 * 60_000)

    const tooMany = await h.request('POST', `/api/batch/${batch}/complete`, { token: op.token, body: { idempotency_key: newKey(), scrapped_qt: 4 } })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.detail.issues[0]).toMatchObject({ path: 'scrapped_qt', kind: 'max_value', limit: 3 })
    const negative = await h.request('POST', `/api/batch/${batch}/complete`, { token: op.token, body: { idempotency_key: newKey(), scrapped_qt: -1 } })
    expect(negative.status).toBe(400)
    expect((await h.svc.db.selectFrom('batches').select(['status', 'scrapped_qt']).where('id', '=', batch).executeTakeFirstOrThrow())).toEqual({ status: 'open', scrapped_qt: 0 })

    const done = await h.request('POST', `/api/batch/${batch}/complete`, { token: op.token, body: { idempotency_key: newKey(), scrapped_qt: 1 } })
    expect(done.status).toBe(200)
    expect(await h.svc.db.selectFrom('batches').select(['status', 'scrapped_qt']).where('id', '=', batch).executeTakeFirstOrThrow()).toEqual({ status: 'completed', scrapped_qt: 1 })
    const [event] = await eventsOf(h.svc.db, job, 'BATCH_COMPLETED')
    expect(event!.data).toMatchObject({ qt_total: 3, scrapped_qt: 1 })

    const oee = await oeeReport({ ...h.svc, timeZone: 'UTC' }, { from: '2026/11/12', to: '2026/11/12' })
    // 3 pieces, 1 scrapped: quality 2/3; 3 x 60 s standard in 3 minutes of run: performance 1.
    expect(oee.totals).toMatchObject({ pieces: 3, scrapped: 1, run_ms: 180_000, std_ms: 180_000, performance: 1 })
    expect(oee.totals.quality).toBeCloseTo(2 / 3, 10)
  })
})
