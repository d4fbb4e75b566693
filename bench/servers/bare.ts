// (a) The floor: a bare Bun.serve answering the JSON hello.
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.BENCH_PORT ?? 0),
  fetch: () => Response.json({ hello: 'world' }),
})
console.log(`BENCH_READY port=${server.port}`)
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
