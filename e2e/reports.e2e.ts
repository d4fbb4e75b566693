import { readFileSync } from 'node:fs'
import { type Browser, expect, type Page, request, test } from '@playwright/test'
import { createReadyUser, fillLogin, type NewUser, ok, operatorWithWorkOrder, uniqueName } from './helpers'

/**
 * Rapporti (issue 16): a reporting-only user signs in and lands on Rapporti, changes the period,
 * reads a chart and the table under it, drills into a bar (the jobs behind it) and exports CSV,
 * in Italian and in English. The data: an operator runs a job of 4 pieces today through the API
 * (two batches of 2, one piece scrapped), on a line of its own so other specs' data stays out.
 */

type Outcome = { job: { status: string; active_batch_key: string | null }; batch: { _key: string } | null }
type Plant = { reporter: NewUser; operator: NewUser; job: string; line: string; productCode: string; woCode: string }

async function makePlant(baseURL: string): Promise<Plant> {
  const reporter = await createReadyUser(baseURL, 'reporting', { name: 'Rita', surname: 'Report' })
  const line = uniqueName('L').toUpperCase()
  const { operator, job, productCode, woCode } = await operatorWithWorkOrder(baseURL, {
    prefix: 'RPT',
    description: 'Staffa per rapporti',
    operator: { name: 'Carla', surname: uniqueName('Rapporti') },
    quantity: 4,
    workOrder: { line },
    phases: [
      {
        name: 'Assemblaggio',
        parameters: { production_batch_qt: 2, step_check: false, std_processing_time: 60, auto_new_batch: false },
        steps: [{ type: 'instruction', title: 'Monta', text: 'Monta la staffa.', fields: [] }],
      },
    ],
  })
  return { reporter, operator, job, line, productCode, woCode }
}

const TEXT = {
  it: { today: 'Oggi', week: 'Settimana', title: 'Produzione', fromTo: 'Dal', jobsOf: 'Job del periodo', csvHeader: 'Prodotto;Pezzi completati;Scarti;Buoni' },
  en: { today: 'Today', week: 'Week', title: 'Production', fromTo: 'From', jobsOf: 'Jobs of the period', csvHeader: 'Product;Pieces completed;Scrap;Good' },
} as const

async function newPage(browser: Browser, baseURL: string, locale: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport, locale, acceptDownloads: true })
  return context.newPage()
}

let plant: Plant

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000)
  plant = await makePlant(baseURL!)
})

test('the operator declares a scrapped piece when completing a batch (typed as on a tablet); the second batch through the API', async ({ browser, baseURL }) => {
  test.setTimeout(120_000)
  const page = await newPage(browser, baseURL!, 'it-IT', { width: 1024, height: 768 })
  await page.goto('/login')
  await fillLogin(page, plant.operator.username, plant.operator.password)
  const card = page.locator(`[data-testid="job-card"][data-job-key="${plant.job}"]`)
  await expect(card).toHaveAttribute('data-selected', 'true')
  await page.getByTestId('to-confirm').click()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${plant.job}/steps`))
  // More than the batch's 2 pieces is refused next to the field; then 1.
  const scrap = page.getByTestId('batch-scrap')
  await scrap.pressSequentially('3')
  await scrap.blur()
  await expect(page.getByText(/al massimo 2/i)).toBeVisible()
  await scrap.fill('')
  await scrap.pressSequentially('1')
  await page.getByTestId('complete-batch').click()
  await expect(page.getByRole('heading', { name: 'Lotto completato' })).toBeVisible()
  await page.screenshot({ path: '/tmp/reports-operator-scrap.png' })

  // The second batch of 2 through the API (the same operator, the job still running).
  const opApi = await request.newContext({ baseURL })
  const login = await ok<{ token: string }>(await opApi.post('/api/login', { data: { username: plant.operator.username, password: plant.operator.password } }))
  const headers = { authorization: `Bearer ${login.token}` }
  let outcome = await ok<Outcome>(await opApi.post(`/api/job/${plant.job}/batch`, { headers, data: { idempotency_key: crypto.randomUUID() } }))
  outcome = await ok<Outcome>(await opApi.post(`/api/batch/${outcome.batch!._key}/complete`, { headers, data: { idempotency_key: crypto.randomUUID() } }))
  expect(outcome.job.status).toBe('closed')
  await opApi.post('/api/logout', { headers })
  await opApi.dispose()
  await page.context().close()
})

for (const [lang, viewport] of [
  ['it', { width: 1280, height: 800 }],
  ['en', { width: 1024, height: 768 }],
] as const) {
  test(`reporting only (${lang}): lands on Rapporti, changes the period, reads chart and table, drills into a bar, exports CSV`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000)
    const s = TEXT[lang]
    const page = await newPage(browser, baseURL!, lang === 'it' ? 'it-IT' : 'en-US', viewport)
    await page.goto('/login')
    await fillLogin(page, plant.reporter.username, plant.reporter.password)
    // A reporting-only user's home is Rapporti, which opens on the production report.
    await expect(page).toHaveURL(/\/app\/report\/production/)
    await expect(page.getByRole('heading', { name: s.title, exact: true })).toBeVisible()

    // Change the period: the quick period "today", then weeks.
    await page.getByTestId('report-quick').getByRole('button', { name: s.today }).click()
    const today = new Date()
    const day = `${today.getFullYear()}/${String(today.getMonth() + 1).padStart(2, '0')}/${String(today.getDate()).padStart(2, '0')}`
    await expect(page.getByTestId('report-range')).toContainText(`${s.fromTo} ${day}`)
    await page.getByTestId('report-period').click()
    await page.getByRole('option', { name: s.week }).click()
    await expect(page).toHaveURL(/period=week/)
    // Only this spec's line, typed as a person (or a scanner) does.
    await page.getByTestId('report-line').pressSequentially(plant.line)
    await page.getByTestId('report-line').press('Enter')
    await expect(page).toHaveURL(new RegExp(`line=${plant.line}`))

    // The chart by product and the table under it: 4 pieces, 1 scrapped, 3 good.
    const table = page.getByTestId('table-groups')
    const row = table.getByRole('row').filter({ hasText: plant.productCode })
    await expect(row).toHaveCount(1)
    await expect(row.getByRole('cell')).toHaveText([plant.productCode, '4', '1', '3', '1', '1'])
    await expect(page.getByTestId('fig-completed')).toContainText('4')
    const bars = page.getByTestId('chart-groups').locator('.recharts-bar-rectangle')
    await expect(bars).toHaveCount(2)
    await page.screenshot({ path: `/tmp/reports-${lang}-chart.png`, fullPage: true })

    // Drill into the bar: the job behind it, its work order and pieces.
    await bars.first().click()
    const drill = page.getByRole('dialog')
    await expect(drill).toBeVisible()
    const jobRow = drill.getByTestId('report-drill-table').getByRole('row').filter({ hasText: plant.woCode })
    await expect(jobRow).toHaveCount(1)
    await expect(jobRow).toContainText('Carla')
    await page.screenshot({ path: `/tmp/reports-${lang}-drill.png` })
    await page.keyboard.press('Escape')
    await expect(drill).toHaveCount(0)

    // A bar of the periods chart opens the jobs of that week.
    await page.getByTestId('chart-buckets').locator('.recharts-bar-rectangle').first().click()
    await expect(page.getByRole('dialog')).toContainText(s.jobsOf)
    await expect(page.getByRole('dialog').getByRole('row').filter({ hasText: plant.woCode })).toHaveCount(1)
    await page.keyboard.press('Escape')

    // CSV of the table as shown.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-csv').click()])
    expect(download.suggestedFilename()).toMatch(/^produzione-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = readFileSync((await download.path())!, 'utf8')
    expect(csv).toContain(s.csvHeader)
    expect(csv).toContain(`${plant.productCode};4;1;3;1;1`)

    // Print-friendly: printed, the page shows the report without the controls and the navigation.
    await page.emulateMedia({ media: 'print' })
    await expect(page.getByTestId('report-quick')).toBeHidden()
    await expect(page.getByTestId('report-csv')).toBeHidden()
    await expect(page.getByTestId('chart-groups')).toBeVisible()
    await expect(table).toBeVisible()
    await page.screenshot({ path: `/tmp/reports-${lang}-print.png`, fullPage: true })
    await page.emulateMedia({ media: 'screen' })

    // The other reports open with the same range and filter.
    await page.getByRole('tab', { name: 'OEE' }).click()
    await expect(page).toHaveURL(/\/app\/report\/oee/)
    await expect(page.getByTestId('report-note')).toContainText('OEE =')
    await page.context().close()
  })
}
