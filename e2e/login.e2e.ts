import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD, createUser, DEMO_PASSWORD, fillLogin, inArea, shot, signIn } from './helpers'

test.describe('homepage by scope priority (operator > production > library > admin > quality > traceability > reporting)', () => {
  const cases = [
    { user: 'operatore1', path: '/app/operator', title: 'Operator', nav: ['Operator'] },
    { user: 'capoturno', path: '/app/operator', title: 'Operator', nav: ['Operator', 'Production', 'Quality', 'Audit trail'] },
    { user: 'produzione', path: '/app/production', title: 'Production', nav: ['Production'] },
    { user: 'libreria', path: '/app/library', title: 'Library', nav: ['Library'] },
    { user: 'qualita', path: '/app/quality', title: 'Quality', nav: ['Quality', 'Audit trail'] },
    { user: 'tracciabilita', path: '/app/traceability', title: 'Traceability', nav: ['Traceability'] },
    { user: 'rapporti', path: '/app/report', title: 'Reports', nav: ['Reports'] },
  ]
  for (const c of cases) {
    test(`${c.user} lands on ${c.path}`, async ({ page }) => {
      await signIn(page, c.user)
      await expect(page).toHaveURL(inArea(c.path))
      await expect(page.getByTestId('screen-title')).toHaveText(c.title)
      // The navigation offers exactly the areas the scope allows; a user of one area has none (the work gets the width).
      if (c.nav.length > 1) {
        await page.getByTestId('nav-toggle').click()
        await expect(page.getByRole('navigation').getByRole('link')).toHaveText(c.nav)
      } else {
        await expect(page.getByTestId('nav-toggle')).toHaveCount(0)
        await expect(page.getByRole('navigation')).toHaveCount(0)
      }
    })
  }

  test('admin (every permission) lands on the operator area and sees every area', async ({ page }) => {
    await signIn(page, 'admin', 'e2e-admin-password')
    await expect(page).toHaveURL(inArea('/app/operator'))
    await page.getByTestId('nav-toggle').click()
    await expect(page.getByRole('navigation').getByRole('link')).toHaveCount(9)
  })

  test('a warehouse-only user lands on the warehouse area (issue 14)', async ({ page }) => {
    await signIn(page, 'magazzino')
    await expect(page).toHaveURL(inArea('/app/warehouse'))
    await expect(page.getByTestId('screen-title')).toHaveText('Warehouse')
    await shot(page, 'warehouse-home')
  })
})

test('wrong password: English message, stays on the login screen, password cleared', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await expect(page).toHaveTitle('progress')
  await shot(page, 'login-en')
  await fillLogin(page, 'operatore2', 'not-the-password')
  await expect(page.getByRole('alert')).toHaveText('Incorrect username or password')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('textbox', { name: 'Password' })).toHaveValue('')
  // An unknown user gets the very same answer.
  await fillLogin(page, 'nobody-here', 'whatever1')
  await expect(page.getByRole('alert')).toHaveText('Incorrect username or password')
})

test.describe('Italian browser', () => {
  test.use({ locale: 'it-IT' })

  test('login screen and wrong password in Italian', async ({ page }) => {
    await page.goto('/login')
    await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'it')
    await fillLogin(page, 'operatore2', 'sbagliata')
    await expect(page.getByRole('alert')).toHaveText('Username o password errati')
    await shot(page, 'login-it-wrong-password')
  })

  test('signed out: a protected path asks to log in first, in Italian', async ({ page }) => {
    await page.goto('/app/library/')
    await expect(page.getByTestId('login-notice')).toHaveText('Effettua prima il login')
    await expect(page).toHaveURL(/\/login\?redirect_to=%2Fapp%2Flibrary%2F/)
  })
})

test('redirect_to round trip: signed out -> login first -> signed in on the requested path', async ({ page }) => {
  await page.goto('/app/library/')
  await expect(page).toHaveURL(/\/login\?/)
  expect(new URL(page.url()).searchParams.get('redirect_to')).toMatch(/^\/app\/library\/?$/)
  await expect(page.getByTestId('login-notice')).toHaveText('Login first')
  // The short alert shows too.
  await expect(page.locator('.mantine-Notification-root', { hasText: 'Login first' })).toBeVisible()
  // admin's own homepage is the operator area: landing in the library proves redirect_to.
  await fillLogin(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(inArea('/app/library'))
  await expect(page).toHaveTitle('Library')
})

test('redirect_to keeps the query of the requested path', async ({ page }) => {
  await page.goto('/app/report?period=week')
  await expect(page).toHaveURL(/\/login\?/)
  expect(new URL(page.url()).searchParams.get('redirect_to')).toBe('/app/report?period=week')
  await fillLogin(page, 'rapporti', DEMO_PASSWORD)
  // Rapporti opens on its production report and keeps the query.
  await expect(page).toHaveURL(/\/app\/report\/production\?period=week$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')
})

test('redirect_to a refused area: "Not authorised", then the homepage', async ({ page }) => {
  await page.goto('/login?redirect_to=%2Fapp%2Fadmin')
  await fillLogin(page, 'rapporti', DEMO_PASSWORD)
  await expect(page.locator('.mantine-Notification-root', { hasText: 'Not authorised' }).first()).toBeVisible()
  await expect(page).toHaveURL(inArea('/app/report'))
  await expect(page.getByTestId('screen-title')).toHaveText('Reports')
})

test('an unsafe redirect_to is ignored', async ({ page }) => {
  await page.goto('/login?redirect_to=%2F%2Fevil.example%2Fx')
  await fillLogin(page, 'qualita', DEMO_PASSWORD)
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/app\/quality\/issues$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
})

test('a temporary password must be changed at first sign-in, then the user reaches the area', async ({ page, baseURL }) => {
  const user = await createUser(baseURL!, 'quality', { name: 'Nuovo', surname: 'Utente' })
  await page.goto('/login')
  await fillLogin(page, user.username, user.password)
  await expect(page.getByRole('heading', { name: 'Change the temporary password' })).toBeVisible()
  await expect(page.getByRole('navigation')).toHaveCount(0)
  await shot(page, 'forced-password-change')
  // The API refuses everything else until then.
  const refused = await page.evaluate(async (key) => {
    const body = new FormData()
    body.append('new_image', new Blob(['x'], { type: 'image/png' }), 'x.png')
    const res = await fetch(`/api/user/${key}/image`, { method: 'PUT', body })
    return { status: res.status, code: (await res.json()).detail.code }
  }, user.key)
  expect(refused).toEqual({ status: 403, code: 'PASSWORD_CHANGE_REQUIRED' })

  await page.getByRole('textbox', { name: 'Current password' }).fill(user.password)
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short')
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('short')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert')).toHaveText('The new password needs at least 8 characters')

  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('brand-new-pass')
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('brand-new-pasS')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert')).toHaveText('The two passwords do not match')

  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('brand-new-pass')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
  await expect(page).toHaveURL(inArea('/app/quality'))

  // The temporary password no longer works; the new one does, without the change screen.
  await page.getByTestId('user-menu').click()
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await fillLogin(page, user.username, user.password)
  await expect(page.getByRole('alert')).toHaveText('Incorrect username or password')
  await fillLogin(page, user.username, 'brand-new-pass')
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
})

test('the temporary-password screen lets the user sign out instead', async ({ page, baseURL }) => {
  const user = await createUser(baseURL!, 'traceability')
  await page.goto('/login')
  await fillLogin(page, user.username, user.password)
  await expect(page.getByRole('heading', { name: 'Change the temporary password' })).toBeVisible()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await page.evaluate(async () => (await fetch('/api/whoami')).status)).toBe(401)
  // Still temporary: the next sign-in asks again.
  await fillLogin(page, user.username, user.password)
  await expect(page.getByRole('heading', { name: 'Change the temporary password' })).toBeVisible()
})
