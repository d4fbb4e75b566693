import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD, DEMO_PASSWORD, openArea, shot, signIn } from './helpers'

const notice = (page: import('@playwright/test').Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text })

test('refused area (in-app navigation): "Not authorised" and the user stays where they were', async ({ page }) => {
  await signIn(page, 'rapporti')
  await expect(page).toHaveURL(/\/app\/report\/production$/)
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Settings' })).toHaveCount(0)
  // The router follows history.pushState like a link click.
  await page.evaluate(() => history.pushState(null, '', '/app/admin'))
  await expect(notice(page, 'Not authorised')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/report\/production$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')
  await expect(page.getByText('Settings')).toHaveCount(0)
  // An allowed in-app navigation still works afterwards.
  await page.evaluate(() => history.pushState(null, '', '/app/report?period=month'))
  await expect(page).toHaveURL(/\/app\/report\/production\?period=month$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')
})

test('refused area (typed URL, a reload): "Not authorised", homepage behind the lock screen', async ({ page }) => {
  await signIn(page, 'qualita')
  await page.goto('/app/admin')
  await expect(notice(page, 'Not authorised')).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Session locked' })).toBeVisible()
  await expect(page).not.toHaveURL(/\/app\/admin/)
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByRole('dialog', { name: 'Session locked' })).toHaveCount(0)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
  await expect(page.getByTestId('area-home')).toHaveText('Quality')
})

test('a signed-in user opening / or /login goes to their homepage (locked, as after any reload)', async ({ page }) => {
  await signIn(page, 'tracciabilita')
  await page.goto('/')
  await expect(page).toHaveURL(/\/app\/traceability$/)
  await expect(page.getByRole('dialog', { name: 'Session locked' })).toBeVisible()
  await page.goto('/login')
  await expect(page).toHaveURL(/\/app\/traceability$/)
  await expect(page.getByRole('dialog', { name: 'Session locked' })).toBeVisible()
})

test('signed out, / goes to the login screen', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
})

test('not-found screen for an unknown path; unknown API paths answer JSON 404', async ({ page, request }) => {
  await page.goto('/nowhere')
  await expect(page.getByText('does not exist')).toBeVisible()
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
  await expect(page).toHaveTitle('progress')
  await shot(page, 'not-found')
  await page.getByRole('link', { name: 'Back to the home page' }).click()
  await expect(page).toHaveURL(/\/login$/)

  const res = await request.get('/api/nowhere')
  expect(res.status()).toBe(404)
  expect(res.headers()['content-type']).toContain('application/json')
  const body = await res.json()
  expect(body.detail.code).toBe('NOT_FOUND')
})

// The admin area is last: its sub-screens belong to the admin issue.
test('document title: the area title, else "progress"', async ({ page }) => {
  await page.goto('/login')
  await expect(page).toHaveTitle('progress')
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveTitle('Operator')
  await openArea(page, 'Quality')
  await expect(page).toHaveTitle('Quality')
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
  await openArea(page, 'Settings')
  await expect(page).toHaveURL(/\/app\/admin(\/|$)/)
  await expect(page).toHaveTitle('Settings')
})

test.describe('Italian browser', () => {
  test.use({ locale: 'it-IT' })
  test('document title in Italian', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await expect(page).toHaveTitle('Operatore')
    await openArea(page, 'Rapporti')
    await expect(page).toHaveTitle('Rapporti')
    await expect(page.getByTestId('screen-title')).toHaveText('Rapporti')
    await shot(page, 'area-it')
    await openArea(page, 'Impostazioni')
    await expect(page).toHaveURL(/\/app\/admin(\/|$)/)
    await expect(page).toHaveTitle('Impostazioni')
  })
})
