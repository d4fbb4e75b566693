export {}

/**
 * `bun run test`: the whole suite on a fresh clone. Installs dependencies, type-checks, runs bun test
 * (server, shared, client), builds the client and runs the Playwright specs in Chromium.
 * Ends with one summary line "N passed, N failed".
 */
const totals = { passed: 0, failed: 0 }

async function run(label: string, cmd: string[], count?: (out: string) => { passed: number; failed: number }, prefix = '') {
  const started = performance.now()
  console.log(`\n=== ${label}: ${cmd.length > 8 ? `${cmd.slice(0, 5).join(' ')} ... (${cmd.length - 5} more)` : cmd.join(' ')}`)
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: process.env })
  let out = ''
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder()
    let partial = ''
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true })
      out += text
      if (!prefix) {
        sink.write(text)
        continue
      }
      // Stages that run side by side write whole lines, each marked with its stage.
      const lines = (partial + text).split('\n')
      partial = lines.pop()!
      if (lines.length) sink.write(lines.map((l) => `${prefix}${l}\n`).join(''))
    }
    if (partial) sink.write(`${prefix}${partial}\n`)
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

/** The files bun test would pick (*.test.ts and *.test.tsx outside node_modules and build output). */
async function testFiles(): Promise<string[]> {
  const files: string[] = []
  for (const dir of ['src', 'src-server', 'src-client', 'scripts']) {
    for await (const f of new Bun.Glob(`${dir}/**/*.test.{ts,tsx}`).scan('.')) files.push(f)
  }
  return files.sort()
}

/**
 * Seconds the slow test files took in one bun test process on a loaded 2-core machine; the others
 * take a few seconds each, mostly making their database. Only the balance of the split below
 * depends on these figures: a file missing here still runs.
 */
const SLOW_TEST_FILES: Record<string, number> = {
  'src-server/rest/bad-input.test.ts': 105,
  'src-server/trpc/bad-input.test.ts': 130,
  'src-server/domains/flows/flows.test.ts': 100,
  'src-server/test/instances.test.ts': 81,
  'src-server/domains/movements/stock.property.test.ts': 73,
  'src-server/domains/execution/work-sessions.test.ts': 47,
  'src-server/domains/production-stock/production-stock.test.ts': 36,
  'src-server/domains/missions/missions.test.ts': 31,
  'src-server/db/outage.test.ts': 29,
  'src-server/domains/execution/serials-batch.test.ts': 27,
  'src-server/seed/demo/consistency.test.ts': 25,
  'src-server/seed/demo/work-orders.test.ts': 13,
  'src-server/auth/throttle.test.ts': 23,
  'src-server/domains/jobs/jobs-corrections.test.ts': 23,
  'src-server/domains/print-templates/print-templates.test.ts': 22,
  'src-server/domains/products/products.test.ts': 21,
  'src-server/domains/work-orders/work-orders.test.ts': 20,
  'src-server/domains/movements/movements.test.ts': 20,
  'src-server/rest/unknown-keys.test.ts': 18,
  'src-server/domains/serials/serials.test.ts': 15,
  'src-server/domains/execution/offline.test.ts': 15,
  'src-server/domains/movements/rest.test.ts': 13,
  'src-server/domains/jobs/jobs-planning.test.ts': 13,
  'src-server/domains/products/product-files.test.ts': 12,
  'src-server/domains/products/products-scale.test.ts': 10,
  'src-server/domains/counters/counters.test.ts': 10,
  'src-server/domains/work-orders/queue.test.ts': 10,
}
const OTHER_FILE_SECONDS = 4

/** Disjoint groups of about equal running time: the slowest file first, each into the lightest group. */
function splitTestFiles(files: string[], n: number): string[][] {
  const seconds = (f: string) => SLOW_TEST_FILES[f] ?? OTHER_FILE_SECONDS
  const groups = Array.from({ length: n }, () => ({ files: [] as string[], seconds: 0 }))
  for (const f of [...files].sort((a, b) => seconds(b) - seconds(a))) {
    const lightest = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a))
    lightest.files.push(f)
    lightest.seconds += seconds(f)
  }
  return groups.map((g) => g.files.sort()).filter((g) => g.length > 0)
}

function finish(): never {
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`)
  process.exit(totals.failed > 0 ? 1 : 0)
}

if ((await run('install', ['bun', 'install', '--frozen-lockfile'])) !== 0) finish()
await run('type check', ['bun', '--bun', 'tsc', '--noEmit', '-p', '.'])
// Server tests run real transactions on a real database: on a loaded 2-core machine a whole seed
// or a hundred sign-ins takes several seconds, so 30 s per test (bun's default is 5); a hang still fails.
// One bun test process runs its files one after another and mostly waits on the database: two
// processes over disjoint halves keep both cores busy (each file has its own database, see
// src-server/test/harness.ts, so the halves do not meet).
const halves = splitTestFiles(await testFiles(), 2)
await Promise.all(
  halves.map((files, i) =>
    run(
      `unit and server tests ${i + 1}/${halves.length}`,
      ['bun', 'test', '--timeout', '30000', ...files.map((f) => `./${f}`)],
      (out) => ({ passed: num(out, /^\s*(\d+) pass$/m), failed: num(out, /^\s*(\d+) fail$/m) }),
      `[${i + 1}] `,
    ),
  ),
)
const built = await run('client build', ['bun', '--bun', 'vite', 'build', '--logLevel', 'warn'])
// The isolated tests (tagged ISOLATED) alone on one worker, then the rest on two; the second
// runs whatever the first answered, so one run shows every failure.
const playwrightCount = (out: string) => ({
  passed: num(out, /^\s*(\d+) passed/m) + num(out, /^\s*(\d+) flaky/m),
  failed: num(out, /^\s*(\d+) failed/m),
})
if (built === 0) {
  await run('browser tests, isolated', ['bun', '--bun', 'playwright', 'test', '--project', 'isolated'], playwrightCount)
  await run('browser tests, in parallel', ['bun', '--bun', 'playwright', 'test', '--project', 'parallel'], playwrightCount)
}
finish()
