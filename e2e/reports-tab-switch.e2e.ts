import { expect, test } from '@playwright/test'
import { createReadyUser, fillLogin, uniqueName } from './helpers'

/**
 * Reports (issue 26): a report opens on the last 30 days, with "last month" one click away; and a
 * line typed right after clicking another report's tab (no wait for its heading) goes to that
 * report: until it is ready the previous report's fields are not there to take the keys, nor its
 * Enter to navigate back to it.
 */

const TEXT = {
  it: { locale: 'it-IT', labour: 'Manodopera e costi', quality: 'Qualità', range: (from: string, to: string) => `Dal ${from} al ${to}`, lastMonth: 'Mese scorso' },
  en: { locale: 'en-US', labour: 'Labour and cost', quality: 'Quality', range: (from: string, to: string) => `From ${from} to ${to}`, lastMonth: 'Last month' },
} as const

const day = (d: Date) => `${d.getFullYear()}/${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}`

for (const lang of ['it', 'en'] as const) {
  test.describe(`report tabs (${lang})`, () => {
    const s = TEXT[lang]
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test(`a report opens on the last 30 days; "last month" is one click (${lang})`, async ({ page, baseURL }) => {
      const reporter = await createReadyUser(baseURL!, 'reporting', { name: 'Rita', surname: uniqueName('Periodo') })
      await page.goto('/login')
      await fillLogin(page, reporter.username, reporter.password)
      await expect(page).toHaveURL(/\/app\/report\/production/)
      const now = new Date()
      await expect(page.getByTestId('report-range')).toHaveText(s.range(day(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29)), day(now)))
      await page.getByTestId('report-quick').getByRole('button', { name: s.lastMonth }).click()
      await expect(page.getByTestId('report-range')).toHaveText(s.range(day(new Date(now.getFullYear(), now.getMonth() - 1, 1)), day(new Date(now.getFullYear(), now.getMonth(), 0))))
    })

    test(`a line typed at once after a tab's click filters the new report (${lang})`, async ({ page, baseURL }) => {
      test.setTimeout(120_000)
      const reporter = await createReadyUser(baseURL!, 'reporting', { name: 'Rita', surname: uniqueName('Schede') })
      await page.goto('/login')
      await fillLogin(page, reporter.username, reporter.password)
      await expect(page).toHaveURL(/\/app\/report\/production/)
      await expect(page.getByTestId('report-line')).toBeVisible()

      for (const [tab, path] of [
        [s.labour, 'labour'],
        [s.quality, 'quality'],
      ] as const) {
        const line = uniqueName('L').toUpperCase()
        await page.getByRole('tab', { name: tab }).click()
        // No wait for the new report: typed as a person does right after the click.
        await page.getByTestId('report-line').pressSequentially(line)
        await page.getByTestId('report-line').press('Enter')
        await expect(page).toHaveURL(new RegExp(`/app/report/${path}\\?.*line=${line}`))
        await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true')
        await expect(page.getByTestId('report-line')).toHaveValue(line)
      }
    })
  })
}
