import { sql } from 'kysely'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { JOB_FILTERS, type JobFilter } from '../src/domains/jobs/rules'
import type { JobListInput } from '../src/domains/jobs/schemas'
import { systemClock } from '../src-server/clock'
import type { Services } from '../src-server/context'
import { type Db, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { listJobs } from '../src-server/domains/jobs/list'
import { getJobAssignment } from '../src-server/domains/jobs/operator-queues'
import { listWorkOrders } from '../src-server/domains/work-orders/list'
import { getSiteQueue } from '../src-server/domains/work-orders/site-queue'
import { machineBusy } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import os from 'node:os'
import { appendResults, loadAverage, machineLine, percentile, table } from './lib/report'
import { env } from './lib/env'

/**
 * Planning at plant scale (issues 5 and 23): the same plant seeded twice with SQL (generate_series)
 * in two throwaway PostgreSQL databases, a small one (100 work orders, 1,000 jobs) and a large one
 * (BENCH_WORK_ORDERS, default 100,000 work orders, 1,000,000 jobs), then the work order list (the
 * work order service's first page in site queue order, and its search by code), the job list
 * (first page, each SPEC 4 filter alone, a few combinations, the narrowing parameters, the search
 * by work order code and a later keyset page), the operator's queue (GET job-assignment as the
 * operator, the operator's first screen) and the site queue (GET queue/site/0) timed through the
 * service functions the API calls: BENCH_RUNS (30) runs each after 3 warm-ups, the small and the
 * large database interleaved so that load from elsewhere hits both alike.
 * Target: p50 at 1,000,000 jobs <= 2 x p50 at 1,000 jobs.
 *
 * The plant: 200 products of 5 phases (4 departments), 50 operators; each work order has 5
 * phases of 2 jobs (10 jobs); 20% of work orders are archived (finished), the others are at
 * every stage (0-5 phases done, the next one in progress: one job of it paused or running with
 * half its pieces done and released, the other queued); 80% of jobs assigned; due dates spread
 * over +-60 days. What people bound does not grow with the backlog: about 40 jobs running (the
 * operators at work) and about 12 critical work orders and 12 critical jobs (open critical
 * issues) at either size; what the backlog drives grows with it (assigned, queued, late ...,
 * and each of the 50 operators' queues: 100x longer in the large plant).
 */

const PRODUCTS = 200
const PHASES = 5
const OPERATORS = 50

export async function seed(db: Db, workOrders: number): Promise<{ jobs: number; operator: string; department: string; product: string; phase: string; workOrder: string }> {
  const params = JSON.stringify(DEFAULT_PHASE_PARAMETERS)
  // Bounded by people, not by the backlog: about 40 running jobs (operators at work) and about 12
  // critical work orders and 12 critical jobs (open critical issues) whatever the plant's size.
  const runEvery = Math.max(2, Math.floor(workOrders / 40))
  const criticalEvery = Math.max(8, Math.floor(workOrders / 12))
  const steps = JSON.stringify([
    { _key: 'bench-read', type: 'instruction', title: 'Leggi', text: '', media: [], fields: [], print_templates: [] },
  ])
  await sql`insert into departments (code, name) select 'D' || d, 'Reparto ' || d from generate_series(1, 4) d`.execute(db)
  await sql`create temp table dn as select id, row_number() over (order by code) - 1 as n from departments`.execute(db)
  await sql`insert into users (username, name, surname, scope, password_hash, department_id)
    select 'op' || i, 'Nome' || i, 'Cognome' || i, 'operator', 'x', dn.id
    from generate_series(0, ${OPERATORS - 1}) i join dn on dn.n = i % 4`.execute(db)
  await sql`create temp table opn as select id, row_number() over (order by username) - 1 as n from users where scope = 'operator'`.execute(db)
  await sql`insert into operations (name, default_phase_steps) values ('Bench', '[]')`.execute(db)
  await sql`insert into products (code, description) select 'P' || lpad(i::text, 4, '0'), 'Prodotto ' || i from generate_series(0, ${PRODUCTS - 1}) i`.execute(db)
  // Each product released once (revision 1): work orders are made from a released revision, and
  // the released phases are the ones their jobs point at (no draft: nothing here edits a process).
  await sql`insert into product_revisions (product_id, number, reason) select id, 1, 'Bench' from products`.execute(db)
  await sql`create temp table pn as select p.id, r.id as revision_id, row_number() over (order by p.code) - 1 as n
    from products p join product_revisions r on r.product_id = p.id`.execute(db)
  await sql`insert into product_phases (product_id, position, name, operation_id, department_id, parameters, steps, revision_id)
    select pn.id, k, 'Fase ' || k, (select id from operations limit 1), dn.id, ${params}::jsonb, ${steps}::jsonb, pn.revision_id
    from pn cross join generate_series(1, ${PHASES}) k join dn on dn.n = (k - 1) % 4`.execute(db)

  // Work orders: the site queue is their number; every fifth one is archived (finished).
  await sql`insert into work_orders (code, product_id, revision_id, planned_qt, due_by, critical, status, archived_at, sequence, completed_qt)
    select 'WO' || lpad(i::text, 6, '0'), pn.id, pn.revision_id, 10 + 2 * (i % 20), current_date + ((i * 7) % 121 - 60),
      i % ${criticalEvery} = 3, case when i % 5 = 0 then 'completed' else 'active' end, case when i % 5 = 0 then now() end, i, 0
    from generate_series(1, ${workOrders}) i join pn on pn.n = i % ${PRODUCTS}
    order by i`.execute(db)
  await sql`insert into work_order_phases (work_order_id, phase_id, position)
    select wo.id, pp.id, pp.position from work_orders wo join product_phases pp on pp.product_id = wo.product_id
    order by wo.sequence, pp.position`.execute(db)

  // Jobs: 2 per phase. stage = phases done (archived: all); the next phase is in progress.
  await sql`insert into jobs (work_order_id, phase_id, position, quantity, completed_qt, active_qt, released_qt, operator_id,
      status, active, critical, step_sequence, time_spent_ms, started_at, closed_at)
    select wo.id, pp.id, pp.position, wo.planned_qt / 2,
      case when pp.position <= s.stage then wo.planned_qt / 2 when pp.position = s.stage + 1 and j = 1 then wo.planned_qt / 4 else 0 end,
      case when pp.position = s.stage + 1 and j = 1 and s.i % ${runEvery} = 1 then 1 else 0 end,
      case when pp.position <= s.stage then wo.planned_qt / 2 when pp.position = s.stage + 1 and j = 1 then wo.planned_qt / 4 else 0 end,
      case when (s.i + pp.position + j) % 5 = 0 then null else opn.id end,
      case when pp.position <= s.stage then 'closed'
           when pp.position = s.stage + 1 and j = 1 then case when s.i % ${runEvery} = 1 then 'started' else 'paused' end
           else 'queued' end,
      pp.position = s.stage + 1 and j = 1 and s.i % ${runEvery} = 1,
      s.i % ${criticalEvery} = 7 and j = 1,
      '[{"_key":"bench-read","type":"instruction"}]'::jsonb,
      case when pp.position <= s.stage + 1 and (j = 1 or pp.position <= s.stage) then 600000 else 0 end,
      case when pp.position <= s.stage or (pp.position = s.stage + 1 and j = 1) then now() - interval '1 day' end,
      case when pp.position <= s.stage then now() end
    from (select id, sequence::int as i, case when archived_at is not null then ${PHASES} else sequence::int % ${PHASES + 1} end as stage from work_orders) s
    join work_orders wo on wo.id = s.id
    join product_phases pp on pp.product_id = wo.product_id
    cross join generate_series(1, 2) j
    join opn on opn.n = (s.i * 3 + pp.position * 7 + j) % ${OPERATORS}
    order by s.i, pp.position, j`.execute(db)

  // Material counters from the jobs, the next phase receiving what the previous one released.
  await sql`create temp table agg as
    select wop.work_order_id, wop.phase_id, wop.position,
      coalesce(sum(j.completed_qt + j.active_qt), 0)::int as taken, coalesce(sum(j.completed_qt), 0)::int as done,
      coalesce(sum(j.released_qt), 0)::int as released
    from work_order_phases wop left join jobs j on j.work_order_id = wop.work_order_id and j.phase_id = wop.phase_id
    group by 1, 2, 3`.execute(db)
  await sql`update work_order_phases wop set
      taken_qt = a.taken, completed_qt = a.done, released_out_qt = a.released,
      released_in_qt = case when wop.position = 1 then wo.planned_qt else coalesce(prev.released, 0) end
    from agg a join work_orders wo on wo.id = a.work_order_id
      left join agg prev on prev.work_order_id = a.work_order_id and prev.position = a.position - 1
    where wop.work_order_id = a.work_order_id and wop.phase_id = a.phase_id`.execute(db)
  await sql`update work_orders wo set completed_qt = a.done from agg a where a.work_order_id = wo.id and a.position = ${PHASES}`.execute(db)
  await sql`select setval('work_order_sequence_seq', ${workOrders + 1})`.execute(db)
  // As autovacuum leaves a table at rest: statistics, and the visibility map for index-only scans.
  await sql`vacuum analyze`.execute(db)

  const { n } = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const pick = async (q: string) => (await sql<{ id: string }>`${sql.raw(q)}`.execute(db)).rows[0]!.id
  return {
    jobs: Number(n),
    operator: await pick(`select id from users where username = 'op7'`),
    department: await pick(`select id from departments where code = 'D2'`),
    product: await pick(`select id from products where code = 'P0042'`),
    phase: await pick(`select pp.id from product_phases pp join products p on p.id = pp.product_id where p.code = 'P0042' and pp.position = 3`),
    workOrder: await pick(`select id from work_orders where code = 'WO000042'`),
  }
}

type Ids = Awaited<ReturnType<typeof seed>>
type Case = { label: string; run: (svc: Services, ids: Ids) => Promise<unknown> }

/** The operator's own screen: GET job-assignment as that operator (their queue and the unassigned jobs). */
const asOperator = (ids: Ids) => ({ userId: ids.operator, sessionId: null, scope: 'operator', tokenId: null })

const jobCase = (label: string, input: (ids: Awaited<ReturnType<typeof seed>>) => JobListInput): Case => ({
  label,
  run: (svc, ids) => listJobs(svc, input(ids)),
})

function cases(): Case[] {
  const list: Case[] = [
    { label: 'work orders: first page (site queue)', run: (svc) => listWorkOrders(svc, {}) },
    { label: 'work orders: search by code', run: (svc) => listWorkOrders(svc, { search: 'WO000042' }) },
    { label: 'operator queue (job-assignment, as the operator)', run: (svc, ids) => getJobAssignment(svc, asOperator(ids), { user_key: ids.operator }) },
    { label: 'site queue (GET queue/site/0)', run: (svc) => getSiteQueue(svc) },
    jobCase('jobs: first page, no filter', () => ({})),
    ...JOB_FILTERS.map((f: JobFilter) => jobCase(`jobs: ${f}`, () => ({ filters: [f] }))),
    jobCase('jobs: late + assigned + ready', () => ({ filters: ['late', 'assigned', 'ready'] })),
    jobCase('jobs: critical + not_ready', () => ({ filters: ['critical', 'not_ready'] })),
    jobCase('jobs: active + unassigned (empty)', () => ({ filters: ['active', 'unassigned'] })),
    jobCase('jobs: department', (ids) => ({ department_key: ids.department })),
    jobCase('jobs: department + ready', (ids) => ({ department_key: ids.department, filters: ['ready'] })),
    jobCase('jobs: operator', (ids) => ({ operator_key: ids.operator })),
    jobCase('jobs: product', (ids) => ({ product_key: ids.product })),
    jobCase('jobs: phase', (ids) => ({ phase_key: ids.phase })),
    jobCase('jobs: work order', (ids) => ({ work_order_key: ids.workOrder })),
    jobCase('jobs: search (work order code)', () => ({ search: 'WO000042' })),
    jobCase('jobs: include closed', () => ({ include_closed: true })),
  ]
  // A later page: the cursor of page 3 (keyset), fetched once per database before timing.
  return list
}

/** How many rows an answer held: a page's rows, the site queue's work orders, an operator's queue + the unassigned jobs. */
function rowsIn(out: unknown): string {
  const o = out as { rows?: unknown[]; work_orders?: unknown[]; assigned_jobs_by_operator?: { jobs: unknown[] }[]; unassigned_jobs?: unknown[] } | undefined
  if (o?.rows) return String(o.rows.length)
  if (o?.work_orders) return String(o.work_orders.length)
  if (o?.assigned_jobs_by_operator) return `${o.assigned_jobs_by_operator.reduce((n, q) => n + q.jobs.length, 0)}+${o.unassigned_jobs?.length ?? 0}`
  return '-'
}

async function run(ctx: BenchContext) {
  const runs = env('BENCH_RUNS', 30)
  const bigWorkOrders = env('BENCH_WORK_ORDERS', 100_000)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
  const busy = await machineBusy(2000)

  const small = await createThrowawayDatabase(adminUrl, 'mes_bench_plan_s')
  ctx.onCleanup(() => small.drop())
  const big = await createThrowawayDatabase(adminUrl, 'mes_bench_plan_l')
  ctx.onCleanup(() => big.drop())
  const dbs = [
    { name: 'small', url: small.url, workOrders: 100 },
    { name: 'large', url: big.url, workOrders: bigWorkOrders },
  ]
  const opened = dbs.map((d) => ({ ...d, db: openPostgres(d.url, 4) }))
  for (const o of opened) ctx.onCleanup(() => o.db.close())
  const seeded: { name: string; workOrders: number; db: ReturnType<typeof openPostgres>; ids: Awaited<ReturnType<typeof seed>>; svc: Services }[] = []
  for (const o of opened) {
    const t0 = performance.now()
    await migrateToLatest(o.db.db)
    const ids = await seed(o.db.db, o.workOrders)
    console.log(`[planning] ${o.name}: ${o.workOrders} work orders, ${ids.jobs} jobs seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    const svc = { db: o.db.db, clock: systemClock } as unknown as Services
    seeded.push({ ...o, ids, svc })
  }
  const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(seeded[0]!.db.db)).rows[0]!.v

  // Page 3 of the unfiltered list by keyset, per database.
  const thirdPage: Case = {
    label: 'jobs: page 3 (keyset cursor)',
    run: async (svc) => {
      let cursor: string | undefined
      for (let i = 0; i < 2; i++) cursor = (await listJobs(svc, { cursor })).next_cursor ?? undefined
      return cursor
    },
  }
  const cursors = await Promise.all(seeded.map((s) => thirdPage.run(s.svc, s.ids) as Promise<string | undefined>))
  const all: Case[] = [...cases(), { label: 'jobs: page 3 (keyset cursor)', run: (svc) => listJobs(svc, { cursor: cursors[seeded.findIndex((s) => s.svc === svc)] }) }]

  const rows: string[][] = []
  const loadBefore = loadAverage()
  let worst = 0
  let missed = 0
  for (const c of all) {
    const times: number[][] = seeded.map(() => [])
    const returned: string[] = []
    for (const s of seeded) {
      let out: unknown
      for (let w = 0; w < 3; w++) out = await c.run(s.svc, s.ids)
      returned.push(rowsIn(out))
    }
    for (let r = 0; r < runs; r++) {
      for (const [i, s] of seeded.entries()) {
        const t0 = performance.now()
        await c.run(s.svc, s.ids)
        times[i]!.push(performance.now() - t0)
      }
    }
    const [p50s, p99s, p50l, p99l] = [percentile(times[0]!, 50), percentile(times[0]!, 99), percentile(times[1]!, 50), percentile(times[1]!, 99)]
    const ratio = p50l / p50s
    worst = Math.max(worst, ratio)
    if (ratio > 2) missed++
    rows.push([c.label, returned.join(' / '), p50s.toFixed(2), p99s.toFixed(2), p50l.toFixed(2), p99l.toFixed(2), ratio.toFixed(2), ratio <= 2 ? 'met' : 'MISSED', os.loadavg()[0]!.toFixed(1)])
    console.log(`[planning] ${c.label}: ${p50s.toFixed(2)} / ${p50l.toFixed(2)} ms (x${ratio.toFixed(2)})`)
  }
  const jobs = seeded.map((s) => s.ids.jobs)
  const k = Math.round(jobs[1]! / 1000)
  const t = table(
    ['query', `rows 1k / ${k}k`, 'p50 ms 1k', 'p99 ms 1k', `p50 ms ${k}k`, `p99 ms ${k}k`, 'p50 ratio', '<= 2x', 'load 1 min'],
    rows,
    [false, true, true, true, true, true, true, false, true],
  )
  console.log(`\n${t.text}\n\nworst p50 ratio ${worst.toFixed(2)}; ${missed} of ${rows.length} over 2x`)
  appendResults(
    `planning: work order list, job list, operator queue and site queue at 1,000 vs ${jobs[1]!.toLocaleString('en')} jobs`,
    [
      `Command: \`${ctx.command}\``,
      '',
      `Databases: ${seeded.map((s) => `${s.name} ${s.workOrders} work orders / ${s.ids.jobs} jobs`).join('; ')} (seeded with generate_series, VACUUM ANALYZEd).`,
      `Timing: the service functions the API calls (listWorkOrders; listJobs: one query per page, first page of 50 unless said; getJobAssignment as the operator op7: the first page of their queue + of the unassigned jobs, 50 each; getSiteQueue: the first keyset page of 100 active work orders), in process over one pg pool per database; ${runs} runs after 3 warm-ups, small and large interleaved.`,
      `Machine: ${machineLine([`PostgreSQL ${version}`])}${busy !== null ? `; busy before the run (other processes): ${(busy * 100).toFixed(0)}% of all cores` : ''}.`,
      `Load (uptime) before the timing: ${loadBefore}; after: ${loadAverage()}. "load 1 min" is the 1-minute load average when each query's runs ended (2 cores).`,
      '',
      t.markdown,
      '',
      `Worst p50 ratio ${worst.toFixed(2)} (target <= 2); ${missed} of ${rows.length} queries over 2x. "rows" is what the page held in`,
      'each database: where the small plant has fewer than a page of matches (one operator, phase or product of few work orders),',
      'its page is cheaper to build (the names are looked up per row) than the full page of the large plant.',
    ].join('\n'),
  )
}

export const planningScale: BenchModule = {
  name: 'planning',
  title: 'work order list, job list (every filter), operator queue, site queue at 1,000 vs 1,000,000 jobs (PostgreSQL)',
  run,
}
