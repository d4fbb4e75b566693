import { expect, test } from '@playwright/test'
import { shot, signIn } from './helpers'

// An English browser would show mm/dd/yyyy in a native date field: the app's own fields follow
// SPEC 5 (YYYY/MM/DD) whatever the browser, with month names in the app's language.
test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } })

test('issue date filters: typed and pasted as YYYY/MM/DD or ISO, picked from a calendar, a wrong date said and kept', async ({ page }) => {
  await signIn(page, 'qualita')
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  const from = page.getByRole('textbox', { name: 'Opened from' })
  const to = page.getByRole('textbox', { name: 'to', exact: true })
  await expect(from).toHaveAttribute('placeholder', 'YYYY/MM/DD')
  await expect(page.locator('input[type="date"]')).toHaveCount(0)

  // Typed as a person does, in the SPEC format.
  await from.click()
  await page.keyboard.type('2026/11/01')
  await page.keyboard.press('Tab')
  await expect(page).toHaveURL(/from=2026-11-01/)
  await expect(from).toHaveValue('2026/11/01')

  // A pasted ISO date is read too, and shown in the SPEC format once the field is left.
  await to.click()
  await page.keyboard.insertText('2026-11-20')
  await page.keyboard.press('Tab')
  await expect(page).toHaveURL(/to=2026-11-20/)
  await expect(to).toHaveValue('2026/11/20')

  // Not a date: the text stays as typed, the field says why, the filter is unchanged.
  await from.click()
  await from.press('ControlOrMeta+a')
  await page.keyboard.type('2026/02/30')
  await page.keyboard.press('Tab')
  await expect(from).toHaveValue('2026/02/30')
  await expect(page.getByText('Invalid date (YYYY/MM/DD)')).toBeVisible()
  await expect(page).toHaveURL(/from=2026-11-01/)

  // Picked from the calendar: month names in the app's language, the value in the SPEC format.
  await to.click()
  await expect(page.getByRole('button', { name: 'Choose the month' })).toHaveText('November 2026')
  await page.getByRole('button', { name: '18 November 2026', exact: true }).click()
  await expect(to).toHaveValue('2026/11/18')
  await expect(page).toHaveURL(/to=2026-11-18/)
  await shot(page, 'dates-issue-filters')
})

test.describe('Italian', () => {
  test.use({ locale: 'it-IT' })

  test('the calendar names months in Italian; the date stays YYYY/MM/DD', async ({ page }) => {
    await signIn(page, 'qualita')
    const from = page.getByRole('textbox', { name: 'Aperte dal' })
    await from.click()
    await page.keyboard.type('2026/03/09')
    await expect(page.getByRole('button', { name: 'Scegli il mese' })).toHaveText('marzo 2026')
    await page.keyboard.press('Tab')
    await expect(from).toHaveValue('2026/03/09')
    await expect(page).toHaveURL(/from=2026-03-09/)
  })
})
