import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type APIRequestContext, type BrowserContext, chromium, expect, type Page, test } from '@playwright/test'
import config from '../playwright.config'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { adminApi, createReadyUser, fillLogin, type NewUser, releaseProduct, SHOTS_DIR, uniqueName } from './helpers'

/**
 * Work kept on the tablet while offline (issue 24): the operator confirms two form steps (the
 * second completes the batch) without network, reloads (the service worker opens the app: the
 * lock screen, with the writes kept), restarts the browser on the same profile, comes back
 * online and unlocks: the server holds every write once, in order, with its client time. And a
 * conflict: production pauses the job meanwhile; the operator reads which kept writes were
 * refused and why, and acknowledges them. A tablet offline longer than max_offline: the server
 * force-pauses the job, and the writes made before that point are still accepted into it. A value
 * typed and not saved survives a reload.
 */

const MAX_OFFLINE_S = 600

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.status(), await res.text()).toBeLessThan(300)
  return ((await res.json()) as { detail: T }).detail
}

type Setup = { operator: NewUser; wo: string; job: string; steps: string[]; fields: [string, string]; product: string; phases: PhaseBody[]; tag: string }
type PhaseBody = { steps: ({ title: string } & Record<string, unknown>)[] } & Record<string, unknown>

/**
 * A job of two form steps (one mandatory number each), step by step, batches of one piece.
 * `traced`: level complete, a counter numbers the pieces and each takes a motor's serial, declared on the last step.
 */
async function setup(baseURL: string, opts: { traced?: boolean; maxOffline?: number } = {}): Promise<Setup> {
  const api = await adminApi(baseURL)
  const operator = await createReadyUser(baseURL, 'operator', { name: 'Op', surname: uniqueName('Coda') })
  const field = async (name: string) =>
    (await ok<{ _key: string }>(await api.post('/api/field', { data: { name: `${name} ${uniqueName('')}`, type: 'number', mandatory: true } })))._key
  const fields: [string, string] = [await field('Diametro (mm)'), await field('Coppia (Nm)')]
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName('Tornitura') } }))
  const product = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: uniqueName('OFQ').toUpperCase(), description: 'Albero tornito' } }))
  const tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const traced = opts.traced
    ? { traceability_level: 'complete', counter_key: (await ok<{ _key: string }>(await api.post('/api/counter', { data: { name: uniqueName('Alberi'), template: `ALB${tag}-{###}` } })))._key }
    : {}
  const phases: PhaseBody[] = [
          {
            operation_key: operation._key,
            name: 'Tornitura',
            parameters: { ...DEFAULT_PHASE_PARAMETERS, max_offline: opts.maxOffline ?? MAX_OFFLINE_S, step_check: true, production_batch_qt: 1, auto_new_batch: false },
            steps: [
              { type: 'form', title: 'Misura il diametro', text: '', fields: [fields[0]] },
              { type: 'form', title: 'Serra il mandrino', text: '', fields: [fields[1]] },
            ],
            production_notes: '',
            ...traced,
          },
        ]
  const process = await ok<{ phases: { _key: string; steps: { _key: string }[] }[] }>(await api.put(`/api/product/${product._key}/process`, { data: { phases } }))
  if (opts.traced) {
    const motor = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: `MOT${tag}`, description: 'Motore 0,75 kW' } }))
    const line = { phase_key: process.phases[0]!._key, item_key: motor._key, quantity: 1, quantity_per: 'item', traceability: 'complete', declared_serials: true }
    await ok(await api.put(`/api/product/${product._key}/bom`, { data: { lines: [line] } }))
  }
  await releaseProduct(api, product._key)
  const wo = await ok<{ _key: string; phases: { jobs: { _key: string }[] }[] }>(
    await api.post('/api/work-order', { data: { product_key: product._key, quantity: 2, operator_key: operator.key } }),
  )
  return { operator, wo: wo._key, job: wo.phases[0]!.jobs[0]!._key, steps: process.phases[0]!.steps.map((s) => s._key), fields, product: product._key, phases, tag }
}

const state = (page: Page) => page.getByTestId('job-state').first()

async function startJob(page: Page, s: Setup) {
  await page.getByTestId('to-confirm').click()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${s.job}/steps`))
  await expect(state(page)).toHaveAttribute('data-state', 'running')
  // One answered heartbeat: the device knows the server's clock for the times it stamps.
  await page.waitForResponse((r) => r.url().endsWith(`/api/job/${s.job}/heartbeat`) && r.ok(), { timeout: 20_000 })
}

/** Types the value like a person (Italian decimal comma) and confirms the step. */
async function confirmWithValue(page: Page, field: string, value: string) {
  const input = page.getByTestId(`field-${field}`)
  await input.click()
  await input.pressSequentially(value, { delay: 30 })
  await page.getByTestId('confirm-step').click()
}

type Event = { event_type: string; subject_key: string | null; data: Record<string, unknown> }
/** The job's execution events, oldest first, over REST. */
async function jobEvents(baseURL: string, s: Setup): Promise<Event[]> {
  const api = await adminApi(baseURL)
  const rows = await ok<Event[]>(await api.get(`/api/work-order/${s.wo}/history?limit=500`))
  return rows.filter((e) => e.subject_key === s.job).reverse()
}

async function launch(userDataDir: string, baseURL: string): Promise<BrowserContext> {
  const launchOptions = config.use?.launchOptions ?? {}
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: launchOptions.executablePath,
    args: launchOptions.args,
    baseURL,
    locale: 'it-IT',
    viewport: { width: 1024, height: 768 },
    serviceWorkers: 'allow',
  })
}

test('offline: two steps with values, the serial declaration and the batch are kept through a reload and a browser restart, then sent once, in order (it)', async ({ baseURL }) => {
  test.setTimeout(240_000)
  const s = await setup(baseURL!, { traced: true })
  const profile = mkdtempSync(path.join(os.tmpdir(), 'mes-offline-queue-'))
  let context = await launch(profile, baseURL!)
  try {
    let page = context.pages()[0] ?? (await context.newPage())
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await expect(page).toHaveURL(/\/app\/operator/)
    await startJob(page, s)
    // The service worker registers a few seconds after the load and precaches the app.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true)

    await context.setOffline(true)
    await expect(state(page)).toHaveAttribute('data-state', 'offline')
    await confirmWithValue(page, s.fields[0], '12,5')
    await expect(page.getByTestId('offline-queue')).toContainText('Offline: 1 operazione in attesa')
    await expect(page.getByTestId('step-1')).toHaveAttribute('data-done', 'true')
    // The last step declares the piece's motor, read by the scanner (code + Enter): kept in order with the steps.
    const motor = `MOT-${s.tag}-1`
    const scanField = page.getByTestId('serial-scan-1-1-1')
    await scanField.pressSequentially(motor, { delay: 5 })
    await scanField.press('Enter')
    await expect(page.getByTestId('offline-queue')).toContainText('Offline: 2 operazioni in attesa')
    await expect(page.getByTestId('serial-piece-1')).toHaveAttribute('data-declared', 'true')
    await confirmWithValue(page, s.fields[1], '7,25')
    await expect(page.getByTestId('offline-queue')).toContainText('Offline: 3 operazioni in attesa')
    await expect(page.getByTestId('batch-kept')).toBeVisible()
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-kept-1024.png` })
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-kept-1280.png` })

    // A reload without network: the service worker opens the app, locked, with the work kept.
    await page.reload()
    await expect(page.getByTestId('lock-screen')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('lock-kept-writes')).toContainText('3 operazioni salvate su questo dispositivo')
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-reloaded.png` })

    // The browser closes and starts again on the same profile, still offline.
    await context.close()
    context = await launch(profile, baseURL!)
    await context.setOffline(true)
    page = context.pages()[0] ?? (await context.newPage())
    await page.goto(`/app/operator/job/${s.job}/steps`)
    await expect(page.getByTestId('lock-screen')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('lock-kept-writes')).toContainText('3 operazioni salvate su questo dispositivo')

    // Online again: the operator unlocks, the kept writes go out in order, once.
    await context.setOffline(false)
    await page.getByRole('textbox', { name: 'Password' }).pressSequentially(s.operator.password)
    await page.getByRole('button', { name: 'Sblocca' }).click()
    await expect(page.getByTestId('lock-screen')).toHaveCount(0, { timeout: 15_000 })
    await expect(page.getByTestId('offline-queue')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('refused-writes')).toHaveCount(0)
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-sent.png` })

    const events = await jobEvents(baseURL!, s)
    const execution = events.filter((e) => ['STEP_EDITED', 'STEP_COMPLETED', 'SERIAL_TEMP_LINKS_SAVED', 'BATCH_COMPLETED'].includes(e.event_type))
    expect(execution.map((e) => [e.event_type, e.data.step_key ?? null])).toEqual([
      ['STEP_EDITED', s.steps[0]],
      ['STEP_COMPLETED', s.steps[0]],
      ['SERIAL_TEMP_LINKS_SAVED', null],
      ['STEP_EDITED', s.steps[1]],
      ['STEP_COMPLETED', s.steps[1]],
      ['BATCH_COMPLETED', null],
    ])
    // Each write carries the time it was made on the tablet, in the order it was made.
    const times = execution.map((e) => e.data.client_time as number)
    expect(times.every((t) => typeof t === 'number')).toBe(true)
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    // The values as typed with the Italian comma, read as numbers.
    const batchKey = execution.at(-1)!.data.batch_key as string
    const batch = await ok<{ step_data: { position: number; form_data: { value: unknown }[] }[] }>(await (await adminApi(baseURL!)).get(`/api/batch/${batchKey}`))
    expect([...batch.step_data].sort((a, b) => a.position - b.position).flatMap((d) => d.form_data.map((f) => f.value))).toEqual([12.5, 7.25])
    // The piece numbered by the counter when the declaration arrived, with the motor scanned offline.
    const serials = await ok<{ pieces: { code: string; links: { code: string }[] }[] }>(await (await adminApi(baseURL!)).get(`/api/batch/${batchKey}/serials`))
    expect(serials.pieces.map((p) => [p.code, p.links.map((l) => l.code)])).toEqual([[`ALB${s.tag}-001`, [motor]]])
    // Each kept write accounted for on the screen.
    await expect(page.getByTestId('sent-write')).toHaveCount(3)

    // Leave nothing running for the other specs.
    await page.getByTestId('pause-job').click()
    await expect(state(page)).toHaveAttribute('data-state', 'paused')
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
})

test.describe('conflict', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } })

  test('production pauses the job while the tablet is offline: the kept writes are refused one by one, with the reason (en)', async ({ page, context, baseURL }) => {
    test.setTimeout(120_000)
    const s = await setup(baseURL!)
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await startJob(page, s)

    await context.setOffline(true)
    await expect(state(page)).toHaveAttribute('data-state', 'offline')
    await confirmWithValue(page, s.fields[0], '3,75')
    await expect(page.getByTestId('offline-queue')).toContainText('Offline: 1 operation pending')
    const second = page.getByTestId(`field-${s.fields[1]}`)
    await second.click()
    await second.pressSequentially('40,5')
    await page.getByTestId('save-step').click()
    await expect(page.getByText('Changes saved on this device: they are sent as soon as the server answers')).toBeVisible()
    await expect(page.getByTestId('offline-queue')).toContainText('Offline: 2 operations pending')

    // Meanwhile production pauses the job.
    const api = await adminApi(baseURL!)
    await ok(await api.post('/api/job/update', { data: { job_key: s.job, action: 'pause' } }))

    await context.setOffline(false)
    const refused = page.getByTestId('refused-write')
    await expect(refused).toHaveCount(2, { timeout: 20_000 })
    await expect(page.getByTestId('offline-queue')).toHaveCount(0)
    await expect(refused.nth(0)).toContainText('Step «Misura il diametro» completed (batch 1)')
    await expect(refused.nth(1)).toContainText('Answers of step «Serra il mandrino» saved (batch 1)')
    for (const i of [0, 1]) await expect(refused.nth(i).getByTestId('refused-reason')).toContainText('not running')
    await expect(state(page)).toHaveAttribute('data-state', 'paused')
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-refused-1280.png` })
    // Resuming offline is refused on screen, never kept: the server opens the work session.
    await context.setOffline(true)
    await expect(page.getByTestId('start-offline-reason')).toHaveText('Needs the connection', { timeout: 20_000 })
    await expect(page.getByTestId('start-job')).toBeDisabled()
    await context.setOffline(false)
    await expect(page.getByTestId('start-job')).toBeEnabled({ timeout: 20_000 })
    await expect(page.getByTestId('start-offline-reason')).toHaveCount(0)
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-refused-1024.png` })

    // Nothing of them reached the server; the operator acknowledges each.
    const events = await jobEvents(baseURL!, s)
    expect(events.filter((e) => ['STEP_EDITED', 'STEP_COMPLETED'].includes(e.event_type))).toEqual([])
    await refused.nth(0).getByTestId('refused-ack').click()
    await expect(refused).toHaveCount(1)
    await refused.nth(0).getByTestId('refused-ack').click()
    await expect(page.getByTestId('refused-writes')).toHaveCount(0)
    // Read, it stays read after a reload.
    await page.reload()
    await expect(page.getByTestId('lock-screen')).toBeVisible()
    await expect(page.getByTestId('refused-writes')).toHaveCount(0)
  })
})

/** Offline, the operator confirms the first step with a value and saves the second's answer: two kept writes. */
async function keepTwoWrites(page: Page, s: Setup, pending: [string, string]) {
  await context(page).setOffline(true)
  await expect(state(page)).toHaveAttribute('data-state', 'offline')
  await confirmWithValue(page, s.fields[0], '3,75')
  await expect(page.getByTestId('offline-queue')).toContainText(pending[0])
  const second = page.getByTestId(`field-${s.fields[1]}`)
  await second.click()
  await second.pressSequentially('40,5')
  await page.getByTestId('save-step').click()
  await expect(page.getByTestId('offline-queue')).toContainText(pending[1])
}
const context = (page: Page) => page.context()

test.describe('reassigned', () => {
  test.use({ locale: 'it-IT', viewport: { width: 1280, height: 800 } })

  test('production reassigns the job to another operator while the tablet is offline: each kept write refused with the reason (it)', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const s = await setup(baseURL!)
    const other = await createReadyUser(baseURL!, 'operator', { name: 'Altro', surname: uniqueName('Turno') })
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await startJob(page, s)
    await keepTwoWrites(page, s, ['Offline: 1 operazione in attesa', 'Offline: 2 operazioni in attesa'])

    // Meanwhile production pauses the job and gives it to another operator.
    const api = await adminApi(baseURL!)
    await ok(await api.post('/api/job/update', { data: { job_key: s.job, action: 'pause' } }))
    await ok(await api.post('/api/job/assign', { data: { job_keys: [s.job], operator_key: other.key } }))

    await context(page).setOffline(false)
    const refused = page.getByTestId('refused-write')
    await expect(refused).toHaveCount(2, { timeout: 20_000 })
    await expect(page.getByTestId('offline-queue')).toHaveCount(0)
    await expect(page.getByTestId('sent-writes')).toHaveCount(0)
    await expect(refused.nth(0)).toContainText('Passo «Misura il diametro» completato (lotto 1)')
    await expect(refused.nth(1)).toContainText('Risposte del passo «Serra il mandrino» salvate (lotto 1)')
    for (const i of [0, 1]) {
      await expect(refused.nth(i)).toHaveAttribute('data-code', 'JOB_NOT_YOURS')
      await expect(refused.nth(i).getByTestId('refused-reason')).toHaveText('Questo job è assegnato a un altro operatore')
    }
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-reassigned-1280.png` })
    const events = await jobEvents(baseURL!, s)
    expect(events.filter((e) => ['STEP_EDITED', 'STEP_COMPLETED'].includes(e.event_type))).toEqual([])
  })
})

test.describe('new revision', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } })

  test('the library releases a new revision while the tablet is offline: the work order keeps its own, every kept write is accepted and listed (en)', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const s = await setup(baseURL!)
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await startJob(page, s)
    await keepTwoWrites(page, s, ['Offline: 1 operation pending', 'Offline: 2 operations pending'])

    // Meanwhile the library changes the process and releases revision 2; the started work order cannot move to it.
    const api = await adminApi(baseURL!)
    const phases = s.phases.map((ph) => ({ ...ph, steps: ph.steps.map((st, i) => (i === 0 ? { ...st, title: 'Misura il diametro esterno' } : st)) }))
    await ok(await api.put(`/api/product/${s.product}/process`, { data: { phases } }))
    await releaseProduct(api, s.product, 'Nuovo passo di misura')
    const moved = await api.post(`/api/work-order/${s.wo}/revision`, { data: {} })
    expect(moved.status()).toBe(409)
    expect(((await moved.json()) as { detail: { code: string } }).detail.code).toBe('WORK_ORDER_STARTED')

    await context(page).setOffline(false)
    const sent = page.getByTestId('sent-write')
    await expect(sent).toHaveCount(2, { timeout: 20_000 })
    await expect(page.getByTestId('offline-queue')).toHaveCount(0)
    await expect(page.getByTestId('refused-writes')).toHaveCount(0)
    await expect(sent.nth(0)).toContainText('Step «Misura il diametro» completed (batch 1)')
    await expect(sent.nth(1)).toContainText('Answers of step «Serra il mandrino» saved (batch 1)')
    await expect(page.getByTestId('sent-writes')).toContainText('Operations saved on this device and accepted by the server')
    // The screen still reads the work order's own revision.
    await expect(page.getByTestId('step-1')).toContainText('Misura il diametro')
    await expect(page.getByTestId('step-1')).not.toContainText('esterno')
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-sent-revision-1280.png` })
    await page.getByTestId('sent-ack').click()
    await expect(page.getByTestId('sent-writes')).toHaveCount(0)

    const events = await jobEvents(baseURL!, s)
    const steps = events.filter((e) => ['STEP_EDITED', 'STEP_COMPLETED'].includes(e.event_type))
    expect(steps.map((e) => [e.event_type, e.data.step_key])).toEqual([
      ['STEP_EDITED', s.steps[0]],
      ['STEP_COMPLETED', s.steps[0]],
      ['STEP_EDITED', s.steps[1]],
    ])
    expect(steps.every((e) => typeof e.data.client_time === 'number')).toBe(true)
    await page.getByTestId('pause-job').click()
    await expect(state(page)).toHaveAttribute('data-state', 'paused')
  })
})

test.describe('pause', () => {
  test.use({ locale: 'en-US', viewport: { width: 1024, height: 768 } })

  test('the header’s Pause pressed offline stops the job on the tablet, is kept, and pauses it on the server once back (en)', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const s = await setup(baseURL!)
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await startJob(page, s)
    await context(page).setOffline(true)
    await expect(state(page)).toHaveAttribute('data-state', 'offline')
    await page.getByTestId('pause-job').click()
    await expect(page.getByTestId('offline-queue')).toContainText('Offline: 1 operation pending')
    await expect(page.getByTestId('pause-job')).toHaveCount(0)
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-paused-1024.png` })

    await context(page).setOffline(false)
    await expect(page.getByTestId('offline-queue')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('refused-writes')).toHaveCount(0)
    await expect(state(page)).toHaveAttribute('data-state', 'paused')
    const paused = (await jobEvents(baseURL!, s)).filter((e) => e.event_type === 'JOB_PAUSED')
    expect(paused).toHaveLength(1)
    expect(typeof paused[0]!.data.client_time).toBe('number')
  })
})

test.describe('past max_offline', () => {
  test.use({ locale: 'it-IT', viewport: { width: 1280, height: 800 } })

  test('the server force-pauses the job while the tablet stays offline past max_offline: the writes made before that point are accepted into the paused job, which stays paused until resumed (it)', async ({ page, baseURL }) => {
    test.setTimeout(150_000)
    const maxOffline = 20
    const s = await setup(baseURL!, { maxOffline })
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await startJob(page, s)
    await keepTwoWrites(page, s, ['Offline: 1 operazione in attesa', 'Offline: 2 operazioni in attesa'])

    // The tablet stays offline: past max_offline the server's sweep force-pauses the job.
    const forcedPause = async () => (await jobEvents(baseURL!, s)).find((e) => e.event_type === 'JOB_PAUSE_FORCED')
    await expect.poll(async () => (await forcedPause()) !== undefined, { timeout: 60_000 }).toBe(true)
    await expect(state(page)).toHaveAttribute('data-state', 'paused_offline', { timeout: 20_000 })

    await context(page).setOffline(false)
    const sent = page.getByTestId('sent-write')
    await expect(sent).toHaveCount(2, { timeout: 20_000 })
    await expect(page.getByTestId('offline-queue')).toHaveCount(0)
    await expect(page.getByTestId('refused-writes')).toHaveCount(0)
    await expect(sent.nth(0)).toContainText('Passo «Misura il diametro» completato (lotto 1)')
    await expect(sent.nth(1)).toContainText('Risposte del passo «Serra il mandrino» salvate (lotto 1)')
    await expect(state(page)).toHaveAttribute('data-state', 'paused_offline')
    await page.screenshot({ path: `${SHOTS_DIR}/offline-queue-after-forced-pause-1280.png` })

    // On the server: the forced pause, then the writes, each once, made before the pause point.
    const events = (await jobEvents(baseURL!, s)).filter((e) => ['JOB_PAUSE_FORCED', 'STEP_EDITED', 'STEP_COMPLETED', 'JOB_RESUMED'].includes(e.event_type))
    expect(events.map((e) => [e.event_type, e.data.step_key ?? null])).toEqual([
      ['JOB_PAUSE_FORCED', null],
      ['STEP_EDITED', s.steps[0]],
      ['STEP_COMPLETED', s.steps[0]],
      ['STEP_EDITED', s.steps[1]],
    ])
    const pausePoint = (events[0]!.data.last_heartbeat_at as number) + maxOffline * 1000
    const times = events.slice(1).map((e) => e.data.client_time as number)
    expect(times.every((t) => t <= pausePoint)).toBe(true)
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    const batchKey = events[1]!.data.batch_key as string
    const batch = await ok<{ step_data: { position: number; done: boolean; form_data: { value: unknown }[] }[] }>(await (await adminApi(baseURL!)).get(`/api/batch/${batchKey}`))
    expect([...batch.step_data].sort((a, b) => a.position - b.position).map((d) => [d.done, d.form_data.map((f) => f.value)])).toEqual([
      [true, [3.75]],
      [false, [40.5]],
    ])

    // The operator resumes as today and goes on from there.
    await page.getByTestId('start-job').click()
    await expect(state(page)).toHaveAttribute('data-state', 'running', { timeout: 20_000 })
    await expect(page.getByTestId(`field-${s.fields[1]}`)).toHaveValue('40,5')
    await page.getByTestId('pause-job').click()
    await expect(state(page)).toHaveAttribute('data-state', 'paused')
  })
})

test.describe('draft', () => {
  test.use({ locale: 'it-IT', viewport: { width: 1024, height: 768 } })

  test('a value typed and not saved is kept on the device: after a reload the step shows it unchanged (it)', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const s = await setup(baseURL!)
    await page.goto('/login')
    await fillLogin(page, s.operator.username, s.operator.password)
    await startJob(page, s)
    const input = page.getByTestId(`field-${s.fields[0]}`)
    await input.click()
    await input.pressSequentially('12,75', { delay: 60 })
    await expect(page.getByTestId('step-panel')).toHaveAttribute('data-draft-kept', 'true')

    await page.reload()
    await expect(page.getByTestId('lock-screen')).toBeVisible({ timeout: 20_000 })
    await page.getByRole('textbox', { name: 'Password' }).pressSequentially(s.operator.password)
    await page.getByRole('button', { name: 'Sblocca' }).click()
    await expect(page.getByTestId('lock-screen')).toHaveCount(0, { timeout: 15_000 })
    await expect(input).toHaveValue('12,75', { timeout: 20_000 })
    await expect(page.getByTestId('step-panel')).toHaveAttribute('data-draft-kept', 'true')
    await expect(page.getByTestId('cancel-edit')).toBeVisible()
    await page.screenshot({ path: `${SHOTS_DIR}/offline-draft-restored-1024.png` })

    // Leaving the page pauses the job when its pause (a keepalive request at pagehide, best effort)
    // gets out before the reload's session lock; resumed if so, the operator confirms the step
    // with the value kept.
    const running = state(page).and(page.locator('[data-state="running"]'))
    await expect(page.getByTestId('start-job').or(running)).toBeVisible()
    if (await page.getByTestId('start-job').isVisible()) await page.getByTestId('start-job').click()
    await expect(state(page)).toHaveAttribute('data-state', 'running', { timeout: 20_000 })
    await expect(input).toHaveValue('12,75')
    await page.getByTestId('confirm-step').click()
    await expect(page.getByTestId('step-1')).toHaveAttribute('data-done', 'true')
    const completed = (await jobEvents(baseURL!, s)).find((e) => e.event_type === 'STEP_EDITED')
    expect(completed?.data).toMatchObject({ step_key: s.steps[0], changes: { [s.fields[0]]: { from: null, to: 12.75 } } })
    await page.getByTestId('pause-job').click()
    await expect(state(page)).toHaveAttribute('data-state', 'paused')
  })
})
