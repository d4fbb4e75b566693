export {}

/**
 * `bun run test`: the whole suite on a fresh clone. Installs dependencies, type-checks, runs bun test
 * (server, shared, client), builds the client and runs the Playwright specs in Chromium.
 * Ends with one summary line "N passed, N failed".
 */
const totals = { passed: 0, failed: 0 }

async function run(label: string, cmd: string[], count?: (out: string) => { passed: number; failed: number }) {
  const started = performance.now()
  console.log(`\n=== ${label}: ${cmd.join(' ')}`)
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: process.env })
  let out = ''
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true })
      out += text
      sink.write(text)
    }
  }
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)])
  const code = await proc.exited
  const counted = count?.(out)
  if (counted) {
    totals.passed += counted.passed
    totals.failed += counted.failed
  }
  console.log(`=== ${label}: exit ${code} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // A failing stage counts as at least one failure; later stages still run so one run shows everything.
  if (code !== 0 && (!counted || counted.failed === 0)) totals.failed += 1
  return code
}

const num = (out: string, re: RegExp) => Number(out.match(re)?.[1] ?? 0)

function finish(): never {
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`)
  process.exit(totals.failed > 0 ? 1 : 0)
}

if ((await run('install', ['bun', 'install', '--frozen-lockfile'])) !== 0) finish()
await run('type check', ['bun', '--bun', 'tsc', '--noEmit', '-p', '.'])
// Server tests run real transactions on a real database: on a loaded 2-core machine a whole seed
// or a hundred sign-ins takes several seconds, so 30 s per test (bun's default is 5); a hang still fails.
await run('unit and server tests', ['bun', 'test', '--timeout', '30000'], (out) => ({
  passed: num(out, /^\s*(\d+) pass$/m),
  failed: num(out, /^\s*(\d+) fail$/m),
}))
const built = await run('client build', ['bun', '--bun', 'vite', 'build', '--logLevel', 'warn'])
if (built === 0) await run('browser tests', ['bun', '--bun', 'playwright', 'test'], (out) => ({
  passed: num(out, /^\s*(\d+) passed/m) + num(out, /^\s*(\d+) flaky/m),
  failed: num(out, /^\s*(\d+) failed/m),
}))
finish()
