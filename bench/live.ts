import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Socket } from 'bun'
import { newApiTokenCredential } from '../src-server/auth/api-tokens'
import { openPostgres } from '../src-server/db/connect'
import { type ChildServer, startChild } from './lib/child'
import { machineBusy, processCpuMs } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, machineLine, table } from './lib/report'
import { waitUntil } from './lib/wait'
import { env } from './lib/env'

/**
 * Live fan-out (issue 17): BENCH_SUBSCRIPTIONS (2,000) open SSE subscriptions
 * (`GET /api/events/stream`, each its own HTTP connection) on ONE app instance (the real app,
 * servers/app.ts, on a throwaway PostgreSQL), then BENCH_ROUNDS changes (`POST /api/event`, one
 * at a time), each fanned out to every subscription: delivery latency is measured per
 * subscription from the moment the change was sent to the moment its frame arrived (so it holds
 * the POST, the COMMIT, NOTIFY, the instance's one LISTEN and the fan-out). Target: p99 < 500 ms.
 * Memory per subscription: the server's RSS with all open minus before, over the count.
 * The clients are raw sockets in this process (no fetch connection cap), reading the stream for
 * each round's marker.
 */

const SERVER = path.join(import.meta.dir, 'servers', 'app.ts')
const ADMIN_PASSWORD = 'bench-admin-password'

function rssKiB(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
  return m ? Number(m[1]) : Number.NaN
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

type Client = { socket: Socket<undefined> | null; ready: boolean; tail: string; got: Map<string, number> }

/** One SSE subscription over a raw HTTP/1.1 socket; `got` maps a round's marker to its arrival time. */
async function openClient(port: number, token: string, markers: Set<string>, onReady: () => void): Promise<Client> {
  const client: Client = { socket: null, ready: false, tail: '', got: new Map() }
  const decoder = new TextDecoder()
  client.socket = await Bun.connect({
    hostname: '127.0.0.1',
    port,
    socket: {
      data(_s, chunk) {
        const now = performance.now()
        const text = client.tail + decoder.decode(chunk)
        if (!client.ready && text.includes(': live')) {
          client.ready = true
          onReady()
        }
        for (const m of markers) if (!client.got.has(m) && text.includes(m)) client.got.set(m, now)
        client.tail = text.slice(-64)
      },
      close() {
        client.socket = null
      },
      error() {},
    },
  })
  client.socket.write(`GET /api/events/stream?topics=jobs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`)
  return client
}

async function run(ctx: BenchContext) {
  const subscriptions = env('BENCH_SUBSCRIPTIONS', 2_000)
  const rounds = env('BENCH_ROUNDS', 20)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL

  const busyBefore = await machineBusy(2000)
  if (busyBefore !== null && busyBefore > 0.1) console.warn(`[bench] WARNING: the machine is already ${(busyBefore * 100).toFixed(0)}% busy before the run`)
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'mes-bench-live-'))
  ctx.onCleanup(() => rmSync(scratch, { recursive: true, force: true }))
  const database = await createThrowawayDatabase(adminUrl, 'mes_bench_live')
  ctx.onCleanup(async () => {
    await database.drop()
    console.log(`[bench] dropped database ${database.name}`)
  })
  const children: ChildServer[] = []
  ctx.onCleanup(async () => {
    await Promise.all(children.map((c) => c.stop()))
  })
  const app = await startChild('app:pg', SERVER, { DATABASE_URL: database.url, MES_ADMIN_PASSWORD: ADMIN_PASSWORD, MES_DATA_DIR: path.join(scratch, 'data'), MES_DEMO: '0' })
  children.push(app)

  // One API token (operator and production) for every subscription and the changes.
  const seed = openPostgres(database.url, 2)
  ctx.onCleanup(() => seed.close())
  const admin = await seed.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
  const cred = newApiTokenCredential()
  await seed.db
    .insertInto('api_tokens')
    .values({ id: cred.id, secret_hash: cred.secretHash, description: 'bench live', scope: 'operator production', expires_at: new Date(Date.now() + 86_400_000), created_by: admin.id, created_at: new Date() })
    .execute()
  const token = cred.token
  const change = async (marker: string) => {
    const res = await fetch(`http://127.0.0.1:${app.port}/api/event`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'PAUSED_OFFLINE', subject_type: 'job', subject_key: marker }),
    })
    if (res.status !== 201) throw new Error(`POST /api/event: ${res.status} ${await res.text()}`)
  }

  // Warm the app (JIT, pool, the LISTEN connection) with one subscription and one change.
  const markers = new Set<string>()
  let ready = 0
  const warm = await openClient(app.port, token, markers, () => ready++)
  await waitUntil(() => ready >= 1, 30_000, 'the warm-up subscription to open')
  markers.add('"bench-warm"')
  await change('bench-warm')
  await waitUntil(() => warm.got.has('"bench-warm"'), 30_000, 'the warm-up change to arrive')
  warm.socket?.end()
  await Bun.sleep(500)
  Bun.gc(true)
  const rssBefore = rssKiB(app.proc.pid)

  // Open every subscription (in batches, so the accept queue never overflows).
  ready = 0
  const openStarted = performance.now()
  const clients: Client[] = []
  for (let i = 0; i < subscriptions; i += 200) {
    const batch = await Promise.all(Array.from({ length: Math.min(200, subscriptions - i) }, () => openClient(app.port, token, markers, () => ready++)))
    clients.push(...batch)
    await waitUntil(() => ready >= clients.length, 60_000, `${clients.length} subscriptions to open`, 5)
  }
  const openMs = performance.now() - openStarted
  console.log(`[bench] ${clients.length} subscriptions open in ${(openMs / 1000).toFixed(1)} s`)
  await Bun.sleep(1_000)
  const rssOpen = rssKiB(app.proc.pid)
  const perSubKiB = (rssOpen - rssBefore) / subscriptions

  // Rounds: one change at a time, every subscription must get it.
  const latencies: number[] = []
  const roundP99: number[] = []
  let missing = 0
  const cpuBefore = processCpuMs(app.proc.pid)
  const roundsStarted = performance.now()
  for (let r = 0; r < rounds; r++) {
    const marker = `"bench-${r}"`
    markers.add(marker)
    const t0 = performance.now()
    await change(`bench-${r}`)
    const deadline = t0 + 5_000
    while (clients.some((c) => !c.got.has(marker)) && performance.now() < deadline) await Bun.sleep(5)
    const these = clients.map((c) => c.got.get(marker)).filter((t): t is number => t !== undefined).map((t) => t - t0)
    missing += clients.length - these.length
    latencies.push(...these)
    roundP99.push(pct([...these].sort((a, b) => a - b), 99))
    markers.delete(marker)
    await Bun.sleep(200)
  }
  const cpuMs = cpuBefore === null ? null : (processCpuMs(app.proc.pid) ?? 0) - cpuBefore
  const wallMs = performance.now() - roundsStarted
  const stillOpen = clients.filter((c) => c.socket !== null).length
  for (const c of clients) c.socket?.end()

  const sorted = [...latencies].sort((a, b) => a - b)
  const f = (n: number) => n.toFixed(1)
  const result = table(
    ['measure', 'value'],
    [
      ['subscriptions (open at the end)', `${subscriptions} (${stillOpen})`],
      ['rounds (changes fanned out)', String(rounds)],
      ['deliveries (missing)', `${latencies.length} (${missing})`],
      ['delivery p50 ms', f(pct(sorted, 50))],
      ['delivery p90 ms', f(pct(sorted, 90))],
      ['delivery p99 ms', f(pct(sorted, 99))],
      ['delivery max ms', f(sorted.at(-1) ?? Number.NaN)],
      ['worst round p99 ms', f(Math.max(...roundP99))],
      ['server RSS before / open (MiB)', `${(rssBefore / 1024).toFixed(1)} / ${(rssOpen / 1024).toFixed(1)}`],
      ['memory per subscription KiB', f(perSubKiB)],
      ['opening all subscriptions s', (openMs / 1000).toFixed(1)],
      ['server CPU during the rounds (ms / wall ms)', cpuMs === null ? 'n/a' : `${cpuMs.toFixed(0)} / ${wallMs.toFixed(0)}`],
    ],
    [false, true],
  )
  console.log(result.text)
  const p99 = pct(sorted, 99)
  const verdict = missing === 0 && p99 < 500 ? 'met' : 'NOT met'
  console.log(`[bench] target (every subscription gets every change, p99 < 500 ms): ${verdict}`)
  appendResults(
    'live: SSE fan-out',
    `Command: \`${ctx.command}\` (BENCH_SUBSCRIPTIONS=${subscriptions}, BENCH_ROUNDS=${rounds})\n\n` +
      `Machine: ${machineLine(busyBefore === null ? [] : [`${(busyBefore * 100).toFixed(0)}% busy before the run`])}\n\n` +
      `One app instance (bench/servers/app.ts) on a throwaway PostgreSQL; ${subscriptions} \`GET /api/events/stream\` subscriptions, ` +
      `each its own HTTP connection from the bench process; each round one \`POST /api/event\` whose NOTIFY the instance's one LISTEN ` +
      `fans out in-process. Latency: from sending the change to its frame arriving, per subscription.\n\n` +
      `${result.markdown}\n\nTarget (every subscription gets every change, p99 < 500 ms): **${verdict}**.`,
  )
  if (missing > 0) throw new Error(`${missing} deliveries missing`)
}

export const liveBench: BenchModule = { name: 'live', title: 'live updates: 2,000 SSE subscriptions on one instance, one change fanned out to all', run }
