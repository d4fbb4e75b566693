/**
 * The server Playwright tests run against: the built client, demo data, a known admin password,
 * a throwaway data directory, and a throwaway PostgreSQL database when TEST_DATABASE_URL is set.
 * Its clock can be moved forward (test only, never in the app): `POST /__e2e/clock
 * {"advance_ms": n}` adds n ms to the server's time, `DELETE /__e2e/clock` goes back to real time.
 * Both answer {now, offset_ms}.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createApp } from '../src-server/app'
import { readConfig } from '../src-server/config'
import { startFlowWorker } from '../src-server/domains/flows/queue'
import { startSweeps } from '../src-server/sweeps'
import { prepareServices } from '../src-server/start'

export const E2E_ADMIN_PASSWORD = 'e2e-admin-password'

const dataDir = mkdtempSync(path.join(tmpdir(), 'mes-e2e-'))
const adminUrl = process.env.TEST_DATABASE_URL
let databaseUrl: string | undefined
let dbName: string | undefined
if (adminUrl) {
  dbName = `mes_e2e_${Date.now().toString(36)}`
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  await client.query(`create database "${dbName}"`)
  await client.end()
  const u = new URL(adminUrl)
  u.pathname = `/${dbName}`
  databaseUrl = u.toString()
}

const config = readConfig({
  PORT: process.env.E2E_PORT ?? '8123',
  MES_DATA_DIR: dataDir,
  MES_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
  MES_DEMO: '1',
  ...(process.env.MES_CLIENT_DIST ? { MES_CLIENT_DIST: process.env.MES_CLIENT_DIST } : {}),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
})
const { svc, database } = await prepareServices(config, (line) => console.log(`[e2e-server] ${line}`))
// Real time plus an offset, one clock object for the app and the sweeps (escalation under test).
let offsetMs = 0
svc.clock = { now: () => new Date(Date.now() + offsetMs) }
const app = createApp(svc)

async function clockControl(req: Request): Promise<Response> {
  if (req.method === 'POST') {
    const body = (await req.json().catch(() => null)) as { advance_ms?: unknown } | null
    const advance = body?.advance_ms
    if (typeof advance !== 'number' || !Number.isInteger(advance) || advance < 0) {
      return Response.json({ detail: { message: 'advance_ms must be a whole number >= 0', code: 'INVALID_INPUT' } }, { status: 400 })
    }
    offsetMs += advance
  } else if (req.method === 'DELETE') {
    offsetMs = 0
  } else {
    return new Response(null, { status: 405, headers: { allow: 'POST, DELETE' } })
  }
  return Response.json({ now: svc.clock.now().getTime(), offset_ms: offsetMs })
}

const server = Bun.serve({
  port: config.port,
  fetch: (req, bunServer) => (new URL(req.url).pathname === '/__e2e/clock' ? clockControl(req) : app.fetch(req, bunServer)),
})
console.log(`[e2e-server] listening on ${server.port}`)
// As in main.ts: offline jobs are force-paused, overdue issues escalate (every 2 s here, so browser tests wait less).
const stopSweeps = startSweeps(svc, { everyMs: 2_000, log: (line) => console.log(`[e2e-server] ${line}`) })
// Webhook deliveries of the data flows, retried after 1 s (then 2 s ...) so browser tests wait less.
const flows = await startFlowWorker({ ...svc, config: { ...svc.config, flowRetryDelaySeconds: 1 } }, { pollingIntervalSeconds: 0.5 })

async function shutdown() {
  await server.stop(true)
  await stopSweeps()
  await flows.stop()
  await database.close()
  rmSync(dataDir, { recursive: true, force: true })
  if (adminUrl && dbName) {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(`drop database if exists "${dbName}" with (force)`)
    await client.end()
  }
  process.exit(0)
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
