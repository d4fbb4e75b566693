import { expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * Input rules the admin meets on screen: an API token's expiration typed as a date or a SPEC 5
 * duration (1m = 30 days), and a username kept by an archived user.
 */
const DAY = 86_400_000
const pad = (n: number) => String(n).padStart(2, '0')
const ymd = (ms: number) => {
  const d = new Date(ms)
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`
}

async function openTokens(page: Page) {
  await page.getByRole('tab', { name: 'General' }).click()
  await page.getByRole('tab', { name: 'API tokens' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/general\/api-token$/)
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport })

    test('API token: the expiration typed as a duration or a date, previewed, refused when it is neither, kept as typed', async ({ page, baseURL }) => {
      const admin = await createReadyUser(baseURL!, 'admin')
      await signIn(page, admin.username, admin.password)
      await expect(page).toHaveURL(/\/app\/admin/)
      await openTokens(page)
      await page.getByRole('button', { name: 'New token' }).click()
      const modal = page.getByRole('dialog', { name: 'New API token' })
      await modal.getByRole('textbox', { name: 'Description' }).pressSequentially('Export for 1 month')
      await modal.getByRole('checkbox', { name: 'Reports' }).check()
      await modal.getByRole('combobox', { name: 'Validity' }).click()
      await page.getByRole('option', { name: 'Date or duration…' }).click()
      const expiration = modal.getByRole('textbox', { name: 'Expiration' })

      // Neither a date nor a duration: said when the field is left, nothing sent.
      await expiration.pressSequentially('2026/02/30')
      await modal.getByRole('textbox', { name: 'Description' }).click()
      const hint = 'Write a date (YYYY/MM/DD) or a duration such as 30d, 12h, 10min, 1m (30 days), 1y (360 days)'
      await expect(modal).toContainText(hint)
      await expiration.fill('')
      await expiration.pressSequentially('tomorrow')
      await modal.getByRole('button', { name: 'Create token' }).click()
      await expect(modal).toContainText(hint)
      await expect(page.getByRole('dialog', { name: 'Token created' })).toHaveCount(0)

      // 1m is a month of 30 days (SPEC 9), previewed before sending.
      await expiration.fill('')
      await expiration.pressSequentially('1m')
      const inAMonth = Date.now() + 30 * DAY
      await expect(modal).toContainText(`Expires on ${ymd(inAMonth)}`)
      await expect(modal).not.toContainText(hint)
      await page.screenshot({ path: `${SHOTS_DIR}/api-token-duration-${viewport.width}.png` })
      await modal.getByRole('button', { name: 'Create token' }).click()
      const shown = page.getByRole('dialog', { name: 'Token created' })
      await expect(shown).toContainText(`valid until ${ymd(inAMonth)}`)
      const token = (await shown.getByTestId('api-token-value').innerText()).trim()
      await shown.getByRole('button', { name: 'I have copied the token' }).click()

      // The server read "1m" itself: the token expires 30 days from when it was made.
      const api = await adminApi(baseURL!)
      const rows = (await (await api.get('/api/api-token')).json()).detail as { _key: string; expiration: number }[]
      const row = rows.find((r) => r._key === token.split('.')[0])!
      expect(Math.abs(row.expiration - inAMonth)).toBeLessThan(60_000)

      // A date is valid through that day.
      await page.getByRole('button', { name: 'New token' }).click()
      await modal.getByRole('textbox', { name: 'Description' }).pressSequentially('Until a day')
      await modal.getByRole('checkbox', { name: 'Warehouse' }).check()
      await modal.getByRole('combobox', { name: 'Validity' }).click()
      await page.getByRole('option', { name: 'Date or duration…' }).click()
      const day = ymd(Date.now() + 45 * DAY)
      await modal.getByRole('textbox', { name: 'Expiration' }).pressSequentially(day)
      await expect(modal).toContainText(`Expires on ${day} 23:59`)
      await modal.getByRole('button', { name: 'Create token' }).click()
      await expect(page.getByRole('dialog', { name: 'Token created' })).toContainText(`valid until ${day}`)
    })

    test('a username kept by an archived user: the form says it belongs to an archived user who can be restored', async ({ page, baseURL }) => {
      const api = await adminApi(baseURL!)
      const username = uniqueName('gone')
      const created = await api.post('/api/user', { data: { username, scope: 'operator' } })
      const key = (await created.json()).detail._key as string
      expect((await api.post(`/api/user/${key}/archive`)).status()).toBe(200)

      const admin = await createReadyUser(baseURL!, 'admin')
      await signIn(page, admin.username, admin.password)
      await expect(page).toHaveURL(/\/app\/admin/)
      await page.getByRole('tab', { name: 'Users' }).click()
      await page.getByRole('link', { name: 'New user' }).click()
      await page.getByLabel('Username').pressSequentially(username)
      await page.getByRole('checkbox', { name: 'Operator' }).check()
      await page.getByRole('button', { name: 'Create user' }).click()
      await expect(page.getByText('This username belongs to an archived user: restore that user instead of creating a new one')).toBeVisible()
      await expect(page).toHaveURL(/\/app\/admin\/users\/new$/)
      await page.screenshot({ path: `${SHOTS_DIR}/username-archived-${viewport.width}.png` })
    })
  })
}
