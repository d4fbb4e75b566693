import { type APIRequestContext, expect, type Locator, type Page, request, test } from '@playwright/test'
import type { PhaseParameters } from '../src/domains/process/phase-parameters'
import { adminApi, chooseInUserMenu, createReadyUser, type NewUser, ok, operatorWithWorkOrder, signIn, signOut, uniqueName } from './helpers'

/**
 * Floor-ready operator screens (issue 11): a job that cannot start opens read-only (why, and no
 * start, timer, heartbeat or pause); job=first skips jobs that cannot start beside a running one
 * and says why none can; the step action bar never covers the last field and the error toast's
 * CLOSE stays inside the toast (element boxes, at 1280x800 and 1024x768, Italian and English);
 * the time correction says why minutes over 59 are refused.
 */

const SHOTS = '/tmp/shots-operator'
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
] as const

type StepSpec = { type: 'instruction' | 'form'; title: string; text?: string; fields?: string[] }

/** A product with one phase, a work order for the operator; returns its job keys by phase. */
async function workOrder(
  baseURL: string,
  operator: NewUser,
  phases: { name: string; params?: Partial<PhaseParameters>; steps: StepSpec[] }[],
  quantity: number,
) {
  const { woCode, jobs } = await operatorWithWorkOrder(baseURL, {
    prefix: 'P',
    description: 'Valvola a sfera DN25',
    operation: 'Montaggio',
    assignee: operator,
    quantity,
    workOrder: { notes: 'Cliente Rossi: imballo rinforzato' },
    phases: phases.map((p) => ({
      name: p.name,
      parameters: p.params,
      steps: p.steps.map((s) => ({ ...s, text: s.text ?? '', fields: s.fields ?? [] })),
      production_notes: `Note di produzione di ${p.name}`,
    })),
  })
  return { code: woCode, jobs }
}

/** The operator on another device: an API client signed in with their own token. */
async function operatorApi(baseURL: string, operator: NewUser): Promise<APIRequestContext> {
  const anon = await request.newContext({ baseURL })
  const { token } = await ok<{ token: string }>(await anon.post('/api/login', { data: { username: operator.username, password: operator.password } }))
  await anon.dispose()
  return request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } })
}

const jobOf = async (baseURL: string, key: string) => ok<{ status: string; active: boolean }>(await (await adminApi(baseURL)).get(`/api/job/${key}`))
const card = (page: Page, jobKey: string) => page.locator(`[data-testid="job-card"][data-job-key="${jobKey}"]`)

type Box = { x: number; y: number; width: number; height: number }
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height
const box = async (l: Locator): Promise<Box> => {
  const b = await l.boundingBox()
  expect(b, 'element has a box').not.toBeNull()
  return b!
}

/** Requests that would mean the read-only view started, kept alive or paused something. */
function watchRuntimeCalls(page: Page) {
  const calls: string[] = []
  page.on('request', (r) => {
    const url = r.url()
    if (/\/heartbeat$|execution\.(pause|start|resume)|\/(pause|start|resume)$/.test(url)) calls.push(url)
  })
  return calls
}

test('a job that cannot start opens read-only; job=first skips a job blocked by a running one and says why; the refusal toast keeps CLOSE inside; a running job opens on a tap of its card', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const operator = await createReadyUser(baseURL!, 'operator', { name: 'Op', surname: uniqueName('Floor') })
  // Two phases (phase 2 not ready), and a second work order whose job will run "on another device".
  const steps: StepSpec[] = [{ type: 'instruction', title: 'Prepara il banco', text: 'Viti M6.' }]
  const first = await workOrder(baseURL!, operator, [{ name: 'Montaggio', steps }, { name: 'Collaudo', steps }], 2)
  const other = await workOrder(baseURL!, operator, [{ name: 'Etichettatura', steps }], 1)
  const [ready, notReady] = first.jobs as [string, string]
  const running = other.jobs[0]!
  const calls = watchRuntimeCalls(page)

  await signIn(page, operator.username, operator.password)
  await expect(page).toHaveURL(/select-job\?job=first/)
  await expect(card(page, ready)).toHaveAttribute('data-selected', 'true')
  await expect(page.getByTestId('none-can-start')).toHaveCount(0)

  // The not-ready job opens read-only: why it cannot start, no Start, no timer; its pages read.
  await expect(card(page, notReady)).toHaveAttribute('data-mode', 'unavailable')
  await card(page, notReady).click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${notReady}/steps`))
  const banner = page.getByTestId('read-only-banner')
  await expect(banner).toHaveAttribute('data-reason', 'no_material')
  await expect(banner).toContainText('Read only')
  await expect(banner).toContainText('the previous phase has not released material yet')
  await expect(page.getByTestId('start-job')).toHaveCount(0)
  await expect(page.getByTestId('job-timer')).toHaveCount(0)
  await expect(page.getByTestId('steps-preview')).toContainText('Prepara il banco')
  await page.getByTestId('tab-notes').click()
  await expect(page.getByTestId('notes-tab')).toContainText('Cliente Rossi: imballo rinforzato')
  await page.getByTestId('tab-messages').click()
  await expect(page.getByTestId('messages-tab').getByTestId('message-thread')).toBeVisible()
  await page.getByTestId('tab-issues').click()
  await expect(page.getByTestId('issues-tab')).toBeVisible()
  await page.getByTestId('tab-docs').click()
  await expect(page.getByText('No documents for this product')).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/read-only-not-ready-en.png` })
  // Leaving pauses nothing; nothing was started or kept alive.
  await page.getByRole('banner').getByRole('link', { name: 'Operator' }).click()
  await expect(page).toHaveURL(/select-job/)
  expect(calls).toEqual([])
  expect(await jobOf(baseURL!, notReady)).toMatchObject({ status: 'queued', active: false })

  // "View" opens a job that can start without starting it: Start is there, nothing else runs.
  await page.locator(`[data-testid="view-job"][data-job-key="${ready}"]`).click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${ready}/steps`))
  await expect(banner).toHaveAttribute('data-reason', 'can_start')
  await expect(banner).toContainText('Press Start')
  await expect(page.getByTestId('start-job')).toHaveText('Start')
  await page.getByRole('banner').getByRole('link', { name: 'Operator' }).click()
  expect(calls).toEqual([])

  // Selected and confirmed; meanwhile another job of the operator starts on another device, in a
  // phase without parallel work: the server refuses (409) in the red toast, whose CLOSE stays inside it.
  await expect(card(page, ready)).toHaveAttribute('data-mode', /selectable|selected/)
  if ((await card(page, ready).getAttribute('data-selected')) === null) await card(page, ready).click()
  await expect(card(page, ready)).toHaveAttribute('data-selected', 'true')
  await page.getByTestId('to-confirm').click()
  await expect(page.getByTestId('confirm-jobs')).toBeVisible()
  const device = await operatorApi(baseURL!, operator)
  await ok(await device.post(`/api/job/${running}/start`, { data: { idempotency_key: crypto.randomUUID() } }))
  for (const locale of ['en', 'it'] as const) {
    if (locale === 'it') {
      await chooseInUserMenu(page, 'Italiano')
      await expect(page.getByRole('heading', { name: 'Conferma il job' })).toBeVisible()
    }
    await page.getByTestId('start-jobs').click()
    const toast = page.locator('.mantine-Notification-root').filter({ has: page.getByTestId('error-toast') })
    await expect(toast).toContainText(locale === 'en' ? 'These phases do not allow working several jobs at once' : 'Non si possono lavorare più job contemporaneamente')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      const close = toast.getByTestId('error-toast-close')
      await expect(close).toBeVisible()
      await expect(close).toHaveText(locale === 'en' ? 'CLOSE' : 'CHIUDI')
      // The text wraps (two lines or more) and CLOSE is still inside the toast.
      // Polled: after a viewport change the toast reflows (and may still be sliding in).
      await expect.poll(async () => (await box(toast.locator('.mantine-Text-root').first())).height).toBeGreaterThan(25)
      await expect.poll(async () => inside(await box(close), await box(toast))).toBe(true)
      await page.screenshot({ path: `${SHOTS}/toast-${size.width}x${size.height}-${locale}.png` })
    }
    await toast.getByTestId('error-toast-close').click()
    await expect(toast).toHaveCount(0)
  }
  expect(await jobOf(baseURL!, ready)).toMatchObject({ status: 'queued', active: false })

  // Signed in again here (the app opens on job=first): no job is preselected, a notice says why,
  // and the blocked job opens read-only with the server's reason (in Italian, the user's language).
  await signOut(page)
  await signIn(page, operator.username, operator.password)
  await expect(page).toHaveURL(/select-job\?job=first/)
  const none = page.getByTestId('none-can-start')
  await expect(none).toHaveAttribute('data-reason', 'parallel_not_allowed')
  await expect(none).toContainText(`È in corso il job ${other.code} · Etichettatura e le fasi non consentono il lavoro in parallelo`)
  await expect(card(page, ready)).not.toHaveAttribute('data-selected', 'true')
  await expect(card(page, ready)).toHaveAttribute('data-mode', 'unavailable')
  await expect(page.getByTestId('to-confirm')).toBeDisabled()
  await page.screenshot({ path: `${SHOTS}/first-none-it.png` })
  await card(page, ready).click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${ready}/steps`))
  await expect(banner).toHaveAttribute('data-reason', 'parallel_not_allowed')
  await expect(banner).toContainText('Sola lettura')
  await expect(banner).toContainText('un altro tuo job è in corso')
  await expect(page.getByTestId('start-job')).toHaveCount(0)
  await page.screenshot({ path: `${SHOTS}/read-only-parallel-it.png` })
  // The running job's card opens on a tap of its body (the right half of the card), not only of the small ▶.
  await page.getByRole('banner').getByRole('link', { name: 'Operatore' }).click()
  await expect(page).toHaveURL(/select-job/)
  await expect(card(page, running)).toHaveAttribute('data-mode', 'open')
  const runningBox = await box(card(page, running))
  await card(page, running).click({ position: { x: runningBox.width * 0.75, y: runningBox.height / 2 } })
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${running}/steps`))
  await ok(await device.post(`/api/job/${running}/pause`, { data: { idempotency_key: crypto.randomUUID() } }))
  await device.dispose()
})

test('a long form step: the sticky Cancel/Save bar never covers the last field (1280x800, 1024x768, it and en)', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  const api = await adminApi(baseURL!)
  const operator = await createReadyUser(baseURL!, 'operator', { name: 'Op', surname: uniqueName('Form') })
  const specs = [
    { name: 'Lotto viti', type: 'text' },
    { name: 'Operatore di controllo', type: 'text' },
    { name: 'Colore', type: 'choice', options: ['Rosso', 'Verde', 'Blu'] },
    { name: 'Guarnizione montata', type: 'boolean' },
    { name: 'Note di montaggio', type: 'text', help_text: 'Eventuali difetti visti durante il montaggio' },
    { name: 'Seconda verifica', type: 'boolean' },
    { name: 'Controllo visivo finale', type: 'ternary' },
  ]
  const fields: string[] = []
  for (const f of specs) fields.push((await ok<{ _key: string }>(await api.post('/api/field', { data: { ...f, name: `${f.name} ${uniqueName('')}` } })))._key)
  const last = fields.at(-1)!
  const wo = await workOrder(baseURL!, operator, [{ name: 'Montaggio', steps: [{ type: 'form', title: 'Registra i dati', fields }] }], 1)

  await signIn(page, operator.username, operator.password)
  await expect(card(page, wo.jobs[0]!)).toHaveAttribute('data-selected', 'true')
  await page.getByTestId('to-confirm').click()
  await page.getByTestId('start-jobs').click()
  await expect(page.getByTestId('step-panel')).toContainText('Registra i dati')
  // A change puts the form in edit mode: Cancel and Save join Confirm step in the sticky bar.
  await page.getByTestId(`field-${fields[0]}`).pressSequentially('LV-2231')
  const bar = page.getByTestId('step-actions')
  await expect(page.getByTestId('save-step')).toBeVisible()

  for (const locale of ['en', 'it'] as const) {
    if (locale === 'it') {
      await chooseInUserMenu(page, 'Italiano')
      await expect(page.getByTestId('save-step')).toHaveText('Salva')
    }
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await page.evaluate(() => window.scrollTo(0, 0))
      const field = page.getByTestId(`field-${last}`)
      // Scrolled into view the way the browser does it for a tap or a focus (nearest edge).
      await field.evaluate((el) => el.scrollIntoView({ block: 'nearest' }))
      const fieldBox = await box(field)
      const barBox = await box(bar)
      expect(intersects(fieldBox, barBox), `last field ${JSON.stringify(fieldBox)} under the bar ${JSON.stringify(barBox)}`).toBe(false)
      expect(barBox.y + barBox.height).toBeLessThanOrEqual(size.height + 1)
      await page.screenshot({ path: `${SHOTS}/form-end-${size.width}x${size.height}-${locale}.png` })
      // ... and Playwright's own scrolling: the answer is reachable and takes the tap.
      await page.evaluate(() => window.scrollTo(0, 0))
      await field.scrollIntoViewIfNeeded()
      expect(intersects(await box(field), await box(bar))).toBe(false)
      await field.getByText('No', { exact: true }).click()
    }
  }
  await page.getByTestId('save-step').click()
  await expect(page.getByText('Modifiche salvate')).toBeVisible()
})

test('"Update times": minutes over 59 say why Confirm is off and stay as typed; hours and minutes then save (it and en)', async ({ page, baseURL }) => {
  test.setTimeout(150_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  const api = await adminApi(baseURL!)
  const operator = await createReadyUser(baseURL!, 'operator', { name: 'Op', surname: uniqueName('Time') })
  const wo = await workOrder(baseURL!, operator, [{ name: 'Montaggio', steps: [{ type: 'instruction', title: 'Monta' }] }], 2)
  const job = wo.jobs[0]!
  // Started and paused by the operator: its times can be corrected.
  const device = await operatorApi(baseURL!, operator)
  await ok(await device.post(`/api/job/${job}/start`, { data: { idempotency_key: crypto.randomUUID() } }))
  await ok(await device.post(`/api/job/${job}/pause`, { data: { idempotency_key: crypto.randomUUID() } }))
  await device.dispose()
  const manager = await createReadyUser(baseURL!, 'production')

  await signIn(page, manager.username, manager.password)
  await page.getByRole('tab', { name: /^Jobs?$/ }).click()
  await page.getByRole('textbox', { name: 'Search' }).pressSequentially(wo.code)
  const row = page.getByRole('row').filter({ hasText: wo.code })
  await expect(row).toHaveCount(1)

  for (const locale of ['en', 'it'] as const) {
    const en = locale === 'en'
    if (!en) await chooseInUserMenu(page, 'Italiano')
    await row.getByRole('button', { name: en ? `Actions for ${wo.code} phase 1` : `Azioni per ${wo.code} fase 1` }).click()
    await page.getByRole('menuitem', { name: en ? /Update times/ : /Correggi tempi/ }).click()
    const dialog = page.getByRole('dialog')
    const hours = dialog.getByRole('textbox', { name: en ? 'Hours' : 'Ore' })
    const minutes = dialog.getByRole('textbox', { name: en ? 'Minutes' : 'Minuti' })
    const confirm = dialog.getByRole('button', { name: en ? 'Confirm' : 'Conferma' })
    await minutes.selectText()
    await minutes.pressSequentially('90')
    await hours.click() // leaving the field does not clamp what was typed
    await expect(minutes).toHaveValue('90')
    await expect(confirm).toBeDisabled()
    await expect(dialog).toContainText(
      en ? 'At most 59 minutes: 90 min is 1 h 30 min, put the hours in the Hours field' : 'Al massimo 59 minuti: 90 min sono 1 h 30 min, scrivi le ore nel campo Ore',
    )
    await page.screenshot({ path: `${SHOTS}/update-times-90-${locale}.png` })
    // An empty field says so too (it is not read as 0).
    await hours.selectText()
    await page.keyboard.press('Backspace')
    await expect(dialog).toContainText(en ? 'Enter the hours (0 if none)' : 'Scrivi le ore (0 se nessuna)')
    await expect(hours).toHaveValue('')
    await hours.pressSequentially(en ? '1' : '2')
    await minutes.selectText()
    await minutes.pressSequentially('30')
    await expect(confirm).toBeEnabled()
    await confirm.click()
    await expect(dialog).toBeHidden()
    const saved = await ok<{ time_spent_ms: number }>(await api.get(`/api/job/${job}`))
    expect(saved.time_spent_ms).toBe((en ? 90 : 150) * 60_000)
  }
})
