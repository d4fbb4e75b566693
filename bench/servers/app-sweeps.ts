import { createApp } from '../../src-server/app'
import { readConfig } from '../../src-server/config'
import { startSweeps } from '../../src-server/sweeps'
import { prepareServices } from '../../src-server/start'

// The real app as src-server/main.ts builds it, periodic sweeps included (offline jobs, issue escalation,
// idempotency keys), on 127.0.0.1 and a free port. Same contract as app.ts: the parent sets
// DATABASE_URL (or MES_DATA_DIR for PGlite) and MES_ADMIN_PASSWORD; READY line on stdout.
const config = readConfig()
const { svc, database } = await prepareServices(config, (line) => console.log(line))
const app = createApp(svc)
const stopSweeps = startSweeps(svc, { log: (line) => console.log(line) })
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.BENCH_PORT ?? 0),
  fetch: app.fetch,
  maxRequestBodySize: 64 * 1024 * 1024,
})
console.log(`BENCH_READY port=${server.port}`)
process.on('SIGTERM', async () => {
  await server.stop(true)
  await stopSweeps()
  await database.close()
  process.exit(0)
})
