import { Hono } from 'hono'
import type { AppEnv } from '../../src-server/http-env'
import { mountClient } from '../../src-server/static-client'

// The client benchmark's baseline page, served exactly as the app serves its build
// (precompressed, same cache headers). BENCH_STATIC_DIR is the built folder.
const dir = process.env.BENCH_STATIC_DIR
if (!dir) throw new Error('BENCH_STATIC_DIR is required')
const app = new Hono<AppEnv>()
mountClient(app, dir, (c) => c.text('not found', 404))
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 0), fetch: app.fetch })
console.log(`BENCH_READY port=${server.port}`)
process.on('SIGTERM', async () => {
  await server.stop(true)
  process.exit(0)
})
