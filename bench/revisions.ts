import { sql } from 'kysely'
import { systemClock } from '../src-server/clock'
import type { Actor, Services } from '../src-server/context'
import { type Db, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { startJobs } from '../src-server/domains/execution/start-pause'
import { workSession } from '../src-server/domains/execution/work-session'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { machineBusy } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, machineLine, percentile, table } from './lib/report'
import { env } from './lib/env'

/**
 * Change control (issue 21): the operator's work-session read of a running job whose product has
 * BENCH_REVISIONS (20) released revisions of a 20-phase process (each with its 20 phases and
 * their steps kept, plus the draft), against the same read for a product with one revision.
 * Both products live in one throwaway PostgreSQL database, seeded with SQL the way a release
 * writes its rows; the job is started through the service (an open batch). BENCH_RUNS (500)
 * reads each through `workSession` (what `GET job/{key}/work-session` calls), interleaved, after
 * warm-ups. Target: p50 with 20 revisions within 1.2x of one revision.
 */

const PHASES = 20
const STEPS = 5

/** A product with `revisions` released revisions (and a draft), a work order on the last and its jobs; returns the job of phase 10. */
async function seedProduct(db: Db, code: string, revisions: number, operatorId: string, operationId: string): Promise<string> {
  const { id: productId } = await db.insertInto('products').values({ code, description: `Bench ${code}`, metadata: '[]', print_templates: '[]' }).returning('id').executeTakeFirstOrThrow()
  const params = JSON.stringify({ ...DEFAULT_PHASE_PARAMETERS, step_check: true })
  let revisionId = ''
  for (let r = 1; r <= revisions + 1; r++) {
    const draft = r > revisions
    if (!draft) {
      revisionId = (
        await db.insertInto('product_revisions').values({ product_id: productId, number: r, reason: `Bench revision ${r}`, released_by: null }).returning('id').executeTakeFirstOrThrow()
      ).id
    }
    // Every revision rewords each step, as a library edit between releases would.
    await sql`insert into product_phases (product_id, position, name, operation_id, parameters, steps, production_notes, print_templates, lineage, revision_id)
      select ${productId}, p, 'Fase ' || p, ${operationId}, ${params}::jsonb,
        (select jsonb_agg(jsonb_build_object('_key', md5(${code} || p || '-' || s)::uuid, 'type', 'instruction', 'title', 'Passo ' || s,
          'text', 'Istruzione ' || s || ' della fase ' || p || ', revisione ' || ${r}, 'media', '[]'::jsonb, 'fields', '[]'::jsonb, 'print_templates', '[]'::jsonb) order by s)
         from generate_series(1, ${STEPS}) s),
        '', '[]', md5(${code} || '-phase-' || p)::uuid, ${draft ? null : revisionId}
      from generate_series(0, ${PHASES - 1}) p`.execute(db)
  }
  const { id: workOrderId } = await db.insertInto('work_orders').values({ code: `WO-${code}`, product_id: productId, planned_qt: 100, revision_id: revisionId }).returning('id').executeTakeFirstOrThrow()
  await sql`insert into work_order_phases (work_order_id, phase_id, position, released_in_qt)
    select ${workOrderId}, id, position + 1, 100 from product_phases where revision_id = ${revisionId}`.execute(db)
  await sql`insert into jobs (work_order_id, phase_id, position, quantity, operator_id, step_sequence)
    select ${workOrderId}, id, position + 1, 100, ${operatorId}, (select jsonb_agg(jsonb_build_object('_key', s->>'_key', 'type', s->>'type')) from jsonb_array_elements(steps) s)
    from product_phases where revision_id = ${revisionId}`.execute(db)
  const job = await db
    .selectFrom('jobs as j')
    .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
    .select('j.id')
    .where('j.work_order_id', '=', workOrderId)
    .where('ph.position', '=', PHASES / 2)
    .executeTakeFirstOrThrow()
  return job.id
}

async function run(ctx: BenchContext) {
  const runs = env('BENCH_RUNS', 500)
  const revisions = env('BENCH_REVISIONS', 20)
  const busy = await machineBusy(2000)
  const made = await createThrowawayDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, 'mes_bench_rev')
  ctx.onCleanup(() => made.drop())
  const opened = openPostgres(made.url, 4)
  ctx.onCleanup(() => opened.close())
  const db = opened.db
  await migrateToLatest(db)
  const svc = { db, clock: systemClock } as unknown as Services
  const { id: operationId } = await db.insertInto('operations').values({ name: 'Bench' }).returning('id').executeTakeFirstOrThrow()
  // One operator per job: an operator runs one job at a time.
  const operator = async (username: string): Promise<Actor> => {
    const { id } = await db.insertInto('users').values({ username, name: 'Bench', surname: username, scope: 'operator', password_hash: 'x', created_at: new Date() }).returning('id').executeTakeFirstOrThrow()
    return { userId: id, sessionId: null, scope: 'operator', tokenId: null }
  }
  const caseOf = async (label: string, code: string, count: number) => {
    const actor = await operator(`bench.${code.toLowerCase()}`)
    return { label, actor, job: await seedProduct(db, code, count, actor.userId, operationId) }
  }
  const cases = [await caseOf('1 revision', 'REV1', 1), await caseOf(`${revisions} revisions`, `REV${revisions}`, revisions)]
  await sql`vacuum analyze`.execute(db)
  const phaseRows = Number((await sql<{ n: string }>`select count(*) as n from product_phases`.execute(db)).rows[0]!.n)
  for (const c of cases) await startJobs(svc, c.actor, { job_keys: [c.job], idempotency_key: crypto.randomUUID() })
  const read = async (c: (typeof cases)[number]) => {
    const view = await workSession(svc, c.actor, c.job)
    if (!view.batch || view.steps.length !== STEPS) throw new Error('the work session read lacks its open batch or steps')
  }
  for (let w = 0; w < 20; w++) for (const c of cases) await read(c)
  const times = cases.map(() => [] as number[])
  for (let r = 0; r < runs; r++) {
    for (const [i, c] of cases.entries()) {
      const t0 = performance.now()
      await read(c)
      times[i]!.push(performance.now() - t0)
    }
  }
  const p50 = times.map((t) => percentile(t, 50))
  const p99 = times.map((t) => percentile(t, 99))
  const ratio = p50[1]! / p50[0]!
  const verdict = ratio <= 1.2 ? 'met' : 'MISSED'
  const t = table(
    ['case', 'p50 ms', 'p99 ms'],
    cases.map((c, i) => [c.label, p50[i]!.toFixed(2), p99[i]!.toFixed(2)]),
  )
  console.log(`\n${t.text}\n\nratio ${ratio.toFixed(2)}x (target <= 1.2x): ${verdict}`)
  const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v
  appendResults(
    `revisions: the work-session read with ${revisions} revisions of a ${PHASES}-phase product vs one`,
    [
      `Command: \`${ctx.command}\``,
      '',
      `Data: one database, ${phaseRows} phase rows in all: a product with 1 revision and one with ${revisions}, each revision ${PHASES} phases of ${STEPS} steps (every revision rewording them), plus each product's draft; a work order on the latest revision, its phase-10 job started through the service (open batch).`,
      `Timing: \`workSession\` (what GET job/{key}/work-session calls), ${runs} reads each after 20 warm-ups, interleaved.`,
      `Machine: ${machineLine([`PostgreSQL ${version}`])}${busy !== null ? `; busy before the run (other processes): ${(busy * 100).toFixed(0)}% of all cores` : ''}.`,
      '',
      t.markdown,
      '',
      `p50 ratio ${ratio.toFixed(2)}x; target <= 1.2x: ${verdict}.`,
    ].join('\n'),
  )
}

export const revisionsBench: BenchModule = {
  name: 'revisions',
  title: 'the work-session read with 20 released revisions of a 20-phase product vs one (PostgreSQL)',
  run,
}
