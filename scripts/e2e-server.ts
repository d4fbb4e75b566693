/**
 * The server Playwright tests run against: the built client, demo data, a known admin password,
 * a throwaway data directory, and a throwaway PostgreSQL database when TEST_DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createApp } from '../src-server/app'
import { readConfig } from '../src-server/config'
import { startSweeps } from '../src-server/domains/execution/sweep'
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
const server = Bun.serve({ port: config.port, fetch: createApp(svc).fetch })
console.log(`[e2e-server] listening on ${server.port}`)
// As in main.ts: offline jobs are force-paused (every 2 s here, so browser tests wait less).
const stopSweeps = startSweeps(svc, { everyMs: 2_000, log: (line) => console.log(`[e2e-server] ${line}`) })

async function shutdown() {
  await server.stop(true)
  await stopSweeps()
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
