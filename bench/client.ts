import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type APIRequestContext, chromium, type Page, request } from '@playwright/test'
import config from '../playwright.config'
import { measureRepeatVisit } from './client-repeat'
import { type ChildServer, startChild } from './lib/child'
import { machineBusy } from './lib/cpu'
import type { BenchContext, BenchModule } from './lib/module'
import { createThrowawayDatabase, DEFAULT_DATABASE_URL } from './lib/pg'
import { appendResults, machineLine, table } from './lib/report'
import { env } from './lib/env'

/**
 * What a person's browser downloads to open each area's main screen, cold cache, already signed
 * in: JS and CSS bytes on the wire (compressed, headers included: CDP encodedDataLength), the
 * number of requests, and the time from navigation to the screen showing its content. The
 * yardstick is a blank Vite React page with the same UI kit (bench/client-baseline), built and
 * served the same way.
 */

const ROOT = path.join(import.meta.dir, '..')
const DEMO_PASSWORD = 'demo1234'
const KB = 1024

type Screen = {
  id: string
  label: string
  username: string
  /** The screen's address (the work session's names the demo's running job). */
  path: (api: APIRequestContext) => Promise<string>
  /** Visible once the screen shows its content (not a loader). */
  ready: string
}

const fixed = (p: string) => async () => p
const SCREENS: Screen[] = [
  { id: 'operator-select-job', label: 'operator: select job', username: 'operatore1', path: fixed('/app/operator/select-job?job=first'), ready: '[data-testid="job-card"]' },
  { id: 'operator-work-session', label: 'operator: work session', username: 'capoturno', path: runningJobSteps, ready: '[data-testid="step-panel"]' },
  { id: 'production', label: 'production: work orders', username: 'produzione', path: fixed('/app/production/overview/workorder'), ready: 'table tbody tr' },
  { id: 'library', label: 'library: products', username: 'libreria', path: fixed('/app/library/product'), ready: 'table tbody tr' },
  { id: 'admin', label: 'admin: users', username: 'admin', path: fixed('/app/admin/users'), ready: 'table tbody tr' },
  { id: 'quality', label: 'quality: issues', username: 'qualita', path: fixed('/app/quality/issues'), ready: 'table tbody tr' },
]

/** The work session of the demo's running job (capoturno's), found through the REST API as that user. */
async function runningJobSteps(api: APIRequestContext): Promise<string> {
  const me = await api.get('/api/whoami')
  const userKey = ((await me.json()) as { detail: { user_key: string } }).detail.user_key
  const res = await api.get(`/api/job?filters=active&operator_key=${userKey}`)
  const key = ((await res.json()) as { detail: { rows: { _key: string }[] } }).detail.rows[0]?._key
  if (!key) throw new Error(`no running job for the demo operator: ${res.status()} ${await res.text()}`)
  return `/app/operator/job/${key}/steps`
}

type Load = {
  jsBytes: number
  cssBytes: number
  otherBytes: number
  requests: number
  jsRequests: number
  apiRequests: number
  /** Procedures called over tRPC: more than its requests when calls travel batched. */
  trpcCalls: number
  /** Navigation to the first screen (the sign-in form, or the baseline's button) showing. */
  firstMs: number
  /** For the app: the sign-in click to the area's screen showing its content. */
  afterSignInMs: number
  /** What was requested from the sign-in click on: the screen's own cost once the app is loaded. */
  afterJsBytes: number
  afterRequests: number
  /** What was requested, in order: `BENCH_CLIENT_LIST=1` prints it (which chunks a screen loads). */
  list: string[]
}

/** How a load starts and when it is done; `signIn` (app only) is the person's part, not timed. */
type Flow = { url: string; first: string; signIn?: (page: Page) => Promise<void>; ready: string }

/** The network is quiet after this long without a request starting or ending. */
const QUIET_MS = 500
/** The longest a load waits for quiet: a screen polling faster than QUIET_MS is measured as it is then. */
const QUIET_BOUND_MS = 15_000

/**
 * Runs `flow` in a fresh page and records every request until the screen is ready and the
 * network has been quiet for a moment (late chunks and queries count; polls seconds later do not).
 * Long-lived streams (the screens' live event stream, SSE) never finish: they count as requests
 * but not in the quiet rule.
 */
async function measureLoad(page: Page, flow: Flow): Promise<Load> {
  const cdp = await page.context().newCDPSession(page)
  // A new browser context starts with an empty cache; within the load the cache works as it
  // would for a person (a file asked for twice is fetched once if its headers allow).
  await cdp.send('Network.enable')
  const kinds = new Map<string, { type: string; url: string; afterSignIn: boolean }>()
  let signedIn = false
  const done = new Map<string, number>()
  const streams = new Set<string>()
  let lastActivity = performance.now()
  cdp.on('Network.requestWillBeSent', (e) => {
    kinds.set(e.requestId, { type: e.type ?? 'Other', url: e.request.url, afterSignIn: signedIn })
    if (e.type === 'EventSource') streams.add(e.requestId)
    lastActivity = performance.now()
  })
  cdp.on('Network.responseReceived', (e) => {
    if (e.response.mimeType === 'text/event-stream') streams.add(e.requestId)
  })
  cdp.on('Network.loadingFinished', (e) => {
    done.set(e.requestId, e.encodedDataLength)
    lastActivity = performance.now()
  })
  cdp.on('Network.loadingFailed', (e) => {
    done.set(e.requestId, 0)
    lastActivity = performance.now()
  })
  const visible = async (selector: string) => {
    try {
      await page.locator(selector).first().waitFor({ state: 'visible', timeout: 60_000 })
    } catch (e) {
      const shot = path.join(os.tmpdir(), `bench-client-${new URL(page.url()).pathname.replace(/\W+/g, '-')}.png`)
      await page.screenshot({ path: shot }).catch(() => {})
      throw new Error(`${page.url()}: '${selector}' never showed (screenshot ${shot}): ${e instanceof Error ? e.message : e}`)
    }
  }
  const started = performance.now()
  await page.goto(flow.url, { waitUntil: 'commit' })
  await visible(flow.first)
  const firstMs = performance.now() - started
  let afterSignInMs = 0
  if (flow.signIn) {
    signedIn = true
    await flow.signIn(page)
    const clicked = performance.now()
    await visible(flow.ready)
    afterSignInMs = performance.now() - clicked
  }
  // Quiet: every request but the streams finished and nothing new for QUIET_MS; at most QUIET_BOUND_MS.
  const pending = () => [...kinds.keys()].filter((id) => !done.has(id) && !streams.has(id))
  const quietBy = performance.now() + QUIET_BOUND_MS
  while (performance.now() - lastActivity < QUIET_MS || pending().length > 0) {
    if (performance.now() > quietBy) {
      console.warn(`[bench] ${page.url()}: no quiet network after ${QUIET_BOUND_MS / 1000} s; still open: ${pending().map((id) => kinds.get(id)?.url).join(', ') || 'none (requests kept starting)'}`)
      break
    }
    await page.waitForTimeout(100)
  }
  await cdp.detach()
  const load: Load = { jsBytes: 0, cssBytes: 0, otherBytes: 0, requests: 0, jsRequests: 0, apiRequests: 0, trpcCalls: 0, firstMs, afterSignInMs, afterJsBytes: 0, afterRequests: 0, list: [] }
  for (const [id, { type, url: u, afterSignIn }] of kinds) {
    const bytes = done.get(id) ?? 0
    load.requests++
    if (afterSignIn) load.afterRequests++
    if (type === 'Script') {
      load.jsBytes += bytes
      load.jsRequests++
      if (afterSignIn) load.afterJsBytes += bytes
    } else if (type === 'Stylesheet') load.cssBytes += bytes
    else load.otherBytes += bytes
    const { pathname } = new URL(u)
    load.list.push(`${afterSignIn ? 'after' : 'cold '} ${type.padEnd(10)} ${(bytes / KB).toFixed(1).padStart(6)} KB ${pathname}`)
    if (pathname.startsWith('/api/')) load.apiRequests++
    // A batch names its procedures in the path: /api/trpc/a.b,c.d?batch=1
    if (pathname.startsWith('/api/trpc/')) load.trpcCalls += pathname.slice('/api/trpc/'.length).split(',').length
  }
  return load
}

/** The sign-in form as a person fills it (typed, then the button); the click is the last step. */
const signInAs = (username: string, password: string) => async (page: Page) => {
  await page.locator('input[name="username"]').pressSequentially(username)
  await page.locator('input[name="password"]').pressSequentially(password)
  await page.getByRole('button', { name: /^(Accedi|Sign in)$/ }).click()
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** A build on a busy 2-core machine takes 1-3 minutes. */
const BUILD_TIMEOUT_MS = 10 * 60_000

async function build(args: string[], label: string): Promise<void> {
  const started = performance.now()
  const proc = Bun.spawn([process.execPath, '--bun', 'vite', 'build', '--logLevel', 'warn', ...args], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
    timeout: BUILD_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  })
  if ((await proc.exited) !== 0) throw new Error(`${label} build failed`)
  console.log(`[bench] built ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

async function run(ctx: BenchContext) {
  const runs = env('BENCH_CLIENT_RUNS', 3)
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
  const busyBefore = await machineBusy(2000)

  const work = mkdtempSync(path.join(os.tmpdir(), 'mes-bench-client-'))
  ctx.onCleanup(() => rmSync(work, { recursive: true, force: true }))
  const appDist = process.env.BENCH_CLIENT_DIST || path.join(work, 'app')
  const baselineDist = path.join(work, 'baseline')
  if (!process.env.BENCH_CLIENT_DIST) await build(['--outDir', appDist], 'the app')
  await build(['--config', 'bench/client-baseline/vite.config.ts', '--outDir', baselineDist], 'the baseline page')

  const database = await createThrowawayDatabase(adminUrl, 'mes_bench')
  ctx.onCleanup(() => database.drop())
  const children: ChildServer[] = []
  ctx.onCleanup(() => Promise.all(children.map((c) => c.stop())).then(() => undefined))
  const adminPassword = 'bench-admin-password'
  const app = await startChild('app', path.join(import.meta.dir, 'servers', 'app.ts'), {
    DATABASE_URL: database.url,
    MES_ADMIN_PASSWORD: adminPassword,
    MES_DATA_DIR: path.join(work, 'data'),
    MES_DEMO: '1',
    MES_CLIENT_DIST: appDist,
    // Migrations and the demo plant on a fresh database: minutes on a 2-core machine shared at load 20+.
  }, 300_000)
  children.push(app)
  const baseline = await startChild('baseline', path.join(import.meta.dir, 'servers', 'static.ts'), { BENCH_STATIC_DIR: baselineDist })
  children.push(baseline)

  const launch = config.use?.launchOptions ?? {}
  const browser = await chromium.launch({ executablePath: launch.executablePath ?? '/usr/bin/chromium', args: launch.args })
  ctx.onCleanup(() => browser.close())
  const appURL = `http://127.0.0.1:${app.port}`
  const baselineURL = `http://127.0.0.1:${baseline.port}`

  const measure = async (label: string, baseURL: string, flow: Flow) => {
    const loads: Load[] = []
    // One unmeasured warm-up (server caches, Chromium start), then `runs` cold-cache loads.
    for (let i = 0; i <= runs; i++) {
      // No service worker in a cold load: on a slow machine it registered and took the page over
      // while the sign-in form was typed, and the screen's chunks then came from its cache and
      // counted 0 bytes (runs of 2026-11-29). The repeat visit (client-repeat.ts) measures it.
      const context = await browser.newContext({ baseURL, locale: 'it-IT', viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' })
      try {
        const load = await measureLoad(await context.newPage(), flow)
        if (i > 0) loads.push(load)
      } finally {
        await context.close()
      }
    }
    const last = loads[loads.length - 1] as Load
    if (process.env.BENCH_CLIENT_LIST) console.log(last.list.map((l) => `    ${l}`).join('\n'))
    const total = (l: Load) => l.firstMs + l.afterSignInMs
    const row = { ...last, totalMs: median(loads.map(total)), firstMs: median(loads.map((l) => l.firstMs)), afterSignInMs: median(loads.map((l) => l.afterSignInMs)), all: loads.map(total) }
    console.log(
      `  ${label.padEnd(26)} JS ${(row.jsBytes / KB).toFixed(0).padStart(4)} KB in ${row.jsRequests} files, CSS ${(row.cssBytes / KB).toFixed(0)} KB, ${row.requests} requests (${row.apiRequests} API), ready ${row.totalMs.toFixed(0)} ms`,
    )
    return row
  }

  const base = await measure('baseline (blank page)', baselineURL, { url: '/', first: '[data-testid="baseline-button"]', ready: '' })
  const rows: { screen: Screen; target: string; m: Awaited<ReturnType<typeof measure>> }[] = []
  for (const screen of SCREENS) {
    const password = screen.username === 'admin' ? adminPassword : DEMO_PASSWORD
    const api = await request.newContext({ baseURL: appURL })
    const login = await api.post('/api/login', { data: { username: screen.username, password } })
    if (login.status() !== 200) throw new Error(`sign-in of ${screen.username}: ${login.status()} ${await login.text()}`)
    const target = await screen.path(api)
    await api.dispose()
    const m = await measure(screen.label, appURL, {
      url: `/login?redirect_to=${encodeURIComponent(target)}`,
      first: 'input[name="password"]',
      signIn: signInAs(screen.username, password),
      ready: screen.ready,
    })
    rows.push({ screen, target, m })
  }

  // The operator's work session once more (the same job: the loads above paused it), in one context: the second load from the service worker.
  const wsRow = rows.find((r) => r.screen.id === 'operator-work-session')!
  const repeat = await measureRepeatVisit(browser, appURL, wsRow.target, signInAs(wsRow.screen.username, DEMO_PASSWORD), wsRow.screen.ready)
  console.log(
    `  repeat visit (work session): ${repeat.scriptsFromServiceWorker} of ${repeat.scripts} scripts from the service worker, ${repeat.scriptBytesOverNetwork} bytes of JS over the network (controlled ${(repeat.controlledAfterMs / 1000).toFixed(1)} s after the first load)`,
  )

  const kb = (b: number) => (b / KB).toFixed(1)
  const ratio = (x: number, y: number) => (x / y).toFixed(2)
  const ms = (x: number) => x.toFixed(0)
  const results = table(
    ['screen', 'JS KB', 'JS files', 'CSS KB', 'requests', 'API requests', 'tRPC calls', 'after sign-in: JS KB', 'after sign-in: requests', 'sign-in form ms', 'after sign-in ms', 'ready ms', 'ready x baseline', 'JS+CSS x baseline', 'ready ms per run'],
    [
      ['blank Vite React + Mantine page', kb(base.jsBytes), String(base.jsRequests), kb(base.cssBytes), String(base.requests), '0', '0', '-', '-', '-', '-', ms(base.totalMs), '1.00', '1.00', base.all.map(ms).join(' / ')],
      ...rows.map(({ screen, m }) => [
        screen.label,
        kb(m.jsBytes),
        String(m.jsRequests),
        kb(m.cssBytes),
        String(m.requests),
        String(m.apiRequests),
        String(m.trpcCalls),
        kb(m.afterJsBytes),
        String(m.afterRequests),
        ms(m.firstMs),
        ms(m.afterSignInMs),
        ms(m.totalMs),
        ratio(m.totalMs, base.totalMs),
        ratio(m.jsBytes + m.cssBytes, base.jsBytes + base.cssBytes),
        m.all.map(ms).join(' / '),
      ]),
    ],
    [false, true, true, true, true, true, true, true, true, true, true, true, true, true, false],
  )

  const ws = rows.find((r) => r.screen.id === 'operator-work-session')?.m
  const worst = rows.reduce((w, r) => (r.m.totalMs > w.m.totalMs ? r : w))
  const worstReady = worst.m.totalMs / base.totalMs
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED')
  const targets = table(
    ['target', 'measured', 'goal', 'verdict'],
    [
      ['operator work session, cold (sign-in page + screen): JS on the wire', `${kb(ws?.jsBytes ?? Number.NaN)} KB`, '<= 250 KB', verdict((ws?.jsBytes ?? Infinity) <= 250 * KB)],
      ['operator work session, cold (sign-in page + screen): requests', String(ws?.requests), '<= 20', verdict((ws?.requests ?? Infinity) <= 20)],
      ['operator work session, from the sign-in click: requests', String(ws?.afterRequests), '<= 20', verdict((ws?.afterRequests ?? Infinity) <= 20)],
      [`slowest area (${worst.screen.label}): ready / baseline`, worstReady.toFixed(2), '<= 1.5', verdict(worstReady <= 1.5)],
      [
        `operator work session, repeat visit: JS over the network (${repeat.scriptsFromServiceWorker} of ${repeat.scripts} scripts from the service worker)`,
        `${repeat.scriptBytesOverNetwork} bytes`,
        '0 bytes',
        verdict(repeat.scripts > 0 && repeat.scriptBytesOverNetwork === 0),
      ],
    ],
    [false, true, false, false],
  )
  console.log(`\n${results.text}\n\n${targets.text}`)

  appendResults(
    'client: bytes, requests and time to the main screen of each area',
    [
      `Command: \`${ctx.command}\``,
      '',
      'Chromium (Debian, headless, the flags of playwright.config.ts), 1280x800, a new browser context per load (cold cache),',
      'as a person arrives: `/login?redirect_to=<screen>`, the form typed in and sent, the screen shown. Bytes on the wire:',
      'CDP `Network.loadingFinished.encodedDataLength` (compressed body plus headers). Requests: all of them (document,',
      'scripts, styles, sign-in and API calls, icons) until the screen shows its content and the network has been quiet',
      'for 500 ms. Ready = navigation to the sign-in form showing + the sign-in click to the screen showing its content',
      '(the typing between is the person\'s time, left out); the baseline: navigation to its button showing. Median of',
      `${runs} cold loads after one warm-up. Bytes and requests are deterministic; times are not.`,
      'Service workers are blocked in the cold loads (one that took the page over while the form was typed served the',
      'screen\'s chunks from its cache: 0 bytes counted). Repeat visit: bench/client-repeat.ts (its own context, once the',
      `service worker controls the page, ${(repeat.controlledAfterMs / 1000).toFixed(1)} s after the first load here; then the work session again).`,
      '',
      `Machine: ${machineLine()}; shared with other work (busy before the run: ${busyBefore === null ? 'unknown' : `${(busyBefore * 100).toFixed(0)}% of all cores`}).`,
      '',
      results.markdown,
      '',
      targets.markdown,
    ].join('\n'),
  )
  console.log('[bench] appended to bench/RESULTS.md')
}

export const clientLoad: BenchModule = {
  name: 'client',
  title: "JS/CSS bytes, requests and time to each area's main screen in Chromium, against a blank Vite React + Mantine page",
  run,
}
