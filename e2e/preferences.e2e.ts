import { expect, test } from '@playwright/test'
import { chooseInUserMenu, createReadyUser, fillLogin, shot, signIn, signOut } from './helpers'

test('language and theme: switched in the user menu, kept across sign-out/sign-in and in a new browser', async ({ page, baseURL, browser }) => {
  const user = await createReadyUser(baseURL!, 'reporting', { name: 'Lucia', surname: 'Prova' })
  await signIn(page, user.username, user.password)
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menu')).toContainText('Sign out')
  await shot(page, 'user-menu-en')
  await page.keyboard.press('Escape')

  await chooseInUserMenu(page, 'Italiano')
  await expect(page.getByTestId('screen-title')).toHaveText('Rapporti')
  await expect(page.locator('html')).toHaveAttribute('lang', 'it')
  await expect(page).toHaveTitle('Rapporti')
  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menuitem', { name: 'Esci' })).toBeVisible()
  await expect(page.getByRole('menuitem', { name: '✓ Italiano' })).toBeVisible()
  await page.keyboard.press('Escape')

  await chooseInUserMenu(page, 'Scuro')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(bg).toBe('rgb(11, 21, 23)')
  await shot(page, 'area-dark-it')

  await signOut(page)
  // After signing out the login screen follows the browser language again; the theme stays.
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  await shot(page, 'login-dark')
  await fillLogin(page, user.username, user.password)
  await expect(page.getByTestId('screen-title')).toHaveText('Rapporti')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')

  // A fresh browser (nothing in its storage) gets them from the server after sign-in.
  const other = await browser.newContext({ locale: 'en-US' })
  const page2 = await other.newPage()
  await page2.goto('/login')
  await expect(page2.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
  await expect(page2.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await fillLogin(page2, user.username, user.password)
  await expect(page2.getByTestId('screen-title')).toHaveText('Rapporti')
  await expect(page2.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  await expect(page2.getByTestId('area-home')).toHaveText('Rapporti')
  await other.close()

  // Back to English and light.
  await chooseInUserMenu(page, 'English')
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')
  await chooseInUserMenu(page, 'Light')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
})

test('home page preference overrides the scope priority and persists', async ({ page, baseURL }) => {
  const user = await createReadyUser(baseURL!, 'quality reporting')
  await signIn(page, user.username, user.password)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)

  await page.getByTestId('user-menu').click()
  const menu = page.getByRole('menu')
  await expect(menu).toContainText('Home page')
  // Only the destinations the scope allows are offered.
  await expect(menu.getByRole('menuitem', { name: /Settings|Library|Operator|Production|Traceability/ })).toHaveCount(0)
  await expect(menu.getByRole('menuitem', { name: '✓ Automatic' })).toBeVisible()
  await menu.getByRole('menuitem', { name: 'Reports' }).click()

  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menuitem', { name: '✓ Reports' })).toBeVisible()
  await page.keyboard.press('Escape')

  await signOut(page)
  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(/\/app\/report\/production$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')

  // Back to automatic: the scope priority again.
  await chooseInUserMenu(page, 'Automatic')
  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menuitem', { name: '✓ Automatic' })).toBeVisible()
  await page.keyboard.press('Escape')
  await signOut(page)
  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
})
