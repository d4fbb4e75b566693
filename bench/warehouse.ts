import { sql } from 'kysely'
import { systemClock } from '../src-server/clock'
import type { Services } from '../src-server/context'
import { type Db, openPostgres } from '../src-server/db/connect'
import { migrateToLatest } from '../src-server/db/migrate'
import { listMovements } from '../src-server/domains/movements/list'
import { readInventory } from '../src-server/domains/movements/service'
import { machineBusy } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, machineLine, SCALE_HEADER, SCALE_NUMERIC, scaleRow, table } from './lib/report'
import { env } from './lib/env'

/**
 * Warehouse stock and movement lists at scale (issue 14). Two throwaway PostgreSQL databases,
 * each with the same 10,010 positions (10 areas > 10 racks each > 99 shelves each) and 5,000
 * products, seeded with SQL (generate_series): BENCH_MOVEMENTS (1,000,000) confirmed movements in
 * the large one, 10,000 in the small one (loads, transfers and unloads between random shelves),
 * and the stock table they give (what confirming keeps up to date), then VACUUM ANALYZE.
 * Timed through the service functions the API calls, BENCH_RUNS (200) runs each after warm-ups,
 * small and large interleaved, each run on another rack, shelf or product.
 * Targets: stock of one position with its subtree and of one product across positions: p50 < 20 ms
 * at 1M movements; movement list page p50 at 1M within 2x of 10k.
 */

const AREAS = 10
const RACKS = 10
const SHELVES = 99
const PRODUCTS = 5000

/** Derived keys, so the seed needs no joins to find a position or product. */
const posKey = (kind: string, expr: string) => sql`md5(${kind} || '-' || (${sql.raw(expr)})::text)::uuid`

export async function seedWarehouse(db: Db, movements: number): Promise<{ positions: number; products: number; movements: number; stock: number }> {
  await sql`insert into products (id, code, description)
    select md5('product-' || i)::uuid, 'ART-' || lpad(i::text, 5, '0'), 'Articolo ' || i from generate_series(0, ${PRODUCTS - 1}) i`.execute(db)
  // Areas a, racks a*RACKS+r, shelves (a*RACKS+r)*SHELVES+s; path = ids from the top down.
  await sql`insert into positions (id, code, path)
    select ${posKey('area', 'a')}, 'A' || a, ${posKey('area', 'a')}::text || '/' from generate_series(0, ${AREAS - 1}) a`.execute(db)
  await sql`insert into positions (id, code, parent_id, path)
    select ${posKey('rack', 'a * 10 + r')}, 'A' || a || '-R' || r, ${posKey('area', 'a')},
      ${posKey('area', 'a')}::text || '/' || ${posKey('rack', 'a * 10 + r')}::text || '/'
    from generate_series(0, ${AREAS - 1}) a cross join generate_series(0, ${RACKS - 1}) r`.execute(db)
  await sql`insert into positions (id, code, parent_id, path)
    select ${posKey('shelf', 'x * 100 + s')}, 'A' || (x / 10) || '-R' || (x % 10) || '-S' || lpad(s::text, 2, '0'), ${posKey('rack', 'x')},
      ${posKey('area', 'x / 10')}::text || '/' || ${posKey('rack', 'x')}::text || '/' || ${posKey('shelf', 'x * 100 + s')}::text || '/'
    from generate_series(0, ${AREAS * RACKS - 1}) x cross join generate_series(0, ${SHELVES - 1}) s`.execute(db)
  const shelf = (expr: string) => posKey('shelf', `((${expr}) % ${AREAS * RACKS}) * 100 + ((${expr}) / ${AREAS * RACKS}) % ${SHELVES}`)
  // Each product lives on a few shelves (as in a real store): product p on shelves seeded by p.
  await sql`insert into movements (product_id, from_position_id, to_position_id, type, status, planned_quantity, confirmed_quantity, started_at, ended_at, created_at)
    select md5('product-' || (i % ${PRODUCTS}))::uuid,
      case when i % 10 < 6 then null else ${shelf(`(i % ${PRODUCTS}) * 37 + (i / ${PRODUCTS}) % 40`)} end,
      case when i % 10 >= 9 then null else ${shelf(`(i % ${PRODUCTS}) * 37 + (i / ${PRODUCTS} + 3) % 40 + (i % 10 / 6)`)} end,
      case when i % 10 < 6 then 'load' when i % 10 < 9 then 'transfer' else 'unload' end,
      'confirmed', 1 + i % 5, 1 + i % 5,
      now() - make_interval(secs => ${movements} - i), now() - make_interval(secs => ${movements} - i), now() - make_interval(secs => ${movements} - i)
    from generate_series(0, ${movements - 1}) i`.execute(db)
  // The stock confirming these movements keeps (negative where a seeded transfer took more than arrived).
  await sql`insert into stock (position_id, product_id, quantity)
    select position_id, product_id, sum(q) from (
      select to_position_id as position_id, product_id, confirmed_quantity as q from movements where to_position_id is not null
      union all
      select from_position_id, product_id, -confirmed_quantity from movements where from_position_id is not null
    ) x group by position_id, product_id`.execute(db)
  await sql`vacuum analyze`.execute(db)
  const count = async (t: 'positions' | 'products' | 'movements' | 'stock') =>
    Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  return { positions: await count('positions'), products: await count('products'), movements: await count('movements'), stock: await count('stock') }
}

type Seeded = { name: string; svc: Services; positions: number; movements: number; stock: number }
type Case = { label: string; kind: 'stock' | 'list'; run: (s: Seeded, r: number) => Promise<number> }

const keyOf = async (s: Seeded, kind: string, n: number) => (await sql<{ id: string }>`select ${posKey(kind, String(n))} as id`.execute(s.svc.db)).rows[0]!.id
const productKey = async (s: Seeded, n: number) => (await sql<{ id: string }>`select md5('product-' || ${n}::int)::uuid as id`.execute(s.svc.db)).rows[0]!.id
const rack = (r: number) => (r * 37) % (AREAS * RACKS)
const shelfNo = (r: number) => rack(r) * 100 + ((r * 13) % SHELVES)
const product = (r: number) => (r * 7919) % PRODUCTS

const CASES: Case[] = [
  {
    label: 'stock of a rack with its 99 shelves (lines + totals per product)',
    kind: 'stock',
    run: async (s, r) => (await readInventory(s.svc.db, { position_key: await keyOf(s, 'rack', rack(r)) })).totals.length,
  },
  {
    label: 'stock of a shelf (with subtree)',
    kind: 'stock',
    run: async (s, r) => (await readInventory(s.svc.db, { position_key: await keyOf(s, 'shelf', shelfNo(r)) })).lines.length,
  },
  {
    label: 'stock of a product across positions',
    kind: 'stock',
    run: async (s, r) => (await readInventory(s.svc.db, { product_key: await productKey(s, product(r)) })).lines.length,
  },
  { label: 'movement list: first page (50), no filter', kind: 'list', run: async (s) => (await listMovements(s.svc, { page_size: 50 })).rows.length },
  { label: 'movement list: page 5, no filter', kind: 'list', run: async (s) => (await listMovements(s.svc, { page_size: 50, page: 5 })).rows.length },
  {
    label: 'movement list: one product',
    kind: 'list',
    run: async (s, r) => (await listMovements(s.svc, { product_key: await productKey(s, product(r)), page_size: 50 })).rows.length,
  },
  {
    label: 'movement list: one shelf (from or to)',
    kind: 'list',
    run: async (s, r) => (await listMovements(s.svc, { position_key: await keyOf(s, 'shelf', shelfNo(r)), page_size: 50 })).rows.length,
  },
]

async function run(ctx: BenchContext) {
  const runs = env('BENCH_RUNS', 200)
  const big = env('BENCH_MOVEMENTS', 1_000_000)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
  const busy = await machineBusy(2000)
  const sizes = [
    { name: 'small', movements: 10_000 },
    { name: 'large', movements: big },
  ]
  const seeded: Seeded[] = []
  for (const size of sizes) {
    const made = await createThrowawayDatabase(adminUrl, `mes_bench_wh_${size.name[0]}`)
    ctx.onCleanup(() => made.drop())
    const opened = openPostgres(made.url, 4)
    ctx.onCleanup(() => opened.close())
    const t0 = performance.now()
    await migrateToLatest(opened.db)
    const counts = await seedWarehouse(opened.db, size.movements)
    console.log(`[warehouse] ${size.name}: ${JSON.stringify(counts)} seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    seeded.push({ name: size.name, ...counts, svc: { db: opened.db, clock: systemClock } as unknown as Services })
  }
  const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(seeded[0]!.svc.db)).rows[0]!.v

  const rows: string[][] = []
  const verdicts: string[] = []
  for (const c of CASES) {
    const times: number[][] = seeded.map(() => [])
    const returned = await Promise.all(
      seeded.map(async (s) => {
        let n = 0
        for (let w = 0; w < 5; w++) n = await c.run(s, w)
        return n
      }),
    )
    for (let r = 0; r < runs; r++) {
      for (const [i, s] of seeded.entries()) {
        const t0 = performance.now()
        await c.run(s, r)
        times[i]!.push(performance.now() - t0)
      }
    }
    const { row, verdict, p50s, p50l, p99l } = scaleRow(c.label, returned, [times[0]!, times[1]!], c.kind === 'stock' ? (p50l) => p50l < 20 : undefined)
    verdicts.push(verdict)
    rows.push(row)
    console.log(`[warehouse] ${c.label}: ${p50s.toFixed(2)} / ${p50l.toFixed(2)} ms p50, p99 large ${p99l.toFixed(2)} ms (${verdict})`)
  }
  const [small, large] = seeded as [Seeded, Seeded]
  const t = table(SCALE_HEADER, rows, SCALE_NUMERIC)
  const missed = verdicts.filter((v) => v !== 'met').length
  console.log(`\n${t.text}\n\n${missed} of ${rows.length} targets missed`)
  appendResults(
    'warehouse: stock and movement lists at 10k vs 1M movements',
    [
      `Command: \`${ctx.command}\``,
      '',
      `Databases: ${small.positions} positions (10 areas > 10 racks > 99 shelves) and ${PRODUCTS} products in both; small ${small.movements} movements / ${small.stock} stock lines; large ${large.movements} movements / ${large.stock} stock lines. Seeded with generate_series (60% loads, 30% transfers, 10% unloads between shelves, each product on a handful of shelves), the stock table computed from the confirmed movements, then VACUUM ANALYZE.`,
      `Timing: the service functions the API calls (readInventory: the lines (first 500, by position and product code) and the totals per product, two queries in parallel; listMovements: the page and the total counted up to 10,000), in process over one pg pool per database; ${runs} runs after 5 warm-ups, small and large interleaved, each run on another rack, shelf or product (the key lookup is inside the timing).`,
      `Machine: ${machineLine([`PostgreSQL ${version}`])}${busy !== null ? `; busy before the run (other processes): ${(busy * 100).toFixed(0)}% of all cores` : ''}. The machine was shared with other work during the run.`,
      '',
      t.markdown,
      '',
      `Targets: stock queries p50 < 20 ms at the large size; movement lists p50 large <= 2 x small. ${missed} of ${rows.length} missed.`,
    ].join('\n'),
  )
}

export const warehouseBench: BenchModule = {
  name: 'warehouse',
  title: 'warehouse stock (position subtree, product) and movement lists at 10k vs 1M movements (PostgreSQL)',
  run,
}
