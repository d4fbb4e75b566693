import { sql } from 'kysely'
import type { SerialListInput } from '../src/domains/serials/schemas'
import { systemClock } from '../src-server/clock'
import type { Services } from '../src-server/context'
import { type Db, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { getGenealogy, listSerials } from '../src-server/domains/serials/service'
import { machineBusy } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, machineLine, SCALE_HEADER, SCALE_NUMERIC, scaleRow, table } from './lib/report'
import { env } from './lib/env'

/**
 * Genealogy and serial search at scale (issue 13). Two throwaway PostgreSQL databases seeded with
 * SQL (generate_series): a forest of complete binary trees 10 levels deep (1,023 serials and
 * 1,022 links each), about 10,000 serials in the small one and BENCH_SERIAL_LINKS (1,000,000)
 * links in the large one. Timed through the service functions the API calls, BENCH_RUNS (200)
 * runs each after warm-ups, the small and the large database interleaved so that load from
 * elsewhere hits both alike; every run asks about another tree.
 * Targets: backward genealogy of a root (all 10 levels, 1,023 serials) and forward genealogy of a
 * leaf (10 levels up) at 1M links: p50 < 100 ms, p99 < 250 ms; serial search p50 at 1M serials
 * within 2x of 10k.
 */

const LEVELS = 10
const TREE = 2 ** LEVELS - 1 // serials per tree; node i (1-based, heap order) has parent i / 2

/** Serial key of node i of tree t: derived, so links need no join to find their ends. */
const keyOf = (t: string, i: string) => sql`md5((${sql.raw(t)})::text || '-' || (${sql.raw(i)})::text)::uuid`

export async function seedForest(db: Db, trees: number): Promise<{ serials: number; links: number }> {
  await sql`insert into products (code, description) select 'LV' || l, 'Livello ' || l from generate_series(0, ${LEVELS - 1}) l`.execute(db)
  await sql`create temp table lv as select id, substr(code, 3)::int as level from products`.execute(db)
  // Node i sits at level floor(log2(i)); codes SN<tree>-<node>, newest tree first.
  await sql`insert into serials (id, code, product_id, state, created_at, updated_at)
    select ${keyOf('t', 'i')}, 'SN' || lpad(t::text, 4, '0') || '-' || lpad(i::text, 4, '0'), lv.id, 'final',
      now() - make_interval(secs => (${trees} - t) * ${TREE} + (${TREE} - i)), now()
    from generate_series(0, ${trees - 1}) t cross join generate_series(1, ${TREE}) i
    join lv on lv.level = floor(log(2, i))::int`.execute(db)
  await sql`insert into serial_links (parent_serial_id, child_serial_id, state, created_at)
    select ${keyOf('t', 'i / 2')}, ${keyOf('t', 'i')}, 'final', now()
    from generate_series(0, ${trees - 1}) t cross join generate_series(2, ${TREE}) i`.execute(db)
  // What autovacuum does on a live database: statistics and the visibility map (index-only scans).
  await sql`vacuum analyze`.execute(db)
  const count = async (table: 'serials' | 'serial_links') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  return { serials: await count('serials'), links: await count('serial_links') }
}

type Seeded = { name: string; trees: number; svc: Services; serials: number; links: number; product: string }
type Case = { label: string; kind: 'genealogy' | 'search'; run: (s: Seeded, r: number) => Promise<number> }

const nodeKey = async (s: Seeded, tree: number, node: number) =>
  (await sql<{ id: string }>`select ${keyOf(String(tree), String(node))} as id`.execute(s.svc.db)).rows[0]!.id
const search = (input: (s: Seeded, r: number) => SerialListInput) => async (s: Seeded, r: number) => (await listSerials(s.svc, input(s, r))).rows.length
const tree = (s: Seeded, r: number) => (r * 7919) % s.trees
const code = (t: number) => `SN${String(t).padStart(4, '0')}`

const CASES: Case[] = [
  {
    label: 'genealogy backward: root, 10 levels (1,023 serials)',
    kind: 'genealogy',
    run: async (s, r) => (await getGenealogy(s.svc, await nodeKey(s, tree(s, r), 1), 'backward')).rows.length,
  },
  {
    label: 'genealogy forward: leaf, 10 levels up',
    kind: 'genealogy',
    run: async (s, r) => (await getGenealogy(s.svc, await nodeKey(s, tree(s, r), TREE - (r % 512)), 'forward')).rows.length,
  },
  { label: 'search: code prefix, 100 matches', kind: 'search', run: search((s, r) => ({ search: `${code(tree(s, r))}-01` })) },
  { label: 'search: exact code', kind: 'search', run: search((s, r) => ({ code: `${code(tree(s, r))}-0512` })) },
  { label: 'search: prefix + product filter', kind: 'search', run: search((s, r) => ({ search: `${code(tree(s, r))}-`, product_key: s.product })) },
  { label: 'overview: newest first, no filter', kind: 'search', run: search(() => ({})) },
  { label: 'overview: product filter', kind: 'search', run: search((s) => ({ product_key: s.product })) },
]

async function run(ctx: BenchContext) {
  const runs = env('BENCH_RUNS', 200)
  const bigLinks = env('BENCH_SERIAL_LINKS', 1_000_000)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
  const busy = await machineBusy(2000)
  const sizes = [
    { name: 'small', trees: Math.ceil(10_000 / TREE) },
    { name: 'large', trees: Math.ceil(bigLinks / (TREE - 1)) },
  ]
  const seeded: Seeded[] = []
  for (const size of sizes) {
    const made = await createThrowawayDatabase(adminUrl, `mes_bench_gen_${size.name[0]}`)
    ctx.onCleanup(() => made.drop())
    const opened = openPostgres(made.url, 4)
    ctx.onCleanup(() => opened.close())
    const t0 = performance.now()
    await migrateToLatest(opened.db)
    const counts = await seedForest(opened.db, size.trees)
    console.log(`[genealogy] ${size.name}: ${counts.serials} serials, ${counts.links} links seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    const product = (await opened.db.selectFrom('products').select('id').where('code', '=', 'LV5').executeTakeFirstOrThrow()).id
    seeded.push({ ...size, ...counts, product, svc: { db: opened.db, clock: systemClock } as unknown as Services })
  }
  const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(seeded[0]!.svc.db)).rows[0]!.v

  const rows: string[][] = []
  const verdicts: string[] = []
  for (const c of CASES) {
    const times: number[][] = seeded.map(() => [])
    const returned = await Promise.all(seeded.map(async (s) => {
      let n = 0
      for (let w = 0; w < 5; w++) n = await c.run(s, w)
      return n
    }))
    for (let r = 0; r < runs; r++) {
      for (const [i, s] of seeded.entries()) {
        const t0 = performance.now()
        await c.run(s, r)
        times[i]!.push(performance.now() - t0)
      }
    }
    const { row, verdict, p50s, p50l, p99l } = scaleRow(c.label, returned, [times[0]!, times[1]!], c.kind === 'genealogy' ? (p50l, p99l) => p50l < 100 && p99l < 250 : undefined)
    verdicts.push(verdict)
    rows.push(row)
    console.log(`[genealogy] ${c.label}: ${p50s.toFixed(2)} / ${p50l.toFixed(2)} ms p50, p99 large ${p99l.toFixed(2)} ms (${verdict})`)
  }
  const [small, large] = seeded as [Seeded, Seeded]
  const t = table(SCALE_HEADER, rows, SCALE_NUMERIC)
  const missed = verdicts.filter((v) => v !== 'met').length
  console.log(`\n${t.text}\n\n${missed} of ${rows.length} targets missed`)
  appendResults(
    'genealogy: serial genealogy and search at 10k vs 1M serials',
    [
      `Command: \`${ctx.command}\``,
      '',
      `Databases: small ${small.serials} serials / ${small.links} links; large ${large.serials} serials / ${large.links} links: forests of complete binary trees ${LEVELS} levels deep (${TREE} serials each), seeded with generate_series, then VACUUM ANALYZE (as autovacuum would).`,
      `Timing: the service functions the API calls (getGenealogy: one recursive CTE; listSerials: the page of 100 and the total counted up to 10,000), in process over one pg pool per database; ${runs} runs after 5 warm-ups, small and large interleaved, each run on another tree (the key lookup of the node is inside the timing).`,
      `Machine: ${machineLine([`PostgreSQL ${version}`])}${busy !== null ? `; busy before the run (other processes): ${(busy * 100).toFixed(0)}% of all cores` : ''}. The machine was shared with other work during the run.`,
      '',
      t.markdown,
      '',
      `Targets: genealogy at the large size p50 < 100 ms and p99 < 250 ms; search and overview p50 large <= 2 x small. ${missed} of ${rows.length} missed.`,
    ].join('\n'),
  )
}

export const genealogyBench: BenchModule = {
  name: 'genealogy',
  title: 'serial genealogy (both ways, 10 levels) and serial search at 10k vs 1M serials (PostgreSQL)',
  run,
}
