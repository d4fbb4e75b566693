import { sql } from 'kysely'
import pg from 'pg'
import { createApp } from '../src-server/app'
import { readConfig } from '../src-server/config'
import { openPostgres } from '../src-server/db/connect'
import { prepareServices } from '../src-server/start'
import { seed } from './lib/heartbeat-seed'
import { backendCpu } from './lib/cpu'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'

/**
 * The server's own CPU per heartbeat, in process and without HTTP: N heartbeats (and N
 * GET /api/whoami) of BENCH_OPERATORS seeded operators through app.fetch, BENCH_CONNECTIONS at a
 * time, timed with process.cpuUsage(). Run with `bun --cpu-prof bench/heartbeat-cpu.ts` to see
 * where it goes. Other work on the machine moves CPU per request much less than it moves rates.
 *   bun bench/heartbeat-cpu.ts [heartbeats=20000] [rounds=3]
 */
const N = Number(process.argv[2] ?? 20_000)
const ROUNDS = Number(process.argv[3] ?? 3)
const OPERATORS = Number(process.env.BENCH_OPERATORS ?? 2_000)
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 20)

const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
const database = await createThrowawayDatabase(adminUrl, 'mes_bench_hbcpu')
try {
  const config = readConfig({ ...process.env, DATABASE_URL: database.url, MES_ADMIN_PASSWORD: 'bench-admin-password', MES_DEMO: '0' })
  const { svc, database: open } = await prepareServices(config, () => {})
  const app = createApp(svc)
  const seedDb = openPostgres(database.url, 4)
  const pairs = await seed(seedDb.db, OPERATORS)
  await seedDb.close()

  const pgCpu = backendCpu(adminUrl, database.name)
  // What Bun.serve passes as the second argument of fetch (the client address is read from it).
  const server = { requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 40000 }) }
  const drive = async (n: number, path: (i: number) => string, method: string) => {
    let next = 0
    let failed = 0
    const worker = async () => {
      while (next < n) {
        const p = pairs[next % pairs.length]!
        const i = next++
        const res = await app.fetch(new Request(`http://127.0.0.1${path(i)}`, { method, headers: { authorization: `Bearer ${p.token}` } }), server)
        await res.arrayBuffer()
        if (res.status !== 200) failed++
      }
    }
    await pgCpu.begin()
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    const wall = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    const dbMs = await pgCpu.end()
    return { usPerReq: (cpu.user + cpu.system) / n, dbUs: ((dbMs ?? 0) * 1000) / n, rps: n / (wall / 1000), failed }
  }
  const beat = (i: number) => `/api/job/${pairs[i % pairs.length]!.job}/heartbeat`
  await sql`update jobs set last_heartbeat_at = now() where active`.execute(svc.db)
  await drive(pairs.length, beat, 'POST')
  await drive(pairs.length, () => '/api/whoami', 'GET')
  for (let r = 0; r < ROUNDS; r++) {
    // Every job beat just now, as in a running plant: no beat takes the BACK_ONLINE path.
    await sql`update jobs set last_heartbeat_at = now() where active`.execute(svc.db)
    const hb = await drive(N, beat, 'POST')
    const who = await drive(Math.max(1, N / 4), () => '/api/whoami', 'GET')
    console.log(
      `round ${r + 1}: heartbeat ${hb.usPerReq.toFixed(0)} us/req, pg ${hb.dbUs.toFixed(0)} (${hb.rps.toFixed(0)}/s, ${hb.failed} failed); ` +
        `whoami ${who.usPerReq.toFixed(0)} us/req, pg ${who.dbUs.toFixed(0)} (${who.rps.toFixed(0)}/s, ${who.failed} failed)`,
    )
  }
  if (process.env.EXPLAIN) {
    // EXPLAIN: a PREPARE statement named q; EXPLAIN_EXEC: its EXECUTE, $SESSIONS and $JOBS replaced by 20 ids.
    const c = new pg.Client({ connectionString: database.url })
    await c.connect()
    await c.query('set plan_cache_mode = force_generic_plan')
    await c.query(process.env.EXPLAIN)
    const some = pairs.slice(0, 20)
    const exec = (process.env.EXPLAIN_EXEC ?? '')
      .replace('$SESSIONS', `'{${some.map((p) => p.token.split('.')[0]).join(',')}}'`)
      .replace('$JOBS', `'{${some.map((p) => p.job).join(',')}}'`)
    for (const r of (await c.query(`explain (analyze, buffers) ${exec}`)).rows) console.log(r['QUERY PLAN'])
    await c.end()
  }
  await open.close()
} finally {
  await database.drop()
}
