import pg from 'pg'
import { createApp } from '../../src-server/app'
import { readConfig } from '../../src-server/config'
import { prepareServices } from '../../src-server/start'

// (c)/(d) The real app as src-server/main.ts builds it, on 127.0.0.1 and a free port.
// The parent sets DATABASE_URL (a throwaway database), MES_ADMIN_PASSWORD and MES_DATA_DIR.

// Every statement the app sends to PostgreSQL goes through pg.Client#query: counted, so the
// bench can tell how many database round trips a request costs (GET /__bench/queries).
let queries = 0
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query

const config = readConfig()
const { svc, database } = await prepareServices(config, (line) => console.log(line))
const app = createApp(svc)
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.BENCH_PORT ?? 0),
  fetch: (req, bunServer) => (req.url.endsWith('/__bench/queries') ? Response.json({ queries }) : app.fetch(req, bunServer)),
  maxRequestBodySize: 64 * 1024 * 1024,
})
console.log(`BENCH_READY port=${server.port}`)
process.on('SIGTERM', async () => {
  await server.stop(true)
  await database.close()
  process.exit(0)
})
