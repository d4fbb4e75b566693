import { type APIRequestContext, type Browser, expect, type Page, request, test } from '@playwright/test'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { adminApi, createReadyUser, fillLogin, type NewUser, openArea, releaseProduct, SHOTS_DIR, uniqueName } from './helpers'

/**
 * The production record (issue 22): a work order run by an operator (two batches of one piece,
 * a torque typed in each) is downloaded as a PDF from the production work order page in Italian
 * and from the traceability work order page in English, and a demo serial's record from its
 * detail page; pdftotext reads product, revision, batch steps, values and who from each file.
 */
test.describe.configure({ timeout: 120_000 })

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.status(), await res.text()).toBeLessThan(300)
  return ((await res.json()) as { detail: T }).detail
}

type World = { tag: string; productCode: string; woKey: string; woCode: string; field: string; operator: NewUser }

/** A released one-phase product (an instruction, then a torque form step), a work order of 2 run in 2 batches through the API. */
async function makeWorld(baseURL: string): Promise<World> {
  const api = await adminApi(baseURL)
  const tag = uniqueName('Reg')
  const operator = await createReadyUser(baseURL, 'operator', { name: 'Mario', surname: `Rossi ${tag}` })
  const field = `Coppia ${tag}`
  const fieldKey = (await ok<{ _key: string }>(await api.post('/api/field', { data: { name: field, type: 'number' } })))._key
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName('Assemblaggio') } }))
  const productCode = uniqueName('DHR').toUpperCase()
  const product = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: productCode, description: 'Valvola a sfera' } }))
  await ok(
    await api.put(`/api/product/${product._key}/process`, {
      data: {
        phases: [
          {
            operation_key: operation._key,
            name: 'Montaggio',
            parameters: { ...DEFAULT_PHASE_PARAMETERS, production_batch_qt: 1 },
            steps: [
              { type: 'instruction', title: 'Controllo visivo', text: 'Nessuna bava sul corpo', fields: [] },
              { type: 'form', title: 'Serraggio viti', text: 'Chiave dinamometrica tarata', fields: [fieldKey] },
            ],
            production_notes: '',
          },
        ],
      },
    }),
  )
  await releaseProduct(api, product._key, 'Prima emissione')
  const wo = await ok<{ _key: string; code: string; phases: { jobs: { _key: string }[] }[] }>(
    await api.post('/api/work-order', { data: { product_key: product._key, quantity: 2, operator_key: operator.key } }),
  )
  // The operator runs the job through the API, as the tablet would.
  const anon = await request.newContext({ baseURL })
  const { token } = await ok<{ token: string }>(await anon.post('/api/login', { data: { username: operator.username, password: operator.password } }))
  const as = { authorization: `Bearer ${token}` }
  type Batch = { _key: string; step_data: { _key: string; type: string }[] }
  const started = await ok<{ jobs: { batch: Batch }[] }>(
    await anon.post('/api/job/start', { headers: as, data: { job_keys: [wo.phases[0]!.jobs[0]!._key], idempotency_key: crypto.randomUUID() } }),
  )
  let batch: Batch | null = started.jobs[0]!.batch
  for (const torque of [12.5, 13]) {
    const current: Batch = batch!
    for (const step of current.step_data) {
      const data = { idempotency_key: crypto.randomUUID(), ...(step.type === 'form' ? { form_data: [{ field_key: fieldKey, value: torque }] } : {}) }
      const out: { batch: Batch | null } = await ok(await anon.post(`/api/batch/${current._key}/steps/${step._key}/complete`, { headers: as, data }))
      if (step.type === 'form') batch = out.batch
    }
  }
  await anon.post('/api/logout', { headers: as })
  await anon.dispose()
  return { tag, productCode, woKey: wo._key, woCode: wo.code, field, operator }
}

/** A new browser in a language at a screen: signing in there leads back to it. */
async function open(browser: Browser, user: NewUser, locale: string, path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, acceptDownloads: true })).newPage()
  await page.goto(path)
  await expect(page).toHaveURL(/\/login/)
  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(new RegExp(path))
  return page
}

/** Clicks the button, saves the PDF it downloads and answers its file name and text (pdftotext). */
async function downloadRecord(page: Page, label: string): Promise<{ name: string; text: string }> {
  const button = page.getByRole('button', { name: label, exact: true })
  await expect(button).toBeVisible()
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  const file = `${SHOTS_DIR}/${uniqueName('record')}.pdf`
  await download.saveAs(file)
  const proc = Bun.spawnSync(['pdftotext', '-layout', file, '-'])
  expect(proc.exitCode).toBe(0)
  return { name: download.suggestedFilename(), text: proc.stdout.toString().replace(/[ \t]+/g, ' ') }
}

let world: World

test.beforeAll(async ({ baseURL }) => {
  world = await makeWorld(baseURL!)
})

test('Italian: the production work order page downloads the record with product, revision, steps, values and who', async ({ browser, baseURL }) => {
  const planner = await createReadyUser(baseURL!, 'production')
  const page = await open(browser, planner, 'it-IT', `/app/production/workorder/${world.woKey}`)
  await expect(page.getByText(world.woCode).first()).toBeVisible()
  await page.screenshot({ path: `${SHOTS_DIR}/history-record-wo-1280.png` })
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.screenshot({ path: `${SHOTS_DIR}/history-record-wo-1024.png` })
  const { name, text } = await downloadRecord(page, 'Registro di produzione')
  expect(name).toBe(`registro-produzione-${world.woCode}.pdf`)
  for (const s of [
    'Registro di produzione',
    world.productCode,
    'Valvola a sfera',
    world.woCode,
    'Revisione',
    'Prima emissione',
    'Lotto 1',
    'Lotto 2',
    'Controllo visivo',
    'Nessuna bava sul corpo',
    'Serraggio viti',
    `${world.field}: 12,5`,
    `${world.field}: 13`,
    `Mario Rossi ${world.tag}`,
  ]) {
    expect(text).toContain(s)
  }
})

test('English: the traceability work order page and a serial detail download their records', async ({ browser, baseURL }) => {
  const tracer = await createReadyUser(baseURL!, 'traceability')
  const page = await open(browser, tracer, 'en-US', `/app/traceability/workorder/${world.woKey}`)
  await expect(page.getByTestId('wo-traceability-title')).toContainText(world.woCode)
  const wo = await downloadRecord(page, 'Production record')
  expect(wo.name).toBe(`production-record-${world.woCode}.pdf`)
  for (const s of ['Production record', world.productCode, 'Revision', 'Batch 1', 'Batch 2', 'Serraggio viti', `${world.field}: 12.5`, `Mario Rossi ${world.tag}`, 'Done by']) {
    expect(wo.text).toContain(s)
  }

  // A demo serial (the pump of the first demo work order) with its components, every level.
  await openArea(page, 'Traceability')
  await page.getByTestId('serials-search').pressSequentially('SN-PMP-0001')
  await expect(page.getByTestId('serials-table').locator('tbody tr')).toHaveCount(1)
  await page.getByTestId('serials-table').locator('tbody tr').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-PMP-0001')
  await page.screenshot({ path: `${SHOTS_DIR}/history-record-serial-1280.png` })
  const serial = await downloadRecord(page, 'Production record')
  expect(serial.name).toBe('production-record-SN-PMP-0001.pdf')
  for (const s of ['Production record', 'Serial SN-PMP-0001', 'Components (genealogy)', 'SN-MOT-0101', 'SN-PCB-0201', 'SN-CTL-0301', 'Phases, jobs and batches']) {
    expect(serial.text).toContain(s)
  }
})
