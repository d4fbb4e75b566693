import { expect, type Page, test } from '@playwright/test'
import { ISOLATED, shot, uniqueName } from './helpers'

/** Wrong sign-ins sent from this browser, so they count for the same (account, address) pair as its login form. */
async function wrongSignIn(page: Page, username: string): Promise<number> {
  return page.evaluate(async (u) => {
    const res = await fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u, password: 'not-the-password' }) })
    return res.status
  }, username)
}

/** Moves the test server's clock on (never back): the waits are sat out without real waiting. */
async function advanceServerClock(page: Page, ms: number) {
  expect((await page.request.post('/__e2e/clock', { data: { advance_ms: ms } })).status()).toBe(200)
}

// Back to real time after each test: only this test's counters were written in the moved time.
test.afterEach(async ({ request }) => {
  expect((await request.delete('/__e2e/clock')).status()).toBe(200)
})

/**
 * Builds a 16-second wait for `username` from this browser: 5 failures, then one more after each
 * wait (1, 2, 4, 8 s) has passed on the server's clock. Only this pair waits: the name is new.
 */
async function throttle(page: Page, username: string) {
  for (let i = 0; i < 5; i++) expect(await wrongSignIn(page, username)).toBe(401)
  for (const seconds of [1, 2, 4, 8]) {
    await advanceServerClock(page, seconds * 1000)
    expect(await wrongSignIn(page, username)).toBe(401)
  }
}

/** Types the credentials as a person does and presses the sign-in button. */
async function typeLogin(page: Page, username: string, password: string) {
  await page.getByRole('textbox', { name: 'Username' }).pressSequentially(username)
  await page.getByRole('textbox', { name: 'Password' }).pressSequentially(password)
  await page.getByRole('button', { name: /^(Sign in|Accedi)$/ }).click()
}

/** The seconds the alert names, from its text matched by `pattern` (first group). */
async function secondsIn(page: Page, pattern: RegExp): Promise<number> {
  const alert = page.getByRole('alert')
  await expect(alert).toHaveText(pattern)
  return Number(pattern.exec((await alert.textContent()) ?? '')![1])
}

test('a throttled sign-in says how long to wait (English)', ISOLATED, async ({ page }) => {
  const username = uniqueName('throttled')
  await page.goto('/login')
  await throttle(page, username)
  const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login')
  await typeLogin(page, username, 'whatever-password')
  expect((await refused).status()).toBe(429)
  const seconds = await secondsIn(page, /^Too many failed attempts: try again in (\d+) seconds?$/)
  expect(seconds).toBeGreaterThanOrEqual(1)
  expect(seconds).toBeLessThanOrEqual(16)
  await expect(page).toHaveURL(/\/login$/)
  await shot(page, 'login-throttled-en')
})

test.describe('Italian browser', () => {
  test.use({ locale: 'it-IT' })

  test('un accesso rallentato dice quanto aspettare (italiano)', ISOLATED, async ({ page }) => {
    const username = uniqueName('rallentato')
    await page.goto('/login')
    await throttle(page, username)
    await typeLogin(page, username, 'password-qualsiasi')
    const seconds = await secondsIn(page, /^Troppi tentativi falliti: riprova tra (\d+) second[oi]$/)
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(16)
    await page.setViewportSize({ width: 1024, height: 768 })
    await shot(page, 'login-throttled-it-1024')
  })
})
