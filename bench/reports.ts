import { labourReport } from '../src-server/domains/reports/labour'
import { oeeReport } from '../src-server/domains/reports/oee'
import { sql } from 'kysely'
import type { Actor, Services } from '../src-server/context'
import { type Db, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import * as reports from '../src-server/domains/reports/service'
import { machineBusy } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL, withDatabase } from './lib/pg'
import { appendResults, machineLine, percentile, table } from './lib/report'
import { env } from './lib/env'

/**
 * Reports at plant scale (issue 16). A throwaway PostgreSQL database seeded with set-based SQL
 * (generate_series, no row-by-row inserts): one year (2026) of a plant with BENCH_REPORT_JOBS
 * (100,000) jobs: work orders of 3 phases (3 departments, 8 lines, 50 products), 20 operators;
 * per job 3 completed batches (5 % with a scrapped piece) and 4 work sessions (pauses between
 * them, some ended offline or by a locked session); 20,000 issues; BENCH_REPORT_EVENTS
 * (5,000,000) events. Each report (the service functions the API calls) for a month and for the
 * year, BENCH_RUNS (15) runs after a warm-up; BENCH_REPORTS_DB reuses a database seeded before. Target: p50 < 300 ms.
 */

const TZ = 'Europe/Rome'
const WARMUPS = 1
const PHASES = 3

export async function seedPlant(db: Db, jobs: number, events: number) {
  const wos = Math.ceil(jobs / PHASES)
  // The daily rollup (report_daily) is filled once at the end, set-based, in the plant's zone: its
  // row triggers are off during the bulk load.
  await sql`update report_zone set time_zone = ${TZ}`.execute(db)
  await sql`alter table work_sessions disable trigger report_daily_sessions`.execute(db)
  await sql`alter table batches disable trigger report_daily_batches`.execute(db)
  await sql`insert into departments (code, name) select 'D' || d, 'Reparto ' || d from generate_series(1, ${PHASES}::int) d`.execute(db)
  await sql`insert into users (username, name, surname, scope, password_hash, hourly_cost)
    select 'op' || u, 'Operatore', lpad(u::text, 2, '0'), 'operator', 'x', case when u % 4 = 0 then null else 20 + u end
    from generate_series(1, 20) u`.execute(db)
  await sql`insert into settings (key, value) values ('operator_hourly_cost', '22') on conflict (key) do update set value = excluded.value`.execute(db)
  await sql`insert into operations (name, default_phase_steps) values ('Bench', '[]')`.execute(db)
  await sql`insert into products (code, description) select 'P' || lpad(p::text, 3, '0'), 'Prodotto ' || p from generate_series(1, 50) p`.execute(db)
  await sql`insert into product_phases (product_id, position, name, operation_id, department_id, parameters, steps, print_templates)
    select p.id, k, 'Fase ' || k, (select id from operations limit 1), (select id from departments where code = 'D' || k),
      jsonb_build_object('std_processing_time', 30 + 15 * k), '[]', '[]'
    from products p cross join generate_series(1, ${PHASES}::int) k`.execute(db)
  await sql`create temp table prod as select id, row_number() over (order by code) - 1 as n from products`.execute(db)
  await sql`create temp table ops as select id, row_number() over (order by username) - 1 as n from users where username like 'op%'`.execute(db)
  // Work order w: product w % 50, line w % 8, worked on day (w * 365 / wos), due 2 days later; 30 pieces.
  await sql`insert into work_orders (id, code, product_id, planned_qt, completed_qt, line, due_by, status, created_at)
    select md5('wo' || w)::uuid, 'WO' || lpad(w::text, 7, '0'), prod.id, 30, 30, 'L' || (w % 8), date '2026-01-01' + (w * 365 / ${wos}::int) + 2,
      case when w % 50 = 0 then 'active' else 'completed' end, timestamp '2026-01-01' + make_interval(days => (w * 365 / ${wos}::int))
    from generate_series(0, ${wos - 1}::int) w join prod on prod.n = w % 50`.execute(db)
  await sql`insert into work_order_phases (work_order_id, phase_id, position, released_in_qt, taken_qt, completed_qt, released_out_qt)
    select wo.id, ph.id, ph.position, 30, 30, 30, 30 from work_orders wo join product_phases ph on ph.product_id = wo.product_id`.execute(db)
  await sql`insert into jobs (id, work_order_id, phase_id, position, quantity, completed_qt, operator_id, status, time_spent_ms, created_at)
    select md5('job' || wo.code || ph.position)::uuid, wo.id, ph.id, ph.position, 30, case when wo.status = 'active' then 10 else 30 end,
      ops.id, case when wo.status = 'active' then 'paused' else 'closed' end, 0, wo.created_at
    from work_orders wo join product_phases ph on ph.product_id = wo.product_id
    join ops on ops.n = ((hashtext(wo.code) & 1023) + ph.position) % 20`.execute(db)
  // Job time: its work order's day, from 06:00 plus 2 h per phase; 4 sessions of 80 min with 20 min pauses.
  await sql`create temp table jt as
    select j.id, j.operator_id, j.status, (wo.created_at at time zone 'UTC' at time zone ${TZ}) + make_interval(hours => 4 + 2 * j.position) as t0
    from jobs j join work_orders wo on wo.id = j.work_order_id`.execute(db)
  await sql`insert into work_sessions (job_id, user_id, started_at, ended_at, end_reason)
    select jt.id, jt.operator_id, jt.t0 + make_interval(mins => 100 * k), jt.t0 + make_interval(mins => 100 * k + 80),
      case when k = 3 then 'closed' when (hashtext(jt.id::text) + k) % 17 = 0 then 'offline' when (hashtext(jt.id::text) + k) % 23 = 0 then 'session_locked' else 'user' end
    from jt cross join generate_series(0, 3) k`.execute(db)
  await sql`insert into batches (job_id, number, qt_total, status, opened_by, opened_at, completed_by, completed_at, scrapped_qt)
    select jt.id, k + 1, 10, 'completed', jt.operator_id, jt.t0 + make_interval(mins => 100 * k), jt.operator_id, jt.t0 + make_interval(mins => 100 * k + 80),
      case when (hashtext(jt.id::text) + k) % 20 = 0 then 1 else 0 end
    from jt cross join generate_series(0, 2) k`.execute(db)
  await sql`alter table work_sessions enable trigger report_daily_sessions`.execute(db)
  await sql`alter table batches enable trigger report_daily_batches`.execute(db)
  await sql`select report_daily_rebuild()`.execute(db)
  await sql`insert into issue_types (code, name, close_within_hours) select 'T' || t, 'Tipo ' || t, 8 from generate_series(1, 6) t`.execute(db)
  await sql`create temp table itypes as select id, row_number() over (order by code) - 1 as n from issue_types`.execute(db)
  await sql`insert into issues (code, type_id, title, state, critical, context_type, job_id, work_order_id, product_id, opened_at, created_at, closed_at, escalated_at)
    select 'ISS-' || lpad(i::text, 6, '0'), itypes.id, 'Segnalazione ' || i, case when i % 10 = 0 then 'open' else 'closed' end, i % 37 = 0, 'job', j.id, j.work_order_id, wo.product_id,
      jt.t0, jt.t0, case when i % 10 = 0 then null else jt.t0 + make_interval(mins => 30 + (i * 37) % 2000) end,
      case when i % 13 = 0 then jt.t0 + interval '8 hours' end
    from generate_series(1, 20000) i
    join jt on jt.id = md5('job' || 'WO' || lpad(((i * 5) % ${wos}::int)::text, 7, '0') || ((i % ${PHASES}::int) + 1))::uuid
    join jobs j on j.id = jt.id join work_orders wo on wo.id = j.work_order_id
    join itypes on itypes.n = i % 6`.execute(db)
  // Events: the job events a year of work appends (a few per session and batch, heartbeats excluded), in 10 chunks.
  const per = Math.ceil(events / 10)
  for (let c = 0; c < 10; c++) {
    await sql`insert into events (event_type, user_id, subject_type, subject_key, created_at, data)
      select (array['JOB_STARTED','JOB_PAUSED','JOB_RESUMED','STEP_COMPLETED','BATCH_COMPLETED','ACTIVE_BATCH_CHANGED','STEP_EDITED'])[1 + e % 7],
        jt.operator_id, 'job', jt.id::text, jt.t0 + make_interval(secs => (e / 1000) % 28000), jsonb_build_object('n', e)
      from generate_series(${c * per}::int, ${Math.min(events, (c + 1) * per) - 1}::int) e
      join jt on jt.id = md5('job' || 'WO' || lpad(((e / ${PHASES}::int) % ${wos}::int)::text, 7, '0') || ((e % ${PHASES}::int) + 1))::uuid`.execute(db)
  }
  await sql`vacuum analyze`.execute(db)
  const count = async (t: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t)}`.execute(db)).rows[0]!.n)
  return {
    jobs: await count('jobs'),
    batches: await count('batches'),
    sessions: await count('work_sessions'),
    issues: await count('issues'),
    events: await count('events'),
    rollup: await count('report_daily'),
  }
}

type Svc = Services & { timeZone: string }
const MONTH = { from: '2026-06-01', to: '2026-06-30', period: 'day' as const }
const YEAR = { from: '2026-01-01', to: '2026-12-31', period: 'month' as const }
const ACTOR: Actor = { userId: '00000000-0000-4000-8000-000000000000', sessionId: null, scope: 'reporting', tokenId: null }

const CASES: { label: string; run: (svc: Svc, range: typeof MONTH | typeof YEAR) => Promise<number> }[] = [
  { label: 'production by product', run: async (svc, r) => (await reports.productionReport(svc, { ...r, group_by: 'product' })).rows.length },
  { label: 'production by operator, line L3', run: async (svc, r) => (await reports.productionReport(svc, { ...r, group_by: 'operator', line: 'L3' })).rows.length },
  { label: 'labour and cost', run: async (svc, r) => (await labourReport(svc, ACTOR, r)).operators.length },
  { label: 'quality by type', run: async (svc, r) => (await reports.qualityReport(svc, { ...r, group_by: 'type' })).rows.length },
  { label: 'OEE by phase', run: async (svc, r) => (await oeeReport(svc, { ...r, group_by: 'phase' })).rows.length },
  { label: 'OEE by line', run: async (svc, r) => (await oeeReport(svc, { ...r, group_by: 'line' })).rows.length },
  { label: 'drill-down jobs (one product)', run: async (svc, r) => (await reports.reportJobs(svc, { ...r, product_key: (await productKey(svc)) })).jobs.length },
]
let product: string | undefined
const productKey = async (svc: Svc) => (product ??= (await svc.db.selectFrom('products').select('id').where('code', '=', 'P007').executeTakeFirstOrThrow()).id)

async function run(ctx: BenchContext) {
  const runs = env('BENCH_RUNS', 15)
  const jobs = env('BENCH_REPORT_JOBS', 100_000)
  const events = env('BENCH_REPORT_EVENTS', 5_000_000)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
  const busy = await machineBusy(2000)
  // BENCH_REPORTS_DB: an already seeded database on the same server (kept; seeding takes minutes).
  // A name that does not exist yet is created and seeded once, then kept for the next runs.
  const reuse = process.env.BENCH_REPORTS_DB
  let seedReused = Boolean(reuse)
  if (reuse) {
    if (!/^[a-z0-9_]+$/.test(reuse)) throw new Error(`BENCH_REPORTS_DB must be a plain database name, not '${reuse}'`)
    const admin = openPostgres(adminUrl, 1)
    try {
      const exists = await sql<{ n: number }>`select count(*)::int as n from pg_database where datname = ${reuse}`.execute(admin.db)
      if (exists.rows[0]!.n === 0) {
        await sql.raw(`create database "${reuse}"`).execute(admin.db)
        seedReused = false
      }
    } finally {
      await admin.close()
    }
  }
  const url = reuse ? withDatabase(adminUrl, reuse) : await (async () => {
    const made = await createThrowawayDatabase(adminUrl, 'mes_bench_reports')
    ctx.onCleanup(() => made.drop())
    return made.url
  })()
  const opened = openPostgres(url, 4)
  ctx.onCleanup(() => opened.close())
  const t0 = performance.now()
  let counts: Awaited<ReturnType<typeof seedPlant>>
  if (seedReused) {
    const c = async (t: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t)}`.execute(opened.db)).rows[0]!.n)
    counts = { jobs: await c('jobs'), batches: await c('batches'), sessions: await c('work_sessions'), issues: await c('issues'), events: await c('events'), rollup: await c('report_daily') }
  } else {
    await migrateToLatest(opened.db)
    counts = await seedPlant(opened.db, jobs, events)
  }
  const seedS = (performance.now() - t0) / 1000
  console.log(`[reports] seeded in ${seedS.toFixed(0)} s: ${JSON.stringify(counts)}`)
  const svc = { db: opened.db, clock: { now: () => new Date('2026-12-31T12:00:00Z') }, timeZone: TZ } as unknown as Svc
  const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(opened.db)).rows[0]!.v

  const rows: string[][] = []
  let missed = 0
  for (const c of CASES) {
    const cells: string[] = [c.label]
    for (const range of [MONTH, YEAR]) {
      let n = 0
      for (let w = 0; w < WARMUPS; w++) n = await c.run(svc, range)
      const times: number[] = []
      for (let r = 0; r < runs; r++) {
        const s = performance.now()
        await c.run(svc, range)
        times.push(performance.now() - s)
      }
      const p50 = percentile(times, 50)
      if (p50 >= 300) missed++
      cells.push(String(n), p50.toFixed(1), percentile(times, 95).toFixed(1))
    }
    cells.push(cells[2]! && Number(cells[2]) < 300 && Number(cells[5]) < 300 ? 'met' : 'MISSED')
    rows.push(cells)
    console.log(`[reports] ${cells.join('  ')}`)
  }
  const t = table(['report', 'rows month', 'p50 ms month', 'p95 ms month', 'rows year', 'p50 ms year', 'p95 ms year', 'p50 < 300 ms'], rows, [false, true, true, true, true, true, true, false])
  console.log(`\n${t.text}\n\n${missed} of ${rows.length * 2} targets missed`)
  appendResults(
    'reports: production, labour, quality and OEE over a year of a plant',
    [
      `Command: \`${ctx.command}\``,
      '',
      `Database: ${counts.jobs.toLocaleString('en')} jobs, ${counts.batches.toLocaleString('en')} completed batches, ${counts.sessions.toLocaleString('en')} work sessions, ${counts.issues.toLocaleString('en')} issues, ${counts.events.toLocaleString('en')} events over 2026, ${counts.rollup.toLocaleString('en')} daily rollup rows (report_daily) (seeded with generate_series${seedReused ? ' earlier (BENCH_REPORTS_DB)' : ` in ${seedS.toFixed(0)} s`}, then VACUUM ANALYZE as autovacuum would).`,
      `Timing: the service functions the API calls (plant zone ${TZ}), in process over one pg pool; month = June by day, year = 2026 by month; ${runs} runs after ${WARMUPS} warm-up.`,
      `Machine: ${machineLine([`PostgreSQL ${version}`])}${busy !== null ? `; busy before the run (other processes): ${(busy * 100).toFixed(0)}% of all cores` : ''}. The machine was shared with other work during the run.`,
      '',
      t.markdown,
      '',
      `Target: p50 < 300 ms for each report, month and year. ${missed} of ${rows.length * 2} missed.`,
    ].join('\n'),
  )
}

export const reportsBench: BenchModule = {
  name: 'reports',
  title: 'reports (production, labour, quality, OEE) for a month and a year: 100k jobs, 5M events (PostgreSQL)',
  run,
}
