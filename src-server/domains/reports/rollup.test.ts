import { oeeReport } from './oee'
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { Db } from '../../db/connect'
import { type Harness, useHarness } from '../../test/harness'
import { makeOperator, makeSetup, type Operator } from '../execution/test-fixtures'
import { batchesCte, boundsCte, type Frame, sessionsCte } from './queries'
import * as reports from './service'

/**
 * The daily rollup (report_daily, kept by triggers on work_sessions and batches) must always equal
 * what a from-scratch computation gives: after every kind of change (sessions inserted
 * one by one and together, ended, moved across the plant's midnight, reassigned, deleted; batches opened, completed,
 * corrected, cancelled, deleted; a transaction rolled back; the plant's zone changed), the rollup
 * equals (1) its set-based rebuild and (2) the report totals read straight from the raw tables
 * with the pre-rollup queries (sessionsCte, batchesCte).
 */
const TZ = 'Europe/Rome'
const HOUR = 3_600_000

type RollRow = { day: string; job_id: string; user_id: string | null; sessions: number; run_ms: string; pause_ms: string; forced_pause_ms: string; offline_ms: string; batches: number; pieces: string; scrapped: string }

async function rollup(db: Db): Promise<RollRow[]> {
  const { rows } = await sql<RollRow>`select to_char(day, 'YYYY-MM-DD') as day, job_id, user_id, sessions, run_ms::text, pause_ms::text, forced_pause_ms::text,
      offline_ms::text, batches, pieces::text, scrapped::text
    from report_daily where sessions <> 0 or batches <> 0 order by day, job_id, user_id nulls first`.execute(db)
  return rows.map((r) => ({ ...r, run_ms: String(Number(r.run_ms)), pause_ms: String(Number(r.pause_ms)), forced_pause_ms: String(Number(r.forced_pause_ms)), offline_ms: String(Number(r.offline_ms)) }))
}

/** The rollup rebuilt from scratch (set-based), inside a transaction that is then rolled back. */
async function rebuilt(db: Db): Promise<RollRow[]> {
  let rows: RollRow[] = []
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`select report_daily_rebuild()`.execute(trx)
      rows = await rollup(trx as unknown as Db)
      throw new Error('rollback')
    })
    .catch((e: Error) => {
      if (e.message !== 'rollback') throw e
    })
  return rows
}

/** Totals of the range straight from the raw tables (the queries the reports used before the rollup). */
async function rawTotals(db: Db, f: Frame) {
  const { rows } = await sql<{ run_ms: string; pause_ms: string; forced_ms: string; offline_ms: string; sessions: number; pieces: string; scrapped: string; std_ms: string }>`
    with ${boundsCte(f)}, ${sessionsCte(f, sql``)}, ${batchesCte(f, sql``)}
    select (select coalesce(sum(run_ms), 0) from ws)::text as run_ms,
      (select coalesce(sum(gap_ms) filter (where gap_kind = 'pause'), 0) from ws)::text as pause_ms,
      (select coalesce(sum(gap_ms) filter (where gap_kind = 'forced'), 0) from ws)::text as forced_ms,
      (select coalesce(sum(gap_ms) filter (where gap_kind = 'offline'), 0) from ws)::text as offline_ms,
      (select count(*)::int from ws) as sessions,
      (select coalesce(sum(qt_total), 0) from bt)::text as pieces,
      (select coalesce(sum(scrapped_qt), 0) from bt)::text as scrapped,
      (select coalesce(sum(std_ms), 0) from bt)::text as std_ms`.execute(db)
  const r = rows[0]!
  return {
    run_ms: Math.round(Number(r.run_ms)),
    pause_ms: Math.round(Number(r.pause_ms)),
    forced_pause_ms: Math.round(Number(r.forced_ms)),
    offline_ms: Math.round(Number(r.offline_ms)),
    pieces: Number(r.pieces),
    scrapped: Number(r.scrapped),
    std_ms: Math.round(Number(r.std_ms)),
  }
}

describe('reports: the daily rollup stays equal to a from-scratch computation', () => {
  const h = useHarness()
  let svc: Harness['svc'] & { timeZone: string }
  let db: Db
  let op1: Operator
  let op2: Operator
  let JA: string
  let JB: string
  const range = { from: '2026/11/09', to: '2026/11/13' }

  beforeAll(async () => {
    svc = { ...h.svc, timeZone: TZ }
    db = h.svc.db
    op1 = await makeOperator(h, 'roll.op1')
    op2 = await makeOperator(h, 'roll.op2')
    const wo = await makeSetup(db, {
      quantity: 20,
      operator: null,
      phases: [{ name: 'A', params: { std_processing_time: 90 } }, { name: 'B', params: { std_processing_time: 30 } }],
    })
    JA = wo.jobs[0]![0]!
    JB = wo.jobs[1]![0]!
    await db.updateTable('jobs').set({ status: 'paused' }).where('id', 'in', [JA, JB]).execute()
    h.clock.set('2026-11-12T10:00:00Z')
  })

  const check = async (label: string) => {
    const now = await rollup(db)
    expect({ label, rows: now }).toEqual({ label, rows: await rebuilt(db) })
    const f: Frame = { tz: TZ, period: 'day', from: '2026-11-09', to: '2026-11-13', now: svc.clock.now() }
    const raw = await rawTotals(db, f)
    const oee = await oeeReport(svc, { ...range, group_by: 'phase' })
    const t = oee.totals
    expect({ label, run: t.run_ms, pause: t.pause_ms, forced: t.forced_pause_ms, offline: t.offline_ms, pieces: t.pieces, scrapped: t.scrapped, std: t.std_ms }).toEqual({
      label,
      run: raw.run_ms,
      pause: raw.pause_ms,
      forced: raw.forced_pause_ms,
      offline: raw.offline_ms,
      pieces: raw.pieces,
      scrapped: raw.scrapped,
      std: raw.std_ms,
    })
    return now
  }

  test('sessions and batches changed in every way, a rolled-back transaction, a zone change', async () => {
    await reports.ensureRollupZone(db, TZ)
    const ws = (job: string, user: string, start: string, end: string | null, reason: string | null) => ({
      job_id: job,
      user_id: user,
      started_at: new Date(start),
      ended_at: end ? new Date(end) : null,
      end_reason: reason,
    })
    // Sessions one by one and several in one statement: the pause before each is linked by the next-session trigger.
    await db.insertInto('work_sessions').values(ws(JA, op1.key, '2026-11-10T07:00:00Z', '2026-11-10T09:00:00Z', 'user')).execute()
    await db.insertInto('work_sessions').values(ws(JA, op1.key, '2026-11-10T09:30:00Z', '2026-11-10T11:00:00Z', 'offline')).execute()
    await db
      .insertInto('work_sessions')
      .values([ws(JA, op1.key, '2026-11-10T11:20:00Z', '2026-11-10T12:00:00Z', 'session_locked'), ws(JB, op2.key, '2026-11-10T22:00:00Z', '2026-11-10T22:50:00Z', 'user')])
      .execute()
    let rows = await check('sessions inserted')
    expect(rows.find((r) => r.job_id === JA)).toMatchObject({ sessions: 3, pause_ms: String(30 * 60_000), offline_ms: String(20 * 60_000) })

    // An open session today (live run time), then ended (a pause open until now), then followed by another.
    const open = await db.insertInto('work_sessions').values(ws(JB, op2.key, '2026-11-12T08:00:00Z', null, null)).returning('id').executeTakeFirstOrThrow()
    await check('open session')
    await db.updateTable('work_sessions').set({ ended_at: new Date('2026-11-12T09:00:00Z'), end_reason: 'user' }).where('id', '=', open.id).execute()
    await check('session ended, pause open')
    await db.insertInto('work_sessions').values(ws(JB, op2.key, '2026-11-12T09:15:00Z', '2026-11-12T09:45:00Z', 'session_locked')).execute()
    rows = await check('next session')

    // A session moved across the plant's midnight (22:30Z on the 10th = 23:30 in Rome; 23:30Z = the 11th), reassigned, deleted.
    const moved = await db.insertInto('work_sessions').values(ws(JA, op1.key, '2026-11-10T22:30:00Z', '2026-11-10T22:45:00Z', 'user')).returning('id').executeTakeFirstOrThrow()
    await check('late session')
    await db.updateTable('work_sessions').set({ started_at: new Date('2026-11-10T23:30:00Z'), ended_at: new Date('2026-11-10T23:45:00Z') }).where('id', '=', moved.id).execute()
    await check('moved across midnight')
    await db.updateTable('work_sessions').set({ user_id: op2.key }).where('id', '=', moved.id).execute()
    await check('reassigned')
    await db.deleteFrom('work_sessions').where('id', '=', moved.id).execute()
    await check('deleted session')

    // Batches: opened (not counted), completed, scrap corrected, quantity corrected, cancelled, deleted, completed by nobody.
    const batch = (job: string, number: number, qt: number, at: string, by: string | null, status: 'open' | 'completed' = 'completed', scrapped = 0) => ({
      job_id: job,
      number,
      qt_total: qt,
      status,
      opened_by: by,
      opened_at: new Date(new Date(at).getTime() - HOUR),
      completed_by: status === 'completed' ? by : null,
      completed_at: status === 'completed' ? new Date(at) : null,
      scrapped_qt: scrapped,
    })
    const b1 = await db.insertInto('batches').values(batch(JA, 1, 4, '2026-11-10T09:00:00Z', op1.key, 'open')).returning('id').executeTakeFirstOrThrow()
    await check('batch opened')
    await db.updateTable('batches').set({ status: 'completed', completed_by: op1.key, completed_at: new Date('2026-11-10T09:00:00Z') }).where('id', '=', b1.id).execute()
    await check('batch completed')
    await db.updateTable('batches').set({ scrapped_qt: 1 }).where('id', '=', b1.id).execute()
    await db.updateTable('batches').set({ qt_total: 5 }).where('id', '=', b1.id).execute()
    rows = await check('batch corrected')
    expect(rows.find((r) => r.job_id === JA && r.batches > 0)).toMatchObject({ batches: 1, pieces: '5', scrapped: '1' })
    await db.insertInto('batches').values([batch(JB, 1, 5, '2026-11-10T23:30:00Z', op2.key), batch(JB, 2, 3, '2026-11-11T09:00:00Z', null)]).execute()
    const b4 = await db.insertInto('batches').values(batch(JB, 3, 2, '2026-11-11T10:00:00Z', op2.key)).returning('id').executeTakeFirstOrThrow()
    await check('more batches')
    await db.updateTable('batches').set({ status: 'cancelled' }).where('id', '=', b4.id).execute()
    await check('batch cancelled')
    await db.deleteFrom('batches').where('id', '=', b4.id).execute()
    const before = await check('batch deleted')

    // A transaction that writes a session and a batch, then fails: the rollup is as before.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('work_sessions').values(ws(JA, op1.key, '2026-11-11T07:00:00Z', '2026-11-11T08:00:00Z', 'user')).execute()
        await trx.insertInto('batches').values(batch(JA, 2, 6, '2026-11-11T08:00:00Z', op1.key, 'completed', 2)).execute()
        await trx.updateTable('batches').set({ scrapped_qt: 0 }).where('id', '=', b1.id).execute()
        throw new Error('rolled back')
      })
      .catch((e: Error) => {
        if (e.message !== 'rolled back') throw e
      })
    expect(await check('rolled back')).toEqual(before)

    // The plant's zone changes: the rollup is rebuilt on the new calendar (the 23:30Z batch falls on the 10th in UTC), then back.
    await reports.ensureRollupZone(db, 'UTC')
    const utc = await rollup(db)
    expect(utc).toEqual(await rebuilt(db))
    expect(utc.find((r) => r.job_id === JB && r.pieces === '5')?.day).toBe('2026-11-10')
    await reports.ensureRollupZone(db, TZ)
    const rome = await check('zone back')
    expect(rome).toEqual(before)
    expect(rome.find((r) => r.job_id === JB && r.pieces === '5')?.day).toBe('2026-11-11')

    // A job deleted with its sessions and batches takes its rollup rows along.
    await db.deleteFrom('jobs').where('id', '=', JB).execute()
    const left = await check('job deleted')
    expect(left.some((r) => r.job_id === JB)).toBe(false)
    expect(left.length).toBeGreaterThan(0)
  })
})
