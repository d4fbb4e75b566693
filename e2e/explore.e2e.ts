import { expect, test } from '@playwright/test'
import { signIn, DEMO_PASSWORD, fillLogin } from './helpers'

test('pushState refused', async ({ page }) => {
  await signIn(page, 'produzione')
  await expect(page).toHaveURL(/\/app\/production$/)
  await page.evaluate(() => history.pushState(null, '', '/app/admin'))
  await page.waitForTimeout(1500)
  console.log('URL after pushState', page.url(), await page.locator('.mantine-Notification-root').allTextContents())
})

test('redirect_to refused', async ({ page }) => {
  await page.goto('/login?redirect_to=%2Fapp%2Fadmin')
  await fillLogin(page, 'produzione', DEMO_PASSWORD)
  await page.waitForTimeout(2000)
  console.log('URL after login', page.url(), await page.locator('.mantine-Notification-root').allTextContents())
})

test('reload lock server state', async ({ page }) => {
  await signIn(page, 'capoturno')
  await page.mouse.move(10, 10)
  await page.reload()
  await expect(page.getByText('Session locked')).toBeVisible()
  const status = await page.evaluate(async () => (await fetch('/api/whoami')).status)
  console.log('whoami after reload (snapshot)', status, page.url())
  await page.evaluate(() => localStorage.removeItem('mes.temp-session'))
})
