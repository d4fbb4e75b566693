import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type ChildServer, startChild } from './lib/child'
import { backendCpu, machineBusy, processCpuMs } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, machineLine, table } from './lib/report'
import { ensureWrk, errorCount, runWrk, type WrkOptions, type WrkResult } from './lib/wrk'
import { env } from './lib/env'

/**
 * What a request costs on each layer of the stack:
 *   (a) bare Bun.serve JSON hello      (b) the same from a Hono route
 *   (c) GET /api/whoami of the real app, Bearer session token, PostgreSQL
 *   (d) the same whoami through tRPC   (GET /api/trpc/session.whoami)
 * Each server is its own child `bun` process; wrk loads it from another process.
 */

type Target = {
  id: 'a' | 'b' | 'c' | 'd'
  label: string
  server: ChildServer
  /** Whether its PostgreSQL backends' CPU counts too. */
  usesDb: boolean
  path: string
  headers?: Record<string, string>
  /** Checks one answer before loading, so a broken target is never measured. */
  check: (status: number, body: unknown) => string | null
}

const ADMIN_PASSWORD = 'bench-admin-password'
const SERVERS = path.join(import.meta.dir, 'servers')

async function signIn(port: number): Promise<{ token: string; userKey: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  })
  const body = (await res.json()) as { detail?: { token?: string; user_key?: string } }
  if (res.status !== 200 || !body.detail?.token || !body.detail.user_key) {
    throw new Error(`POST /api/login answered ${res.status} ${JSON.stringify(body)}`)
  }
  return { token: body.detail.token, userKey: body.detail.user_key }
}

const fmtUs = (us: number | null) => (us === null ? '?' : us.toFixed(0))
const fmtPct = (share: number | null) => (share === null ? '?' : `${(share * 100).toFixed(0)}%`)

const medianOrNull = (xs: (number | null)[]) => {
  const known = xs.filter((x): x is number => x !== null)
  return known.length ? median(known) : null
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

async function run(ctx: BenchContext) {
  const seconds = env('BENCH_SECONDS', 10)
  const warmup = env('BENCH_WARMUP', 3)
  const connections = env('BENCH_CONNECTIONS', 50)
  const threads = env('BENCH_THREADS', 1)
  const rounds = env('BENCH_ROUNDS', 3)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL

  const wrk = await ensureWrk()
  // Other work on the machine skews requests/s (CPU per request much less): note how busy it was.
  const busyBefore = await machineBusy(2000)
  if (busyBefore !== null && busyBefore > 0.1) {
    console.warn(`[bench] WARNING: the machine is already ${(busyBefore * 100).toFixed(0)}% busy before the run: requests/s will be low and noisy`)
  }
  const database = await createThrowawayDatabase(adminUrl, 'mes_bench')
  ctx.onCleanup(async () => {
    await database.drop()
    console.log(`[bench] dropped database ${database.name}`)
  })
  console.log(`[bench] throwaway database ${database.name}`)
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mes-bench-'))
  ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }))

  const children: ChildServer[] = []
  ctx.onCleanup(async () => {
    await Promise.all(children.map((c) => c.stop()))
  })
  const start = async (name: string, script: string, extraEnv: Record<string, string> = {}) => {
    const child = await startChild(name, path.join(SERVERS, script), extraEnv)
    children.push(child)
    return child
  }
  const appEnv = { DATABASE_URL: database.url, MES_ADMIN_PASSWORD: ADMIN_PASSWORD, MES_DATA_DIR: dataDir, MES_DEMO: '0' }

  const bare = await start('a:bare', 'bare.ts')
  const hono = await start('b:hono', 'hono.ts')
  // The first app process migrates the empty database and creates admin; then a second one
  // for tRPC, so every target has a process (and a connection pool) of its own.
  const rest = await start('c:rest', 'app.ts', appEnv)
  const trpc = await start('d:trpc', 'app.ts', appEnv)
  const { token, userKey } = await signIn(rest.port)
  const bearer = { Authorization: `Bearer ${token}` }

  const hello = (status: number, body: unknown) =>
    status === 200 && JSON.stringify(body) === '{"hello":"world"}' ? null : `expected 200 {"hello":"world"}, got ${status} ${JSON.stringify(body)}`
  const targets: Target[] = [
    { id: 'a', label: 'bare Bun.serve JSON', server: bare, usesDb: false, path: '/', check: hello },
    { id: 'b', label: 'Hono route JSON', server: hono, usesDb: false, path: '/', check: hello },
    {
      id: 'c',
      label: 'GET /api/whoami (REST, PostgreSQL)',
      server: rest,
      usesDb: true,
      path: '/api/whoami',
      headers: bearer,
      check: (status, body) =>
        status === 200 && (body as { detail?: { user_key?: string } }).detail?.user_key === userKey ? null : `got ${status} ${JSON.stringify(body)}`,
    },
    {
      id: 'd',
      label: 'GET /api/trpc/session.whoami (tRPC)',
      server: trpc,
      usesDb: true,
      path: '/api/trpc/session.whoami',
      headers: bearer,
      check: (status, body) =>
        status === 200 && (body as { result?: { data?: { user_key?: string } } }).result?.data?.user_key === userKey
          ? null
          : `got ${status} ${JSON.stringify(body)}`,
    },
  ]

  for (const t of targets) {
    const res = await fetch(`http://127.0.0.1:${t.server.port}${t.path}`, { headers: t.headers })
    const problem = t.check(res.status, await res.json().catch(() => null))
    if (problem) throw new Error(`(${t.id}) ${t.label}: ${problem}`)
  }

  const options = (t: Target, secs: number): WrkOptions => ({
    url: `http://127.0.0.1:${t.server.port}${t.path}`,
    threads,
    connections,
    seconds: secs,
    headers: t.headers,
  })

  console.log(`[bench] wrk -t${threads} -c${connections}: ${warmup} s warm-up, then ${rounds} round(s) of ${seconds} s per target, targets interleaved`)
  for (const t of targets) await runWrk(wrk, options(t, warmup))

  type Measured = WrkResult & { appUsPerReq: number | null; dbUsPerReq: number | null; queriesPerReq: number | null }
  // Statements the app process sent to PostgreSQL (counted in servers/app.ts), for the db targets.
  const queryCount = async (t: Target) =>
    t.usesDb ? ((await (await fetch(`http://127.0.0.1:${t.server.port}/__bench/queries`)).json()) as { queries: number }).queries : 0
  const measured = new Map<Target['id'], Measured[]>(targets.map((t) => [t.id, []]))
  const pgCpu = backendCpu(adminUrl, database.name)
  const perRequest = (ms: number | null, requests: number) => (ms === null || !requests ? null : (ms * 1000) / requests)
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets) {
      const pid = t.server.proc.pid
      if (t.usesDb) await pgCpu.begin()
      const q0 = await queryCount(t)
      const app0 = processCpuMs(pid)
      const r = await runWrk(wrk, options(t, seconds))
      const app1 = processCpuMs(pid)
      const db = t.usesDb ? await pgCpu.end() : null
      const queries = t.usesDb && r.requests ? ((await queryCount(t)) - q0) / r.requests : null
      const m: Measured = {
        ...r,
        appUsPerReq: perRequest(app0 === null || app1 === null ? null : app1 - app0, r.requests),
        dbUsPerReq: perRequest(db, r.requests),
        queriesPerReq: queries,
      }
      measured.get(t.id)?.push(m)
      const bad = errorCount(r) ? `  ERRORS ${JSON.stringify(r.errors)}` : ''
      const cpu = `server CPU ${fmtUs(m.appUsPerReq)} us/req${t.usesDb ? `, PostgreSQL ${fmtUs(m.dbUsPerReq)} us/req, ${m.queriesPerReq?.toFixed(2)} queries/req` : ''}, wrk ${fmtPct(r.clientCpu)} of a core`
      console.log(`  round ${round} (${t.id}) ${t.label.padEnd(36)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${r.p99Ms.toFixed(2).padStart(6)} ms  ${cpu}${bad}`)
    }
  }

  const summary = targets.map((t) => {
    const rs = measured.get(t.id) ?? []
    return {
      t,
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50Ms)),
      p99: median(rs.map((r) => r.p99Ms)),
      errors: rs.reduce((n, r) => n + errorCount(r), 0),
      appUs: medianOrNull(rs.map((r) => r.appUsPerReq)),
      wrkCpu: medianOrNull(rs.map((r) => r.clientCpu)),
      dbUs: medianOrNull(rs.map((r) => r.dbUsPerReq)),
      queries: medianOrNull(rs.map((r) => r.queriesPerReq)),
      all: rs.map((r) => r.rps.toFixed(0)).join(' / '),
    }
  })
  const rps = (id: Target['id']) => summary.find((s) => s.t.id === id)?.rps ?? Number.NaN
  // CPU per request (server + its PostgreSQL backends): the cost ratio, robust to other load on the machine.
  const cpu = (id: Target['id']) => {
    const s = summary.find((x) => x.t.id === id)
    return s?.appUs == null ? Number.NaN : s.appUs + (s.t.usesDb ? (s.dbUs ?? Number.NaN) : 0)
  }
  const ratios = [
    { name: 'b/a', value: rps('b') / rps('a'), target: 0.8, meaning: 'Hono vs bare Bun.serve (req/s)' },
    { name: 'c/a', value: rps('c') / rps('a'), target: null, meaning: 'authenticated whoami (REST, PostgreSQL) vs bare (req/s)' },
    { name: 'd/c', value: rps('d') / rps('c'), target: 0.8, meaning: 'tRPC whoami vs REST whoami (req/s)' },
    { name: 'b/a CPU', value: cpu('a') / cpu('b'), target: null, meaning: 'same as b/a from CPU per request: cost(a)/cost(b)' },
    { name: 'd/c CPU', value: cpu('c') / cpu('d'), target: null, meaning: 'same as d/c from CPU per request (server + PostgreSQL): cost(c)/cost(d)' },
  ]

  const results = table(
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU us/req', 'PostgreSQL CPU us/req', 'queries/req', 'wrk CPU', 'req/s per round'],
    summary.map((s) => [
      `(${s.t.id}) ${s.t.label}`,
      s.rps.toFixed(0),
      s.p50.toFixed(2),
      s.p99.toFixed(2),
      String(s.errors),
      fmtUs(s.appUs),
      s.t.usesDb ? fmtUs(s.dbUs) : '-',
      s.t.usesDb && s.queries !== null ? s.queries.toFixed(2) : '-',
      fmtPct(s.wrkCpu),
      s.all,
    ]),
    [false, true, true, true, true, true, true, true, true, false],
  )
  // Other work on the machine makes req/s ratios swing far more than the code does.
  const noisy = busyBefore !== null && busyBefore > 0.25
  const noisyNote = noisy
    ? `\n**Noisy run:** the machine was ${((busyBefore ?? 0) * 100).toFixed(0)}% busy with other work before it started; req/s and p99 (and their ratios) swing with that load. Trust the CPU-per-request columns more, or rerun on an idle machine.`
    : ''
  const ratioTable = table(
    ['ratio', 'value', 'target', 'verdict', 'what'],
    ratios.map((r) => [
      r.name,
      r.value.toFixed(3),
      r.target === null ? '-' : `>= ${r.target}`,
      r.target === null ? '-' : `${r.value >= r.target ? 'met' : 'MISSED'}${noisy ? ' (noisy)' : ''}`,
      r.meaning,
    ]),
    [false, true, false, false, false],
  )
  console.log(`\n${results.text}\n\n${ratioTable.text}\n${noisyNote}`)

  const pgVersion = await pgServerVersion(database.url)
  appendResults(
    'http: Bun.serve / Hono / whoami REST / whoami tRPC',
    [
      `Command: \`${ctx.command}\``,
      '',
      'req/s, p50 and p99: medians over the rounds. CPU per request: user+system time of the server process and of the',
      'PostgreSQL backends serving the bench database, divided by the requests served (less sensitive to other load).',
      'queries/req: statements the app process sent to PostgreSQL per request (pg.Client#query counted in bench/servers/app.ts).',
      "wrk CPU: the load generator's own CPU as a share of one core; near 100% the client, not the server, is the limit.",
      '',
      `Machine: ${machineLine([`PostgreSQL ${pgVersion}`])}; load: wrk -t${threads} -c${connections}, ${warmup} s warm-up, ${rounds} x ${seconds} s per target (interleaved; medians shown).`,
      `Machine busy before the run (other processes): ${busyBefore === null ? 'unknown' : `${(busyBefore * 100).toFixed(0)}% of all cores`}.`,
      '',
      results.markdown,
      '',
      ratioTable.markdown,
      noisyNote,
      summary.some((s) => s.errors) ? '\n**Warning:** some requests failed (socket errors or non-2xx): those figures are not valid.' : '',
    ].join('\n'),
  )
  console.log('[bench] appended to bench/RESULTS.md')
  if (summary.some((s) => s.errors)) throw new Error('some requests failed during the measurement')
}

async function pgServerVersion(url: string): Promise<string> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const r = await client.query<{ server_version: string }>('SHOW server_version')
    return r.rows[0]?.server_version.split(' ')[0] ?? '?'
  } finally {
    await client.end()
  }
}

export const httpOverhead: BenchModule = {
  name: 'http',
  title: 'requests/s and p99 of bare Bun.serve, Hono, and whoami over REST and tRPC (PostgreSQL)',
  run,
}
