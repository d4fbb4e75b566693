import { expect, test } from '@playwright/test'
import { fillLogin } from './helpers'

/**
 * A list's search box writes its text to the URL once the user pauses (useSearchBox). A row opened
 * during that pause must stay open: the late write used to navigate back to the list while the
 * row's page was still loading (seen in CI on a busy machine). Here the row's page is held back on
 * purpose, so the pause always ends while it loads.
 */
test('a row opened while the search is still pausing stays open', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'it-IT' })
  const page = await context.newPage()
  await page.goto('/login')
  await fillLogin(page, 'tracciabilita', 'demo1234')
  await expect(page).toHaveURL(/\/app\/traceability/)
  const search = page.getByTestId('serials-search')
  await search.pressSequentially('SN-PMP-0001', { delay: 20 })
  const row = page.getByTestId('serials-table').locator('tbody tr', { hasText: 'SN-PMP-0001' })
  await expect(row).toHaveCount(1)
  await expect(page).toHaveURL(/q=SN-PMP-0001/)

  // The serial's page arrives 1.5 s late; the search written 0.3 s after the last key lands before it.
  await page.route('**/assets/_serialKey-*.js', async (route) => {
    await new Promise((r) => setTimeout(r, 1_500))
    await route.continue()
  })
  await search.press('Backspace')
  await row.locator('td').first().click()
  // The page shows 1.5 s after the click, long after the late search would have been written.
  await expect(page.getByTestId('serial-code')).toHaveText('SN-PMP-0001')
  await expect(page).toHaveURL(/\/app\/traceability\/serials\//)
  await context.close()
})
