import { expect, type Page, test } from '@playwright/test'
import { adminApi, chooseInUserMenu, createReadyUser, DEMO_PASSWORD, fillLogin, inArea, openArea, shot, signIn } from './helpers'

const SNAPSHOT_KEY = 'mes.temp-session'
const lockScreen = (page: Page) => page.getByRole('dialog', { name: 'Session locked' })
const apiStatus = (page: Page, path: string) => page.evaluate(async (p) => (await fetch(p)).status, path)

async function unlock(page: Page, password: string) {
  await lockScreen(page).getByRole('textbox', { name: 'Password' }).fill(password)
  await lockScreen(page).getByRole('button', { name: 'Unlock' }).click()
}

/** Locks the session on the server only (as after the idle timeout), behind the page's back. */
async function lockOnServer(page: Page) {
  const status = await page.evaluate(async () => (await fetch('/api/session/lock', { method: 'POST' })).status)
  expect(status).toBeLessThan(300)
}

/** Ages the snapshot the app writes on unload (this listener runs after the app's own). */
async function ageSnapshotOnUnload(page: Page, ageMs: number) {
  await page.evaluate(
    ({ key, ageMs }) => {
      window.addEventListener('pagehide', () => {
        const raw = localStorage.getItem(key)
        if (!raw) return
        const snap = JSON.parse(raw)
        snap.last_interaction = Date.now() - ageMs
        localStorage.setItem(key, JSON.stringify(snap))
      })
    },
    { key: SNAPSHOT_KEY, ageMs },
  )
}

test('idle lock after 15 minutes (Playwright clock); wrong password stays locked; the API answers 423 meanwhile', async ({ page }) => {
  await page.clock.install()
  await signIn(page, 'operatore1')
  await expect(page.getByTestId('screen-title')).toHaveText('Operator')
  await expect(lockScreen(page)).toHaveCount(0)

  // 14 minutes without activity: still open.
  await page.clock.fastForward('14:00')
  await page.clock.runFor(6_000)
  await expect(lockScreen(page)).toHaveCount(0)
  expect(await apiStatus(page, '/api/whoami')).toBe(200)

  await page.clock.fastForward('02:00')
  await expect(lockScreen(page)).toBeVisible()
  await expect(lockScreen(page)).toContainText('Marco Rossi')
  await shot(page, 'lock-screen')
  // The server holds the lock too: a direct call is refused while locked.
  await expect.poll(() => apiStatus(page, '/api/whoami')).toBe(423)
  const body = await page.evaluate(async () => (await fetch('/api/whoami')).json())
  expect(body.detail.code).toBe('SESSION_LOCKED')

  await unlock(page, 'wrong-password')
  await expect(lockScreen(page).getByRole('alert')).toHaveText('Wrong password')
  await expect(lockScreen(page)).toBeVisible()
  expect(await apiStatus(page, '/api/whoami')).toBe(423)

  await unlock(page, DEMO_PASSWORD)
  await expect(lockScreen(page)).toHaveCount(0)
  await expect(page).toHaveURL(inArea('/app/operator'))
  await expect(page.getByTestId('screen-title')).toHaveText('Operator')
  expect(await apiStatus(page, '/api/whoami')).toBe(200)

  // Unlocking restarts the idle timer.
  await page.clock.fastForward('10:00')
  await page.clock.runFor(6_000)
  await expect(lockScreen(page)).toHaveCount(0)
})

test('activity keeps the session open past the idle timeout', async ({ page }) => {
  await page.clock.install()
  await signIn(page, 'operatore1')
  for (let i = 0; i < 3; i++) {
    await page.clock.fastForward('08:00')
    await page.mouse.move(100 + i * 10, 200)
    await page.mouse.move(300, 300 + i * 10)
  }
  await page.clock.runFor(6_000)
  // 24 minutes since sign-in, but never 15 idle.
  await expect(lockScreen(page)).toHaveCount(0)
  await expect(page.getByTestId('screen-title')).toHaveText('Operator')
})

test('reload lock: a reload shows the lock screen; unlocking returns to the same page', async ({ page }) => {
  await signIn(page, 'capoturno')
  await openArea(page, 'Quality')
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await page.reload()
  await expect(lockScreen(page)).toBeVisible()
  await expect(lockScreen(page)).toContainText('Davide Marini')
  await expect.poll(() => apiStatus(page, '/api/whoami')).toBe(423)
  await unlock(page, DEMO_PASSWORD)
  await expect(lockScreen(page)).toHaveCount(0)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
})

test('lock screen: "close the session and start another" ends the session', async ({ page }) => {
  await signIn(page, 'tracciabilita')
  await page.reload()
  await expect(lockScreen(page)).toBeVisible()
  await lockScreen(page).getByRole('button', { name: 'Close the session and start another' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(lockScreen(page)).toHaveCount(0)
  expect(await apiStatus(page, '/api/whoami')).toBe(401)
  await fillLogin(page, 'qualita', DEMO_PASSWORD)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await expect(lockScreen(page)).toHaveCount(0)
})

// With the server already locked, whoami answers 423 with the username only: the full name on the
// lock screen can only come from the restored snapshot.
test('snapshot within 5 minutes: consumed on reload and restored locked, with the session it saved', async ({ page }) => {
  await signIn(page, 'capoturno')
  await openArea(page, 'Quality')
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await page.mouse.move(200, 200)
  await ageSnapshotOnUnload(page, 4 * 60_000 + 50_000)
  await lockOnServer(page)

  await page.reload()
  await expect(lockScreen(page)).toContainText('Davide Marini')
  expect(await page.evaluate((k) => localStorage.getItem(k), SNAPSHOT_KEY)).toBeNull()
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)

  await unlock(page, DEMO_PASSWORD)
  await expect(lockScreen(page)).toHaveCount(0)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
})

test('snapshot older than 5 minutes: ignored and removed; the reload still locks', async ({ page }) => {
  await signIn(page, 'capoturno')
  await ageSnapshotOnUnload(page, 5 * 60_000 + 10_000)
  await lockOnServer(page)

  await page.reload()
  // Nothing restored: the lock screen only knows the username the server gave.
  await expect(lockScreen(page)).toContainText('capoturno')
  await expect(lockScreen(page)).not.toContainText('Davide Marini')
  expect(await page.evaluate((k) => localStorage.getItem(k), SNAPSHOT_KEY)).toBeNull()

  await unlock(page, DEMO_PASSWORD)
  await expect(lockScreen(page)).toHaveCount(0)
  await expect(page.getByTestId('user-menu')).toContainText('Davide')
  await expect(page.getByTestId('screen-title')).toHaveText('Operator')
})

test('a typed address wins over the snapshot of the previous screen', async ({ page }) => {
  await signIn(page, 'capoturno')
  await expect(page).toHaveURL(inArea('/app/operator'))
  await page.mouse.move(200, 200)
  await page.goto('/app/quality')
  await expect(lockScreen(page)).toContainText('Davide Marini')
  expect(await page.evaluate((k) => localStorage.getItem(k), SNAPSHOT_KEY)).toBeNull()
  await unlock(page, DEMO_PASSWORD)
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Quality')
})

test('no snapshot is written on the login screen', async ({ page }) => {
  await page.goto('/login')
  await page.reload()
  expect(await page.evaluate((k) => localStorage.getItem(k), SNAPSHOT_KEY)).toBeNull()
})

test('401 -> signed out with the "session terminated" notice', async ({ page, baseURL }) => {
  const user = await createReadyUser(baseURL!, 'traceability')
  // The screen's own data answered before the session ends, so the 401 below is the theme
  // change's, as a person would meet it (not the screen's first query, still on its way).
  const screenData = page.waitForResponse((r) => r.url().includes('/api/trpc/') && !r.url().includes('/api/trpc/session.'))
  await signIn(page, user.username, user.password)
  await screenData
  // The session is ended elsewhere (an admin deletes it).
  const who = await page.request.get('/api/whoami')
  const sessionKey = (await who.json()).detail.session_key as string
  const admin = await adminApi(baseURL!)
  expect((await admin.delete(`/api/session/${sessionKey}`)).status()).toBe(200)

  // The next call (changing the theme PATCHes the preferences) gets 401.
  await chooseInUserMenu(page, 'Dark')
  await expect(page).toHaveURL(/\/login\?reason=session-terminated$/)
  await expect(page.getByTestId('login-notice')).toHaveText('Session terminated: sign in again')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(/\/app\/traceability$/)
  await expect(lockScreen(page)).toHaveCount(0)
})

test('401 after a logout from another tab of the same browser', async ({ page, baseURL }) => {
  const user = await createReadyUser(baseURL!, 'quality')
  await signIn(page, user.username, user.password)
  // The home screen (the issues overview) has loaded: the next request is the user's own.
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  await page.waitForLoadState('networkidle')
  // Same cookie, another request: the token stops working.
  const res = await page.request.post('/api/logout', { headers: { origin: baseURL! } })
  expect(res.status()).toBe(200)
  // Two paths lead to the same screen: a background request of the page meets the 401 first and
  // the app signs out by itself (the user menu leaves the page), or the user's next action does.
  const notice = page.getByTestId('login-notice')
  await expect(notice.or(page.getByTestId('user-menu'))).toBeVisible()
  try {
    await page.getByTestId('user-menu').click({ timeout: 5_000 })
    await page.getByRole('menuitem', { name: /^(✓ )?English$/ }).click({ timeout: 5_000 })
  } catch {
    // The app signed out by itself meanwhile; the URL check below tells.
  }
  await expect(page).toHaveURL(/\/login\?reason=session-terminated$/)
  await expect(notice).toHaveText(/^(Session terminated: sign in again|Sessione terminata: accedi di nuovo)$/)
})
