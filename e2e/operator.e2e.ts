import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { DEFAULT_PHASE_PARAMETERS, type PhaseParameters } from '../src/domains/process/phase-parameters'
import { adminApi, chooseInUserMenu, type NewUser, ok, openArea, operatorWithWorkOrder, PHOTO_PNG, releaseProduct, SHOTS_DIR, signIn, signOut, uniqueName, untilOpened } from './helpers'

/**
 * Operator execution at 1024x768 (issue 6): select a job, run it step by step in batches,
 * fill a mandatory form field, pause/resume, no material for the next piece, the job closing
 * ('Redirecting…'), the downstream job becoming ready as material is released, going offline
 * past max_offline (the client closes the work session, the server force-pauses), sign-out
 * with a running job. Data is made through the APIs (admin holds every permission).
 */

test.use({ viewport: { width: 1024, height: 768 } })

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

/** What the tablet shows: the 1024x768 viewport (fixed and sticky parts where they are). */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/${name}.png` })

type Params = PhaseParameters
/** The default phase parameters, with a standard time (for the timer) and the step order forced. */
const PARAMS: Params = { ...DEFAULT_PHASE_PARAMETERS, std_processing_time: 30, step_check: true, step_check_force_order: true }

type StepSpec = { type: 'instruction' | 'form'; title: string; text?: string; fields?: string[] }
type PhaseSpec = { name: string; params: Partial<Params>; steps: StepSpec[] }
type Setup = {
  operator: NewUser
  wo: string
  woCode: string
  productKey: string
  productCode: string
  phaseKeys: string[]
  jobs: string[]
  fields: Record<string, string>
}

/** A form field of every type; `coppia` (number) is mandatory. */
async function makeFields(api: APIRequestContext): Promise<Record<string, string>> {
  const specs = [
    { id: 'coppia', name: 'Coppia di serraggio (Nm)', type: 'number', mandatory: true, help_text: 'Leggi il valore sulla chiave dinamometrica' },
    { id: 'lotto', name: 'Lotto viti', type: 'text' },
    { id: 'ok', name: 'Guarnizione montata', type: 'boolean' },
    { id: 'visivo', name: 'Controllo visivo', type: 'ternary' },
    { id: 'colore', name: 'Colore', type: 'choice', options: ['Rosso', 'Verde', 'Blu'] },
    { id: 'data', name: 'Data di scadenza colla', type: 'date' },
    { id: 'ora', name: 'Ora di fine', type: 'time' },
    { id: 'foto', name: 'Foto del montaggio', type: 'files' },
  ]
  const keys: Record<string, string> = {}
  for (const { id, ...f } of specs) {
    const row = await ok<{ _key: string }>(await api.post('/api/field', { data: { ...f, name: `${f.name} ${uniqueName('')}` } }))
    keys[id] = row._key
  }
  return keys
}

async function setup(baseURL: string, phases: (fields: Record<string, string>) => PhaseSpec[], quantity: number): Promise<Setup> {
  const fields = await makeFields(await adminApi(baseURL))
  const s = await operatorWithWorkOrder(baseURL, {
    prefix: 'P',
    description: 'Valvola a sfera DN25',
    operation: 'Montaggio',
    operator: { surname: uniqueName('E2E') },
    quantity,
    workOrder: { notes: 'Ordine urgente per il cliente Rossi' },
    phases: phases(fields).map((p) => ({
      name: p.name,
      parameters: { ...PARAMS, ...p.params },
      steps: p.steps.map((s) => ({ ...s, text: s.text ?? '', fields: s.fields ?? [] })),
      production_notes: `Note di produzione di ${p.name}`,
    })),
  })
  return { operator: s.operator, wo: s.wo, woCode: s.woCode, productKey: s.productKey, productCode: s.productCode, phaseKeys: s.phaseKeys, jobs: s.jobs, fields }
}

type Job = { status: string; active: boolean; ready: boolean; available_qt: number; completed_qt: number; paused_offline?: boolean }
const jobState = async (baseURL: string, key: string) => ok<Job>(await (await adminApi(baseURL)).get(`/api/job/${key}`))
type View = { job: Job & { paused_offline: boolean; last_heartbeat_at: number | null }; batch: { _key: string } | null; steps: { _key: string }[] }
const workSession = async (baseURL: string, key: string) => ok<View>(await (await adminApi(baseURL)).get(`/api/job/${key}/work-session`))

const state = (page: Page) => page.getByTestId('job-state').first()
const card = (page: Page, jobKey: string) => page.locator(`[data-testid="job-card"][data-job-key="${jobKey}"]`)

/** From the queue: select the job (unless preselected), Next, Start/Resume. */
async function startFromQueue(page: Page, jobKey: string) {
  await expect(card(page, jobKey)).toBeVisible()
  await expect(page.getByTestId('job-list-queue')).toBeVisible()
  if ((await card(page, jobKey).getAttribute('data-selected')) === null) await card(page, jobKey).click()
  await expect(card(page, jobKey)).toHaveAttribute('data-selected', 'true')
  await page.getByTestId('to-confirm').click()
  await expect(page.getByTestId('confirm-jobs')).toBeVisible()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${jobKey}/steps`))
  await expect(state(page)).toHaveAttribute('data-state', 'running')
}

async function confirmStep(page: Page, n: number) {
  await page.getByTestId(`step-${n}`).click()
  await page.getByTestId('confirm-step').click()
  await expect(page.getByTestId(`step-${n}`)).toHaveAttribute('data-done', 'true')
}

/** Phase 1: an instruction, then a form with every field type; step 2 confirms with the mandatory value. */
async function fillFormAndConfirm(page: Page, fields: Record<string, string>, torque: string) {
  await expect(page.getByTestId('step-panel')).toContainText('Registra i dati')
  await page.getByTestId(`field-${fields.coppia}`).fill(torque)
  await page.getByTestId('confirm-step').click()
}

test('an operator runs a two-phase work order end to end: batches, form, pause/resume, no material, job closed', async ({ page, baseURL }) => {
  test.setTimeout(240_000)
  const s = await setup(
    baseURL!,
    (f) => [
      {
        name: 'Montaggio',
        params: { production_batch_qt: 2 },
        steps: [
          { type: 'instruction', title: 'Prepara il banco', text: 'Pulisci il banco e prepara le viti M6.\nControlla la chiave dinamometrica.' },
          { type: 'form', title: 'Registra i dati', fields: [f.coppia!, f.lotto!, f.ok!, f.visivo!, f.colore!, f.data!, f.ora!, f.foto!] },
        ],
      },
      { name: 'Collaudo', params: { production_batch_qt: 0 }, steps: [{ type: 'instruction', title: 'Collaudo a pressione', text: 'Prova a 16 bar per 30 s.' }] },
    ],
    4,
  )
  const [job1, job2] = s.jobs as [string, string]

  // The queue: phase 1 ready and preselected (job=first), phase 2 not ready yet.
  await signIn(page, s.operator.username, s.operator.password)
  await expect(page).toHaveURL(/\/app\/operator\/select-job\?job=first/)
  await expect(page.getByTestId('job-card')).toHaveCount(2)
  await expect(card(page, job1)).toHaveAttribute('data-selected', 'true')
  await expect(card(page, job1).getByTestId('ready')).toHaveText('Ready · 4 pcs')
  await expect(card(page, job2).getByTestId('not-ready')).toBeVisible()
  await expect(card(page, job1)).toContainText(s.productCode)
  await expect(card(page, job1)).toContainText(s.woCode)
  await shot(page, 'operator-select-job')

  await page.getByTestId('to-confirm').click()
  await expect(page.getByTestId('confirm-jobs')).toContainText('Montaggio')
  await shot(page, 'operator-confirm')
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${job1}/steps`))
  await expect(state(page)).toHaveText('RUNNING')
  await expect(page.getByTestId('batch-progress')).toContainText('0 / 4 pcs')
  await expect(page.getByTestId('batch-progress')).toContainText('Batch 1: 2 pcs')
  await expect(page.getByTestId('job-timer')).toBeVisible()
  await shot(page, 'operator-running')

  // Forced order: the form step is locked until the instruction is confirmed.
  await expect(page.getByTestId('step-2')).toBeDisabled()
  await page.getByTestId('confirm-step').click()
  await expect(page.getByTestId('step-1')).toHaveAttribute('data-done', 'true')
  // The mandatory field is required before confirming.
  await expect(page.getByTestId('step-panel')).toContainText('Registra i dati')
  await page.getByTestId('confirm-step').click()
  await expect(page.getByText('Required field')).toBeVisible()
  await page.getByTestId(`field-${s.fields.lotto}`).fill('LV-2231')
  // A photo for the files field: uploaded at once (bucket 'batch'), listed by its stored name, served back.
  const photoField = page.getByTestId(`field-${s.fields.foto}`)
  await photoField.locator('input[type=file]').setInputFiles({ name: 'montaggio.png', mimeType: 'image/png', buffer: PHOTO_PNG })
  const photo = photoField.getByRole('link', { name: 'montaggio.png' })
  await expect(photo).toBeVisible()
  expect((await page.request.get((await photo.getAttribute('href'))!)).status()).toBe(200)
  await page.getByTestId(`field-${s.fields.visivo}`).getByText('Yes').click()
  await shot(page, 'operator-form-step')
  // Edit mode: switching step is refused until the changes are saved or cancelled.
  await page.getByTestId('step-1').click()
  await expect(page.getByTestId('edit-mode-alert')).toHaveText('Save or cancel the changes first')
  await expect(page.getByTestId('step-panel')).toContainText('Registra i dati')
  // ... and so is leaving the steps for another tab.
  await page.getByTestId('tab-notes').click()
  await expect(page).toHaveURL(/\/steps$/)
  await expect(page.getByTestId('step-panel')).toContainText('Registra i dati')
  await fillFormAndConfirm(page, s.fields, '12,5')

  // Batch 1 done: the next batch opens by itself (auto_new_batch); phase 2 gets 2 pieces (continuous).
  await expect(page.getByTestId('batch-progress')).toContainText('2 / 4 pcs')
  await expect(page.getByTestId('batch-progress')).toContainText('Batch 2: 2 pcs')
  await expect(page.getByTestId('step-1')).not.toHaveAttribute('data-done', 'true')
  await expect.poll(async () => (await jobState(baseURL!, job2)).available_qt).toBe(2)
  expect((await jobState(baseURL!, job2)).ready).toBe(true)

  // Pause and resume.
  await page.getByRole('button', { name: 'Pause', exact: true }).click()
  await expect(state(page)).toHaveText('PAUSED')
  // Paused: the work session reads, nothing can be worked until Resume.
  await expect(page.getByTestId('read-only-banner')).toContainText('Press Resume')
  await shot(page, 'operator-paused')
  expect((await jobState(baseURL!, job1)).active).toBe(false)
  await page.getByRole('button', { name: 'Resume', exact: true }).click()
  await expect(state(page)).toHaveText('RUNNING')
  await confirmStep(page, 1)

  // Leaving the work session pauses the job.
  await openArea(page, 'Operator')
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  await expect.poll(async () => (await jobState(baseURL!, job1)).active).toBe(false)
  await expect(card(page, job2).getByTestId('ready')).toHaveText('Ready · 2 pcs')

  // Phase 2 works the 2 released pieces, then has no material for the next piece.
  await startFromQueue(page, job2)
  await expect(page.getByTestId('batch-progress')).toContainText('Batch 1: 2 pcs')
  await page.getByTestId('confirm-step').click()
  await expect(page.getByRole('dialog', { name: 'No material left' })).toBeVisible()
  await untilOpened(page.getByRole('dialog', { name: 'No material left' }))
  await shot(page, 'operator-no-material')
  await page.getByRole('dialog', { name: 'No material left' }).getByRole('button', { name: 'End the session' }).click()
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  const j2 = await jobState(baseURL!, job2)
  expect(j2.active).toBe(false)
  expect(j2.completed_qt).toBe(2)

  // Back to phase 1: resume its open batch, finish it; the job closes ('Redirecting…').
  await startFromQueue(page, job1)
  await expect(page.getByTestId('step-1')).toHaveAttribute('data-done', 'true')
  await expect(page.getByTestId('step-panel')).toContainText('Registra i dati')
  await fillFormAndConfirm(page, s.fields, '13')
  await expect(page.getByTestId('job-closed')).toContainText('Redirecting…')
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  await expect((await jobState(baseURL!, job1)).status).toBe('closed')
  await expect(card(page, job1)).toHaveCount(0)

  // Phase 2 is ready again with the last 2 pieces; finishing them closes it and the work order.
  await expect(card(page, job2).getByTestId('ready')).toHaveText('Ready · 2 pcs')
  await startFromQueue(page, job2)
  await page.getByTestId('confirm-step').click()
  await expect(page.getByTestId('job-closed')).toContainText('Redirecting…')
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  await expect(page.getByTestId('job-card')).toHaveCount(0)
  const wo = await ok<{ completed_qt: number }>(await (await adminApi(baseURL!)).get(`/api/work-order/${s.wo}`))
  expect(wo.completed_qt).toBe(4)
})

test('work session tabs: documents, bom, notes, process, issues and messages', async ({ page, baseURL }) => {
  const s = await setup(
    baseURL!,
    (f) => [
      { name: 'Montaggio', params: { production_batch_qt: 1 }, steps: [{ type: 'form', title: 'Registra i dati', fields: [f.coppia!] }] },
      { name: 'Collaudo', params: {}, steps: [{ type: 'instruction', title: 'Collaudo', text: 'Prova' }] },
    ],
    3,
  )
  // A component consumed in phase 1 (2 per piece) and a product document (an image).
  const api = await adminApi(baseURL!)
  const screw = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: uniqueName('VITE').toUpperCase(), description: 'Vite M6x20' } }))
  await ok(await api.put(`/api/product/${s.productKey}/bom`, { data: { lines: [{ phase_key: s.phaseKeys[0], item_key: screw._key, quantity: 2, quantity_per: 'item' }] } }))
  await ok(
    await api.post(`/api/product/${s.productKey}/doc`, {
      multipart: { new_doc: { name: 'disegno.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1x1, 'base64') } },
    }),
  )
  // The bom is a library change: released as revision 2, and the work order (not started) moved to it.
  await releaseProduct(api, s.productKey, 'Distinta base')
  await ok(await api.post(`/api/work-order/${s.wo}/revision`))
  // The end of this test shows what a stale screen is told when another device completed the
  // step: live updates (issue 17, e2e/live.e2e.ts) would catch the screen up first, so they stay off.
  await page.route('**/api/trpc/live.events**', (route) => route.abort())
  await signIn(page, s.operator.username, s.operator.password)
  // Dark theme (the operator's preference): the same screens must read well.
  await chooseInUserMenu(page, 'Dark')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  await expect(card(page, s.jobs[0]!)).toHaveAttribute('data-selected', 'true')
  await shot(page, 'operator-select-job-dark')
  await startFromQueue(page, s.jobs[0]!)
  await page.getByTestId('confirm-step').click()
  await expect(page.getByText('Required field')).toBeVisible()
  await shot(page, 'operator-form-step-dark')

  // A save whose answer is lost: the client retries with the same idempotency key and the
  // server applies it once (one STEP_EDITED).
  const keys: string[] = []
  let lost = false
  await page.route('**/api/trpc/execution.saveStep**', async (route) => {
    keys.push(JSON.parse(route.request().postData() ?? '{}')['0']?.idempotency_key)
    if (lost) return route.continue()
    lost = true
    await route.fetch() // the server applies it ...
    await route.abort('failed') // ... and the answer never arrives
  })
  await page.getByTestId(`field-${s.fields.coppia}`).fill('7')
  await page.getByTestId('save-step').click()
  await expect(page.getByText('Changes saved')).toBeVisible()
  expect(keys.length).toBe(2)
  expect(keys[0]).toBeTruthy()
  expect(keys[1]).toBe(keys[0])
  await page.unroute('**/api/trpc/execution.saveStep**')
  const edits = (await ok<{ event_type: string }[]>(await (await adminApi(baseURL!)).get(`/api/work-order/${s.wo}/history`))).filter(
    (e) => e.event_type === 'STEP_EDITED',
  )
  expect(edits.length).toBe(1)
  await page.getByTestId('tab-notes').click()
  await expect(page.getByTestId('notes-tab')).toContainText('Ordine urgente per il cliente Rossi')
  await expect(page.getByTestId('notes-tab')).toContainText('Note di produzione di Montaggio')
  await page.getByTestId('tab-process').click()
  await expect(page.getByTestId('process-tab')).toContainText('Collaudo')
  await expect(page.locator('[data-current]')).toContainText('Montaggio')
  await shot(page, 'operator-process')
  await page.getByTestId('tab-bom').click()
  await expect(page.getByTestId('bom-tab')).toContainText('Vite M6x20')
  await expect(page.getByTestId('bom-tab')).toContainText('Components for batch 1 (1 pcs)')
  await shot(page, 'operator-bom-dark')
  await page.getByTestId('tab-docs').click()
  await expect(page.getByTestId('docs-tab').getByRole('img', { name: 'disegno.png' })).toBeVisible()
  await shot(page, 'operator-docs-dark')
  await page.getByTestId('tab-issues').click()
  await expect(page.getByTestId('issues-tab').getByTestId('report-problem')).toBeVisible()
  await page.getByTestId('tab-messages').click()
  await expect(page.getByTestId('messages-tab').getByTestId('message-thread')).toBeVisible()
  // Still running: moving between the tabs is not leaving the work session.
  await expect(state(page)).toHaveText('RUNNING')
  expect((await jobState(baseURL!, s.jobs[0]!)).active).toBe(true)

  // Another device completes the step meanwhile: this one's confirmation is refused with the
  // server's translated message in the red persistent toast (with CLOSE), and the screen catches up.
  const view = await workSession(baseURL!, s.jobs[0]!)
  const other = await page.request.post(`/api/batch/${view.batch!._key}/steps/${view.steps[0]!._key}/complete`, {
    headers: { origin: new URL(baseURL!).origin },
    data: { idempotency_key: crypto.randomUUID() },
  })
  expect(other.status(), await other.text()).toBe(200)
  await page.getByTestId('tab-steps').click()
  await page.getByTestId('confirm-step').click()
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'already completed' })
  await expect(toast).toBeVisible()
  await expect(page.getByTestId('batch-progress')).toContainText('Batch 2: 1 pcs')
  await shot(page, 'operator-refused-dark')
  await toast.getByRole('button', { name: 'CLOSE' }).click()
  await expect(toast).toHaveCount(0)

  // Signing out with a running job deletes the session on the server, which pauses the job.
  await signOut(page)
  await expect.poll(async () => (await jobState(baseURL!, s.jobs[0]!)).active).toBe(false)
  expect((await jobState(baseURL!, s.jobs[0]!)).status).toBe('paused')
})

test('offline past max_offline: OFFLINE shown, the client closes the work session, the server force-pauses, back online is recorded', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const MAX_OFFLINE = 15
  const s = await setup(
    baseURL!,
    () => [{ name: 'Saldatura', params: { max_offline: MAX_OFFLINE }, steps: [{ type: 'instruction', title: 'Salda i raccordi', text: 'Cordone continuo.' }] }],
    2,
  )
  const job = s.jobs[0]!
  await signIn(page, s.operator.username, s.operator.password)
  await startFromQueue(page, job)
  // The heartbeat (every 10 s) goes to the documented REST path (never user activity for the idle lock).
  const beat = await page.waitForRequest((r) => r.url().endsWith(`/api/job/${job}/heartbeat`), { timeout: 15_000 })
  expect(beat.method()).toBe('POST')
  await expect.poll(async () => (await workSession(baseURL!, job)).job.last_heartbeat_at).not.toBeNull()

  await context.setOffline(true)
  await expect(page.getByTestId('offline-banner')).toBeVisible()
  await expect(state(page)).toHaveAttribute('data-state', 'offline')
  await expect(state(page)).toHaveText('OFFLINE')
  await shot(page, 'operator-offline')

  // Past max_offline: the client closes the work session, the server's sweep force-pauses the job.
  await expect(state(page)).toHaveAttribute('data-state', 'paused_offline', { timeout: (MAX_OFFLINE + 10) * 1000 })
  await expect(page.getByTestId('offline-banner')).toContainText('Work session closed')
  await expect.poll(async () => (await workSession(baseURL!, job)).job.paused_offline, { timeout: 20_000 }).toBe(true)
  expect((await jobState(baseURL!, job)).active).toBe(false)
  await shot(page, 'operator-offline-closed')

  await context.setOffline(false)
  await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 15_000 })
  await expect(page.getByTestId('heartbeat-stopped')).toContainText('Back online')
  await expect(state(page)).toHaveText('PAUSED · OFFLINE')
  const history = await ok<{ event_type: string; subject_key: string | null }[]>(await (await adminApi(baseURL!)).get(`/api/work-order/${s.wo}/history`))
  const events = history.filter((e) => e.subject_key === job).map((e) => e.event_type)
  expect(events).toContain('JOB_PAUSE_FORCED')
  expect(events).toContain('BACK_ONLINE')
  await shot(page, 'operator-back-online')

  // Resume works again once online.
  await page.getByRole('button', { name: 'Resume', exact: true }).click()
  await expect(state(page)).toHaveText('RUNNING')
  expect((await jobState(baseURL!, job)).active).toBe(true)

  // Closing or reloading the page leaves the work session: the job pauses (keepalive request on pagehide).
  await page.reload()
  await expect.poll(async () => (await jobState(baseURL!, job)).active).toBe(false)
})

test('parallel jobs where every phase allows it: both start together, switching between them keeps them running; step_check off completes the batch at once', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const s = await setup(
    baseURL!,
    () => [{ name: 'Etichettatura', params: { parallel_job_allowed: true, step_check: false }, steps: [{ type: 'instruction', title: "Applica l'etichetta", text: 'In alto a destra.' }] }],
    2,
  )
  const api = await adminApi(baseURL!)
  await releaseProduct(api, s.productKey)
  const second = await ok<{ phases: { jobs: { _key: string }[] }[] }>(
    await api.post('/api/work-order', { data: { product_key: s.productKey, quantity: 1, operator_key: s.operator.key } }),
  )
  const [a, b] = [s.jobs[0]!, second.phases[0]!.jobs[0]!._key]

  await signIn(page, s.operator.username, s.operator.password)
  await expect(card(page, a)).toHaveAttribute('data-selected', 'true')
  // Both phases allow parallel work (read from each job's phase parameters).
  await expect(card(page, a)).toContainText('parallel')
  await expect(card(page, b)).toContainText('parallel')
  await card(page, b).click()
  await expect(page.getByTestId('selection-count')).toHaveText('2 jobs selected')
  await page.getByTestId('tab-all').click()
  await expect(page.getByTestId('job-list-all')).toContainText('Assigned to you')
  await expect(card(page, b)).toHaveAttribute('data-selected', 'true')
  await page.getByTestId('to-confirm').click()
  await expect(page.getByTestId('confirm-jobs')).toContainText('Confirm 2 jobs in parallel')
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${a}/steps`))
  await expect(state(page)).toHaveText('RUNNING')

  // The other running job is one tap away; going there is not leaving the work session.
  await page.getByTestId('other-running-jobs').getByRole('link').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${b}/steps`))
  await expect(state(page)).toHaveText('RUNNING')
  expect((await jobState(baseURL!, a)).active).toBe(true)
  expect((await jobState(baseURL!, b)).active).toBe(true)

  // step_check off: no confirmation per step, the whole batch completes at once; the job closes.
  await expect(page.getByTestId('confirm-step')).toHaveCount(0)
  await page.getByTestId('complete-batch').click()
  await expect(page.getByTestId('job-closed')).toContainText('Redirecting…')
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  // Leaving the work session pauses the job still running here.
  await expect.poll(async () => (await jobState(baseURL!, a)).active).toBe(false)
  expect((await jobState(baseURL!, b)).status).toBe('closed')

  // In Italian (the source language).
  await chooseInUserMenu(page, 'Italiano')
  await expect(page.getByRole('heading', { name: 'Seleziona job' })).toBeVisible()
  await expect(card(page, a)).toContainText('IN PAUSA')
  await startFromQueue(page, a)
  await expect(state(page)).toHaveText('IN CORSO')
  await expect(page.getByTestId('work-session-header')).toContainText('OdL')
  await shot(page, 'operator-running-it')
})
