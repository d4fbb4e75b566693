import { sql } from 'kysely'
import { labourReport } from './labour'
import { oeeReport } from './oee'
import { beforeAll, describe, expect, test } from 'bun:test'
import type { Db } from '../../db/connect'
import { appCode } from '../../test/fixtures'
import { type Harness, signIn, useHarness } from '../../test/harness'
import { writeSettings } from '../settings/queries'
import { makeOperator, makeSetup, type Operator } from '../execution/test-fixtures'
import * as reports from './service'
import { draftFromRevision, reshapeReleased, testRevisionOf } from '../../test/revisions'

/**
 * A small plant, every figure computed by hand (times UTC; the plant is in Europe/Rome, UTC+1 in
 * November, UTC+2 until 25 October). Now = 2026-11-12 10:00Z (11:00 in Rome).
 *
 * Product with phase A (department "Montaggio", std 1200 s/piece) and phase B (no department,
 * std 600 s/piece). Settings' default operator cost 20/h; op1 costs 30/h, op2 has no cost.
 * - WO1 planned 10, line L1, due 2026-11-10 (late): JA (A, op1, 10 done, closed), JB (B, op2, 8 of 10).
 * - WO2 planned 4, line L2, due 2026-11-12: JC (A, op1, 2 of 4, paused), JD (B, 0 of 4).
 * - WO3 planned 30, line L2, due 2026-11-12 (at risk: 30 x 1800 s = 15 h of work, 13 h left): JE, JF.
 * Work sessions:
 * - op1 JA on 11-10: 07:00-09:00 (pause 30 min) 09:30-11:00 (ended offline; 20 min) 11:20-12:00
 *   (ended session_locked, forced; 10 min) 12:10-13:00 (paused, resumed never: another day, no loss).
 * - op2 JB: 22:00-22:50 on 11-10 (23:00-23:50 in Rome), then 08:00-09:00 on 11-11: the gap crosses
 *   the plant's midnight, so it is no pause.
 * - op1 JC on 11-12: 08:00-09:00, paused since (today: 1 h of pause until now).
 * Batches: JA 4 at 11-10 09:00 and 6 (1 scrapped) at 13:00 (op1); JB 5 at 11-10 23:30Z (= 11-11
 * 00:30 in Rome: the 11th on the plant's calendar, the 10th in UTC) and 3 at 11-11 09:00 (op2);
 * JC 2 at 11-12 09:00 (op1); JE 1 at 2026-10-24 22:30Z (00:30 on 25 October in Rome, summer time).
 */
const TZ = 'Europe/Rome'
const MIN = 60_000
const HOUR = 3_600_000
const QUICK = 'password-123'

describe('reports: a small plant by hand', () => {
  const h = useHarness()
  let svc: Harness['svc'] & { timeZone: string }
  let op1: Operator
  let op2: Operator
  let reporter: Operator
  const k: Record<string, string> = {}
  const range = { from: '2026/11/10', to: '2026/11/12' }

  beforeAll(async () => {
    svc = { ...h.svc, timeZone: TZ }
    const db: Db = h.svc.db
    op1 = await makeOperator(h, 'rep.op1')
    op2 = await makeOperator(h, 'rep.op2')
    reporter = await makeOperator(h, 'rep.viewer', 'reporting')
    await db.updateTable('users').set({ hourly_cost: 30, name: 'Anna', surname: 'Uno' }).where('id', '=', op1.key).execute()
    await db.updateTable('users').set({ name: 'Bruno', surname: 'Due' }).where('id', '=', op2.key).execute()
    await writeSettings(db, { operator_hourly_cost: 20 })
    const dept = await db.insertInto('departments').values({ code: 'MON', name: 'Montaggio' }).returning('id').executeTakeFirstOrThrow()
    k.dept = dept.id

    const wo1 = await makeSetup(db, {
      quantity: 10,
      operator: null,
      phases: [{ name: 'A', params: { std_processing_time: 1200 } }, { name: 'B', params: { std_processing_time: 600 } }],
    })
    k.product = wo1.productKey
    k.phaseA = wo1.phases[0]!.key
    k.phaseB = wo1.phases[1]!.key
    await reshapeReleased(db, (trx) => trx.updateTable('product_phases').set({ department_id: k.dept }).where('id', '=', k.phaseA!).execute())
    k.wo1 = wo1.workOrderKey
    // The library's draft beside the released revision, a phase longer: a work order's output is
    // still its own revision's last phase, never the draft's.
    const released = await testRevisionOf(db, k.product!)
    await draftFromRevision(db, released)
    await sql`insert into product_phases (product_id, position, name, operation_id, parameters, steps, production_notes, print_templates, lineage)
      select product_id, 2, 'C', operation_id, parameters, steps, production_notes, print_templates, gen_random_uuid() from product_phases
      where product_id = ${k.product!} and revision_id is null and position = 1`.execute(db)
    k.JA = wo1.jobs[0]![0]!
    k.JB = wo1.jobs[1]![0]!
    // WO2 and WO3: the same product and phases.
    const addWorkOrder = async (code: string, planned: number, line: string, due: string) => {
      const { id } = await db
        .insertInto('work_orders')
        .values({ code, product_id: k.product!, planned_qt: planned, line, due_by: due, revision_id: await testRevisionOf(db, k.product!) })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db
        .insertInto('work_order_phases')
        .values([
          { work_order_id: id, phase_id: k.phaseA!, position: 1, released_in_qt: planned },
          { work_order_id: id, phase_id: k.phaseB!, position: 2 },
        ])
        .execute()
      const jobs = await db
        .insertInto('jobs')
        .values([
          { work_order_id: id, phase_id: k.phaseA!, position: 1, quantity: planned, operator_id: op1.key },
          { work_order_id: id, phase_id: k.phaseB!, position: 2, quantity: planned, operator_id: op2.key },
        ])
        .returning('id')
        .execute()
      return { id, jobs: jobs.map((j) => j.id) }
    }
    await db.updateTable('work_orders').set({ line: 'L1', due_by: '2026-11-10', code: 'WO-REP-1' }).where('id', '=', k.wo1).execute()
    const wo2 = await addWorkOrder('WO-REP-2', 4, 'L2', '2026-11-12')
    const wo3 = await addWorkOrder('WO-REP-3', 30, 'L2', '2026-11-12')
    k.wo2 = wo2.id
    k.wo3 = wo3.id
    ;[k.JC, k.JD] = wo2.jobs as [string, string]
    ;[k.JE, k.JF] = wo3.jobs as [string, string]
    await db.updateTable('jobs').set({ operator_id: op1.key, status: 'closed', completed_qt: 10 }).where('id', '=', k.JA).execute()
    await db.updateTable('jobs').set({ operator_id: op2.key, status: 'paused', completed_qt: 8 }).where('id', '=', k.JB).execute()
    await db.updateTable('jobs').set({ status: 'paused', completed_qt: 2 }).where('id', '=', k.JC).execute()

    const session = (job: string, user: string, start: string, end: string, reason: string) => ({
      job_id: job,
      user_id: user,
      started_at: new Date(start),
      ended_at: new Date(end),
      end_reason: reason,
    })
    await db
      .insertInto('work_sessions')
      .values([
        session(k.JA!, op1.key, '2026-11-10T07:00:00Z', '2026-11-10T09:00:00Z', 'user'),
        session(k.JA!, op1.key, '2026-11-10T09:30:00Z', '2026-11-10T11:00:00Z', 'offline'),
        session(k.JA!, op1.key, '2026-11-10T11:20:00Z', '2026-11-10T12:00:00Z', 'session_locked'),
        session(k.JA!, op1.key, '2026-11-10T12:10:00Z', '2026-11-10T13:00:00Z', 'user'),
        session(k.JB!, op2.key, '2026-11-10T22:00:00Z', '2026-11-10T22:50:00Z', 'user'),
        session(k.JB!, op2.key, '2026-11-11T08:00:00Z', '2026-11-11T09:00:00Z', 'user'),
        session(k.JC!, op1.key, '2026-11-12T08:00:00Z', '2026-11-12T09:00:00Z', 'user'),
      ])
      .execute()
    const batch = (job: string, number: number, qt: number, at: string, by: string, scrapped = 0) => ({
      job_id: job,
      number,
      qt_total: qt,
      status: 'completed' as const,
      opened_by: by,
      opened_at: new Date(new Date(at).getTime() - HOUR),
      completed_by: by,
      completed_at: new Date(at),
      scrapped_qt: scrapped,
    })
    await db
      .insertInto('batches')
      .values([
        batch(k.JA!, 1, 4, '2026-11-10T09:00:00Z', op1.key),
        batch(k.JA!, 2, 6, '2026-11-10T13:00:00Z', op1.key, 1),
        batch(k.JB!, 1, 5, '2026-11-10T23:30:00Z', op2.key),
        batch(k.JB!, 2, 3, '2026-11-11T09:00:00Z', op2.key),
        batch(k.JC!, 1, 2, '2026-11-12T09:00:00Z', op1.key),
        batch(k.JE!, 1, 1, '2026-10-24T22:30:00Z', op1.key),
      ])
      .execute()

    // Issues: I1 (T1, JA) 2 h to close; I2 (T1, JB) 6 h; I3 (T2, WO2) opened 00:30 on 11-12 in Rome, critical, escalated,
    // open; I4 (T2, product) opened 11-09 (before the range), closed 11-12 after 71 h.
    const t1 = await db.insertInto('issue_types').values({ code: 'DIF', name: 'Difetto' }).returning('id').executeTakeFirstOrThrow()
    const t2 = await db.insertInto('issue_types').values({ code: 'MAT', name: 'Materiale' }).returning('id').executeTakeFirstOrThrow()
    k.t1 = t1.id
    k.t2 = t2.id
    const issue = (code: string, type: string, ctx: Record<string, unknown>, opened: string, closed: string | null, extra: Record<string, unknown> = {}) => ({
      code,
      type_id: type,
      title: code,
      state: closed ? 'closed' : 'open',
      opened_at: new Date(opened),
      created_at: new Date(opened),
      closed_at: closed ? new Date(closed) : null,
      ...ctx,
      ...extra,
    })
    await db
      .insertInto('issues')
      .values([
        issue('REP-I1', k.t1!, { context_type: 'job', job_id: k.JA, work_order_id: k.wo1, product_id: k.product }, '2026-11-10T10:00:00Z', '2026-11-10T12:00:00Z'),
        issue('REP-I2', k.t1!, { context_type: 'job', job_id: k.JB, work_order_id: k.wo1, product_id: k.product }, '2026-11-11T08:00:00Z', '2026-11-11T14:00:00Z'),
        issue('REP-I3', k.t2!, { context_type: 'work_order', work_order_id: k.wo2, product_id: k.product }, '2026-11-11T23:30:00Z', null, {
          critical: true,
          escalated_at: new Date('2026-11-12T00:30:00Z'),
        }),
        issue('REP-I4', k.t2!, { context_type: 'product', product_id: k.product }, '2026-11-09T10:00:00Z', '2026-11-12T09:00:00Z'),
      ] as never)
      .execute()
    h.clock.set('2026-11-12T10:00:00Z')
  }, 60_000)

  test('production: pieces per plant day (a batch at 23:30Z counts on the next day in Rome), planned, groups, late and at risk', async () => {
    const r = await reports.productionReport(svc, { ...range, period: 'day', group_by: 'operator' })
    expect(r.time_zone).toBe(TZ)
    expect(r.buckets).toEqual([
      { bucket: '2026/11/10', completed: 10, scrapped: 1, planned: 10, final_completed: 0 },
      { bucket: '2026/11/11', completed: 8, scrapped: 0, planned: 0, final_completed: 8 },
      { bucket: '2026/11/12', completed: 2, scrapped: 0, planned: 34, final_completed: 0 },
    ])
    expect(r.totals).toEqual({ completed: 20, scrapped: 1, good: 19, planned: 44, work_orders_late: 1, work_orders_at_risk: 1 })
    expect(r.rows).toEqual([
      { key: op1.key, label: 'Anna Uno', completed: 12, scrapped: 1, good: 11, jobs: 2, work_orders: 2 },
      { key: op2.key, label: 'Bruno Due', completed: 8, scrapped: 0, good: 8, jobs: 1, work_orders: 1 },
    ])
    expect(r.late).toEqual([
      expect.objectContaining({ code: 'WO-REP-1', state: 'late', due_by: '2026/11/10', remaining_work_ms: 2 * 600_000 }),
      expect.objectContaining({ code: 'WO-REP-3', state: 'at_risk', due_by: '2026/11/12', remaining_work_ms: 30 * 1_800_000, time_to_due_ms: 13 * HOUR }),
    ])
    // The same batches in UTC: the 23:30Z batch falls on the 10th.
    const utc = await reports.productionReport({ ...svc, timeZone: 'UTC' }, { ...range })
    expect(utc.buckets.map((b) => b.completed)).toEqual([15, 3, 2])

    const byDept = await reports.productionReport(svc, { ...range, group_by: 'department' })
    expect(byDept.rows.map((x) => [x.label, x.completed])).toEqual([
      ['Montaggio', 12],
      ['', 8],
    ])
    const byLine = await reports.productionReport(svc, { ...range, group_by: 'line', line: 'L2' })
    expect(byLine.rows.map((x) => [x.label, x.completed])).toEqual([['L2', 2]])
    expect(byLine.totals.planned).toBe(34)
  })

  test('periods: weeks start on Monday, months and years on the plant calendar; summer time on 25 October', async () => {
    const weeks = await reports.productionReport(svc, { from: '2026/11/01', to: '2026/11/30', period: 'week' })
    expect(weeks.buckets.map((b) => [b.bucket, b.completed])).toEqual([
      ['2026/10/26', 0],
      ['2026/11/02', 0],
      ['2026/11/09', 20],
      ['2026/11/16', 0],
      ['2026/11/23', 0],
      ['2026/11/30', 0],
    ])
    const months = await reports.productionReport(svc, { from: '2026/10/01', to: '2026/11/30', period: 'month' })
    expect(months.buckets.map((b) => [b.bucket, b.completed])).toEqual([
      ['2026/10/01', 1],
      ['2026/11/01', 20],
    ])
    const year = await reports.productionReport(svc, { from: '2026/01/01', to: '2026/12/31', period: 'year' })
    expect(year.buckets).toEqual([{ bucket: '2026/01/01', completed: 21, scrapped: 1, planned: 44, final_completed: 8 }])
    // 2026-10-24 22:30Z is 00:30 on the 25th in Rome (UTC+2 before the clocks go back).
    const october = await reports.productionReport(svc, { from: '2026/10/24', to: '2026/10/25' })
    expect(october.buckets.map((b) => b.completed)).toEqual([0, 1])
    const octoberUtc = await reports.productionReport({ ...svc, timeZone: 'UTC' }, { from: '2026/10/24', to: '2026/10/25' })
    expect(octoberUtc.buckets.map((b) => b.completed)).toEqual([1, 0])
  })

  test('labour: hours, pauses, forced pauses and offline apart; cost from hourly cost or the default; per work order against standard', async () => {
    const r = await labourReport(svc, reporter.actor, { ...range })
    expect(r.default_hourly_cost).toBe(20)
    expect(r.operators).toEqual([
      {
        operator_key: op1.key,
        username: 'rep.op1',
        name: 'Anna Uno',
        worked_ms: 360 * MIN,
        pause_ms: 90 * MIN,
        forced_pause_ms: 10 * MIN,
        offline_ms: 20 * MIN,
        sessions: 5,
        pieces: 12,
        std_ms: 12 * 1_200_000,
        hourly_cost: 30,
        default_cost: false,
        cost: 180,
      },
      {
        operator_key: op2.key,
        username: 'rep.op2',
        name: 'Bruno Due',
        worked_ms: 110 * MIN,
        pause_ms: 0,
        forced_pause_ms: 0,
        offline_ms: 0,
        sessions: 2,
        pieces: 8,
        std_ms: 8 * 600_000,
        hourly_cost: 20,
        default_cost: true,
        cost: 36.67,
      },
    ])
    expect(r.totals).toEqual({ worked_ms: 470 * MIN, pause_ms: 90 * MIN, forced_pause_ms: 10 * MIN, offline_ms: 20 * MIN, cost: 216.67, std_ms: 19_200_000, pieces: 20 })
    expect(r.buckets).toEqual([
      { bucket: '2026/11/10', worked_ms: 350 * MIN, pause_ms: 30 * MIN, forced_pause_ms: 10 * MIN, offline_ms: 20 * MIN },
      { bucket: '2026/11/11', worked_ms: 60 * MIN, pause_ms: 0, forced_pause_ms: 0, offline_ms: 0 },
      { bucket: '2026/11/12', worked_ms: 60 * MIN, pause_ms: 60 * MIN, forced_pause_ms: 0, offline_ms: 0 },
    ])
    expect(r.work_orders).toEqual([
      {
        work_order_key: k.wo1!,
        code: 'WO-REP-1',
        product_code: expect.any(String),
        worked_ms: 410 * MIN,
        std_ms: 16_800_000,
        cost: 186.67,
        std_cost: 126.67,
        pieces: 8,
        cost_per_piece: 23.33,
        std_cost_per_piece: 15.83,
      },
      { work_order_key: k.wo2!, code: 'WO-REP-2', product_code: expect.any(String), worked_ms: 60 * MIN, std_ms: 2_400_000, cost: 30, std_cost: 20, pieces: 0, cost_per_piece: null, std_cost_per_piece: null },
    ])
  })

  test('OEE per phase: availability, performance, quality and their product', async () => {
    const r = await oeeReport(svc, { ...range, group_by: 'phase' })
    const a = r.rows.find((x) => x.key === k.phaseA)!
    expect(a).toMatchObject({ run_ms: 360 * MIN, pause_ms: 90 * MIN, forced_pause_ms: 10 * MIN, offline_ms: 20 * MIN, planned_ms: 480 * MIN, std_ms: 14_400_000, pieces: 12, scrapped: 1 })
    expect(a.availability).toBeCloseTo(0.75, 10)
    expect(a.performance).toBeCloseTo(2 / 3, 10)
    expect(a.quality).toBeCloseTo(11 / 12, 10)
    expect(a.oee).toBeCloseTo(0.75 * (2 / 3) * (11 / 12), 10)
    expect(a.label).toEndWith(' rev 1 · A')
    const b = r.rows.find((x) => x.key === k.phaseB)!
    expect(b).toMatchObject({ run_ms: 110 * MIN, planned_ms: 110 * MIN, availability: 1, quality: 1 })
    expect(b.performance).toBeCloseTo(4_800_000 / 6_600_000, 10)
    expect(r.totals.availability).toBeCloseTo(470 / 590, 10)
    expect(r.totals.performance).toBeCloseTo(19_200_000 / (470 * MIN), 10)
    expect(r.totals.quality).toBeCloseTo(19 / 20, 10)
    expect(r.totals.oee).toBeCloseTo((470 / 590) * (19_200_000 / (470 * MIN)) * 0.95, 10)
    const byDept = await oeeReport(svc, { ...range, group_by: 'department' })
    expect(byDept.rows.find((x) => x.key === k.dept)).toMatchObject({ label: 'Montaggio', run_ms: 360 * MIN })
    // A day without work: no ratios.
    const empty = await oeeReport(svc, { from: '2026/11/20', to: '2026/11/20' })
    expect(empty.totals).toMatchObject({ run_ms: 0, availability: null, performance: null, quality: null, oee: null })
  })

  test('quality: opened, closed, escalated per plant day; open critical; time to close median and p90', async () => {
    const r = await reports.qualityReport(svc, { ...range, group_by: 'type' })
    expect(r.buckets).toEqual([
      { bucket: '2026/11/10', opened: 1, closed: 1, escalated: 0 },
      { bucket: '2026/11/11', opened: 1, closed: 1, escalated: 0 },
      { bucket: '2026/11/12', opened: 1, closed: 1, escalated: 1 },
    ])
    // Durations 2 h, 6 h, 71 h: median 6 h; p90 = 6 + 0.8 x 65 = 58 h (linear interpolation).
    expect(r.totals).toEqual({ opened: 3, closed: 3, escalated: 1, open_critical: 1, close_median_ms: 6 * HOUR, close_p90_ms: 58 * HOUR })
    expect(r.rows).toEqual([
      { key: k.t1!, label: 'Difetto', opened: 2, closed: 2, escalated: 0, open_critical: 0, close_median_ms: 4 * HOUR, close_p90_ms: 5.6 * HOUR },
      { key: k.t2!, label: 'Materiale', opened: 1, closed: 1, escalated: 1, open_critical: 1, close_median_ms: 71 * HOUR, close_p90_ms: 71 * HOUR },
    ])
    expect(r.open_critical.map((i) => i.code)).toEqual(['REP-I3'])
    const byPhase = await reports.qualityReport(svc, { ...range, group_by: 'phase' })
    const phaseRow = (key: string | null) => byPhase.rows.find((x) => x.key === key)
    expect(phaseRow(null)).toMatchObject({ label: '', opened: 1, closed: 1, escalated: 1, open_critical: 1 })
    expect(phaseRow(k.phaseA!)).toMatchObject({ opened: 1, closed: 1 })
    expect(phaseRow(k.phaseB!)).toMatchObject({ opened: 1, closed: 1 })
  })

  test('drill-down: the jobs behind a bar; dashboard of today', async () => {
    const all = await reports.reportJobs(svc, { ...range })
    expect(all.jobs.map((j) => [j.job_key, j.completed_in_range, j.scrapped_in_range, j.worked_ms])).toEqual([
      [k.JA!, 10, 1, 300 * MIN],
      [k.JB!, 8, 0, 110 * MIN],
      [k.JC!, 2, 0, 60 * MIN],
    ])
    const day11 = await reports.reportJobs(svc, { ...range, bucket: '2026/11/11' })
    expect(day11.jobs.map((j) => [j.job_key, j.completed_in_range, j.worked_ms])).toEqual([[k.JB!, 8, 60 * MIN]])
    const op1Only = await reports.reportJobs(svc, { ...range, operator_key: op1.key, phase_key: k.phaseA! })
    expect(op1Only.jobs.map((j) => j.job_key)).toEqual([k.JA!, k.JC!])

    expect(await reports.productionDashboard(svc)).toEqual({
      today: '2026/11/12',
      time_zone: TZ,
      completed_today: 0,
      planned_today: 34,
      running_jobs: 0,
      paused_jobs: 2,
      open_critical_issues: 1,
    })
  })

  test('REST: the reports as JSON for BI, reporting scope only, bad ranges refused with 400', async () => {
    // Sign in again: the clock moved past the first sessions' expiry.
    reporter = { ...reporter, token: await signIn(h, 'rep.viewer', QUICK) }
    op1 = { ...op1, token: await signIn(h, 'rep.op1', QUICK) }
    const ok = await h.request('GET', '/api/report/production?from=2026-11-10&to=2026/11/12&group_by=phase', { token: reporter.token })
    expect(ok.status).toBe(200)
    expect(ok.body.detail.totals.completed).toBe(20)
    for (const path of ['labour', 'quality', 'oee', 'jobs']) {
      const res = await h.request('GET', `/api/report/${path}?from=2026-11-10&to=2026-11-12&period=week`, { token: reporter.token })
      expect(res.status).toBe(200)
    }
    const dash = await h.request('GET', '/api/report/dashboard', { token: reporter.token })
    expect(dash.body.detail).toMatchObject({ open_critical_issues: 1 })
    const refused = await h.request('GET', '/api/report/production?from=2026-11-10&to=2026-11-12', { token: op1.token })
    expect(refused.status).toBe(403)
    const backwards = await h.request('GET', '/api/report/oee?from=2026-11-12&to=2026-11-10', { token: reporter.token })
    expect(backwards.status).toBe(400)
    expect(appCode(backwards.body)).toBe('INVALID_INPUT')
    expect(backwards.body.detail.issues[0]).toMatchObject({ path: 'to', kind: 'invalid' })
    const tooLong = await h.request('GET', '/api/report/oee?from=2000-01-01&to=2026-11-10', { token: reporter.token })
    expect(tooLong.status).toBe(400)
    const badDay = await h.request('GET', '/api/report/labour?from=2026-02-30&to=2026-03-01', { token: reporter.token })
    expect(badDay.status).toBe(400)
    const badPeriod = await h.request('GET', '/api/report/labour?from=2026-02-01&to=2026-03-01&period=fortnight', { token: reporter.token })
    expect(badPeriod.status).toBe(400)
    const unknown = await h.request('GET', '/api/report/labour?from=2026-02-01&to=2026-03-01&colour=red', { token: reporter.token })
    expect(unknown.status).toBe(400)
    const openapi = await h.request('GET', '/api/openapi.json')
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/report/production', '/report/labour', '/report/quality', '/report/oee', '/report/jobs', '/report/dashboard']))
  })
})
