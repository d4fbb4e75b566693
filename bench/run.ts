import { auditBench } from './audit'
import { clientLoad } from './client'
import { genealogyBench } from './genealogy'
import { heartbeat } from './heartbeat'
import { historyRecordBench } from './history-record'
import { labelsBench } from './labels'
import { httpOverhead } from './http-overhead'
import { liveBench } from './live'
import type { BenchModule } from './lib/module'
import { planningScale } from './planning-scale'
import { reportsBench } from './reports'
import { revisionsBench } from './revisions'
import { warehouseBench } from './warehouse'

/**
 * `bun run bench` runs every benchmark below, `bun run bench NAME [NAME...]` only those,
 * `bun run bench --list` lists them. Add a benchmark as its own module exporting a BenchModule
 * and list it here.
 */
const MODULES: BenchModule[] = [httpOverhead, heartbeat, planningScale, clientLoad, genealogyBench, liveBench, labelsBench, warehouseBench, reportsBench, auditBench, revisionsBench, historyRecordBench]

const args = process.argv.slice(2)
if (args.includes('--list') || args.includes('-h') || args.includes('--help')) {
  console.log('usage: bun run bench [NAME...]   (no name: all)\n')
  for (const m of MODULES) console.log(`  ${m.name.padEnd(12)} ${m.title}`)
  console.log('\nEnvironment: DATABASE_URL (admin URL of a local PostgreSQL; default postgres://postgres@127.0.0.1:5432/),')
  console.log('BENCH_SECONDS, BENCH_WARMUP, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_THREADS (see bench/README.md).')
  process.exit(0)
}
const unknown = args.filter((a) => !MODULES.some((m) => m.name === a))
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')}; known: ${MODULES.map((m) => m.name).join(', ')}`)
  process.exit(2)
}
const selected = args.length ? MODULES.filter((m) => args.includes(m.name)) : MODULES

// The exact command for RESULTS.md, with any BENCH_* / DATABASE_URL override in front.
const overrides = Object.entries(process.env)
  .filter(([k]) => k.startsWith('BENCH_') || k === 'DATABASE_URL')
  .map(([k, v]) => `${k}=${v}`)
const commandFor = (m: BenchModule) => [...overrides, 'bun run bench', m.name].join(' ')

let cleanups: (() => Promise<void> | void)[] = []
async function cleanUp() {
  const fns = cleanups.reverse()
  cleanups = []
  for (const fn of fns) {
    try {
      await fn()
    } catch (e) {
      console.error('[bench] cleanup failed:', e instanceof Error ? e.message : e)
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    console.error(`[bench] ${signal}: cleaning up`)
    await cleanUp()
    process.exit(130)
  })
}

let failed = 0
for (const m of selected) {
  console.log(`\n=== bench ${m.name}: ${m.title}`)
  const started = performance.now()
  try {
    await m.run({ command: commandFor(m), onCleanup: (fn) => cleanups.push(fn) })
  } catch (e) {
    failed++
    console.error(`[bench] ${m.name} failed:`, e instanceof Error ? (e.stack ?? e.message) : e)
  } finally {
    await cleanUp()
  }
  console.log(`=== bench ${m.name}: ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
process.exit(failed ? 1 : 0)
