export {}

/**
 * `bun run dev`: the API (restarting on server changes) and Vite's dev server with HMR,
 * which proxies /api and /media to the API. Open http://localhost:5173.
 */
const apiPort = process.env.PORT ?? '8000'
const children = [
  Bun.spawn(['bun', '--watch', 'src-server/main.ts'], { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, PORT: apiPort } }),
  Bun.spawn(['bun', '--bun', 'vite'], { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, PORT: apiPort } }),
]
const stopAll = () => {
  for (const c of children) c.kill()
  process.exit(0)
}
process.on("SIGINT", stopAll)
process.on("SIGTERM", stopAll)
await Promise.race(children.map((c) => c.exited))
stopAll()
