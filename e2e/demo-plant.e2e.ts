import { expect, type Page, test } from '@playwright/test'
import { fillLogin, SHOTS_DIR } from './helpers'

/**
 * The demo plant (MES_DEMO=1, which the e2e server always loads; docs/demo.md): every demo user
 * signs in and lands on a home screen with something to explore, in Italian at 1280x800. Only
 * reads: other specs may have worked on the demo data before, so the checks ask for content, not
 * for exact figures (those are the server's consistency test).
 */

const HOMES: { user: string; url: RegExp; content: (page: Page) => ReturnType<Page['locator']>; text?: RegExp }[] = [
  { user: 'operatore1', url: /\/app\/operator\/select-job/, content: (p) => p.getByTestId('job-card') },
  { user: 'capoturno', url: /\/app\/operator\/select-job/, content: (p) => p.getByTestId('job-card') },
  { user: 'operatore2', url: /\/app\/operator\/select-job/, content: (p) => p.getByTestId('job-card') },
  { user: 'produzione', url: /\/app\/production\/overview\/workorder/, content: (p) => p.locator('main tbody tr'), text: /WO0000/ },
  { user: 'libreria', url: /\/app\/library\/product/, content: (p) => p.locator('main tbody tr') },
  { user: 'qualita', url: /\/app\/quality\/issues/, content: (p) => p.locator('main tbody tr') },
  { user: 'tracciabilita', url: /\/app\/traceability/, content: (p) => p.getByTestId('serials-table').locator('tbody tr') },
  { user: 'magazzino', url: /\/app\/warehouse\/inventory/, content: (p) => p.locator('main tbody tr'), text: /MAG-|LINEA-1/ },
  { user: 'rapporti', url: /\/app\/report\/production/, content: (p) => p.getByTestId('table-groups').locator('tbody tr') },
]

for (const home of HOMES) {
  test(`the demo user ${home.user} lands on a home screen with content`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'it-IT' })
    const page = await context.newPage()
    await page.goto('/login')
    await fillLogin(page, home.user, 'demo1234')
    await expect(page).toHaveURL(home.url)
    const rows = home.content(page)
    // A report over two weeks of batches takes a moment on a busy machine.
    await expect(rows.first()).toBeVisible({ timeout: 30_000 })
    expect(await rows.count()).toBeGreaterThan(0)
    if (home.text) await expect(page.locator('main')).toContainText(home.text)
    await page.screenshot({ path: `${SHOTS_DIR}/demo-${home.user}.png` })
    await context.close()
  })
}

test('the traceability user opens a finished pump and sees the motor group and its motor in the genealogy', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'it-IT' })
  const page = await context.newPage()
  await page.goto('/login')
  await fillLogin(page, 'tracciabilita', 'demo1234')
  await expect(page).toHaveURL(/\/app\/traceability/)
  // The pumps are numbered by the counter "Seriali pompe" (SN<yymm>-nnnnn): typed as a person would.
  await page.getByTestId('serials-search').pressSequentially('SN2', { delay: 20 })
  const pump = page.getByTestId('serials-table').locator('tbody tr', { hasText: 'ELP-400' }).first()
  await expect(pump).toBeVisible()
  await pump.locator('td').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText(/^SN\d{4}-\d{5}$/)
  await expect(page.locator('main')).toContainText('GRM-410')
  // The graph: the pump itself, the group inside it and the motor inside the group.
  await page.getByRole('tab', { name: 'Grafo genealogia' }).click()
  const nodes = page.getByTestId('genealogy-graph').getByTestId('genealogy-node')
  await expect(nodes).toHaveCount(3)
  for (const prefix of ['GM', 'MOT-']) await expect(page.getByTestId('genealogy-graph').locator(`[data-testid="genealogy-node"][data-code^="${prefix}"]`)).toHaveAttribute('data-role', 'component')
  await page.screenshot({ path: `${SHOTS_DIR}/demo-genealogy.png` })
  await context.close()
})
