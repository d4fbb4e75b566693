import { Hono } from 'hono'

// (b) The same JSON from a Hono route, on the same Bun.serve.
const app = new Hono()
app.get('/', (c) => c.json({ hello: 'world' }))

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 0), fetch: app.fetch })
console.log(`BENCH_READY port=${server.port}`)
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
