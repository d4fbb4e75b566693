import { type Browser, expect, type Page, test } from '@playwright/test'
import { chooseInUserMenu, createReadyUser, fillLogin, shot, signIn, uniqueName } from './helpers'

const VIEWPORT = { width: 1280, height: 800 }
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** A second browser, as the new user would have on their own machine. */
async function otherBrowser(browser: Browser) {
  const context = await browser.newContext({ locale: 'en-US', viewport: VIEWPORT })
  return { context, page: await context.newPage() }
}

/** In-app navigation: a page load would bring the lock screen (SPEC 4). */
async function openUsers(page: Page) {
  await page.getByRole('tab', { name: /^(Users|Utenti)$/ }).click()
  await expect(page).toHaveURL(/\/app\/admin\/users$/)
}

async function openUserFromList(page: Page, username: string) {
  await page.getByRole('textbox', { name: /^(Search|Cerca)$/ }).fill(username)
  await expect(page).toHaveURL(new RegExp(`q=${username}`))
  const row = page.getByRole('row').filter({ hasText: username })
  await expect(row).toHaveCount(1)
  await row.click()
  await expect(page.getByRole('heading', { name: username })).toBeVisible()
}

test.describe('admin: users library', () => {
  test.use({ viewport: VIEWPORT })

  test('create an operator with a temporary password, forced change at first sign-in, archive and restore', async ({ page, browser, baseURL }) => {
    test.setTimeout(240_000)
    // An admin of its own, so that its language choice leaves the shared admin alone.
    const admin = await createReadyUser(baseURL!, 'admin', { name: 'Ada', surname: 'Amministratrice' })
    await signIn(page, admin.username, admin.password)
    await openUsers(page)
    await expect(page.getByRole('tab', { name: 'Users', selected: true })).toBeVisible()
    // The demo operators found by searching: other specs add users that sort before them.
    await page.getByLabel('Search').fill('operatore')
    await expect(page.getByRole('row').filter({ hasText: 'operatore1' })).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: 'operatore1' })).toContainText('Assemblaggio')
    await shot(page, 'users-list-en')

    // The search runs on the server: only matching rows stay.
    await page.getByLabel('Search').fill('bianchi')
    await expect(page.getByRole('row').filter({ hasText: 'operatore2' })).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: 'operatore1' })).toHaveCount(0)
    await page.getByLabel('Search').fill('operatore')
    await expect(page.getByRole('row').filter({ hasText: 'operatore1' })).toBeVisible()

    // New user: the rules show next to their fields before anything is sent.
    await page.getByRole('link', { name: 'New user' }).click()
    await expect(page).toHaveURL(/\/app\/admin\/users\/new$/)
    await page.getByRole('checkbox', { name: 'Operator' }).uncheck()
    await page.getByRole('button', { name: 'Create user' }).click()
    await expect(page.getByText('Username required')).toBeVisible()
    await expect(page.getByText('Select at least one permission')).toBeVisible()

    const username = uniqueName('op')
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Name', { exact: true }).fill('Olga')
    await page.getByLabel('Surname').fill('Operaia')
    await page.getByLabel('Email').fill(`${username}@plant.test`)
    await page.getByRole('combobox', { name: 'Department' }).click()
    await page.getByRole('option', { name: 'Assemblaggio (ASM)' }).click()
    await page.getByLabel('Hourly cost (€/h)').fill('27.5')
    await page.getByRole('checkbox', { name: 'Operator' }).check()
    await page.getByRole('button', { name: 'Create user' }).click()

    const dialog = page.getByRole('dialog', { name: 'User created' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('It is shown only now')
    await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible()
    const tempPassword = (await dialog.getByTestId('temp-password').textContent())?.trim() ?? ''
    expect(tempPassword).toMatch(/^[A-Za-z0-9]{12}$/)
    await shot(page, 'users-temp-password-en')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect(page).toHaveURL(/\/app\/admin\/users\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { name: username })).toBeVisible()
    await expect(page.getByLabel('Hourly cost (€/h)')).toHaveValue('27.5')
    await expect(page.getByRole('combobox', { name: 'Department' })).toHaveValue('Assemblaggio (ASM)')
    // Nothing changed yet: nothing to save (SPEC 5).
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled()
    await page.getByLabel('Surname').fill('Operaia Rossi')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('User updated')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled()
    await shot(page, 'users-detail-en')

    // The new operator signs in elsewhere with the temporary password and must replace it.
    const op = await otherBrowser(browser)
    await op.page.goto('/login')
    await fillLogin(op.page, username, tempPassword)
    await expect(op.page.getByText('Change the temporary password')).toBeVisible()
    await op.page.getByLabel('Current password').fill(tempPassword)
    await op.page.getByLabel(/^New password/).fill('operaia-password-1')
    await op.page.getByLabel('Repeat the new password').fill('operaia-password-1')
    await op.page.getByRole('button', { name: 'Change password' }).click()
    await expect(op.page).toHaveURL(/\/app\/operator/)

    // The list now shows them signed in.
    await page.getByRole('link', { name: 'Users' }).click()
    await page.getByLabel('Search').fill(username)
    await expect(page).toHaveURL(new RegExp(`q=${username}`))
    const row = page.getByRole('row').filter({ hasText: username })
    await expect(row).toContainText('Assemblaggio')
    await expect(row).toContainText('Operator')
    await expect(row.getByRole('cell').nth(5)).toHaveText('EnabledSigned in')

    // Delete = archive: gone from the list, cannot sign in.
    await row.click()
    await page.getByRole('link', { name: 'Delete' }).click()
    await expect(page).toHaveURL(/\/delete$/)
    const confirm = page.getByRole('dialog', { name: 'Delete user' })
    await expect(confirm).toContainText(username)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('User deleted')).toBeVisible()
    await expect(page).toHaveURL(/\/app\/admin\/users(\?.*)?$/)
    await page.getByLabel('Search').fill(username)
    await expect(page.getByText('No user matches the filters')).toBeVisible()

    await op.page.reload()
    await expect(op.page).toHaveURL(/\/login/)
    await fillLogin(op.page, username, 'operaia-password-1')
    await expect(op.page.getByText('Incorrect username or password')).toBeVisible()

    // Both languages: the rest in Italian.
    await chooseInUserMenu(page, 'Italiano')
    await expect(page.getByRole('link', { name: 'Nuovo utente' })).toBeVisible()
    await page.getByRole('combobox', { name: 'Archivio' }).click()
    await page.getByRole('option', { name: 'Eliminati' }).click()
    await page.getByLabel('Cerca').fill(username)
    await expect(page).toHaveURL(new RegExp(`q=${username}`))
    const archived = page.getByRole('row').filter({ hasText: username })
    await expect(archived.getByRole('cell').nth(5)).toHaveText('Eliminato')
    await shot(page, 'users-list-archived-it')
    await archived.getByRole('button', { name: `Azioni per ${username}` }).click()
    await page.getByRole('menuitem', { name: 'Ripristina' }).click()
    await expect(page.getByText('Utente ripristinato')).toBeVisible()
    await expect(page.getByText('Nessun utente corrisponde ai filtri')).toBeVisible()

    // Restored: the operator signs in again.
    await fillLogin(op.page, username, 'operaia-password-1')
    await expect(op.page).toHaveURL(/\/app\/operator/)

    // Reset password (Italian): a new temporary password, the operator's session ends.
    await page.getByRole('combobox', { name: 'Archivio' }).click()
    await page.getByRole('option', { name: 'Attivi' }).click()
    await openUserFromList(page, username)
    await shot(page, 'users-detail-it')
    await page.getByRole('link', { name: 'Reimposta password' }).click()
    await page.getByRole('dialog', { name: 'Reimposta password' }).getByRole('button', { name: 'Reimposta password' }).click()
    const reset = page.getByRole('dialog', { name: 'Password reimpostata' })
    await expect(reset).toContainText('Viene mostrata solo ora')
    const second = (await reset.getByTestId('temp-password').textContent())?.trim() ?? ''
    expect(second).toMatch(/^[A-Za-z0-9]{12}$/)
    expect(second).not.toBe(tempPassword)
    await shot(page, 'users-reset-password-it')
    await reset.getByRole('button', { name: 'Fatto' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)

    await op.page.reload()
    await expect(op.page).toHaveURL(/\/login/)
    await fillLogin(op.page, username, second)
    await expect(op.page.getByText('Change the temporary password')).toBeVisible()
    await op.context.close()
  })

  test('an admin cannot delete, disable or reset themselves', async ({ page, baseURL }) => {
    const admin = await createReadyUser(baseURL!, 'admin', { name: 'Ugo', surname: 'Unico' })
    await signIn(page, admin.username, admin.password)
    await openUsers(page)
    await openUserFromList(page, admin.username)
    await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Reset password' })).toBeDisabled()
    await expect(page.getByRole('switch', { name: 'Enabled' })).toBeDisabled()
    await expect(page.getByRole('checkbox', { name: 'Administration' })).toBeDisabled()
    // A picture: refused when it is not an image, shown at once when it is.
    const fileInput = page.locator('input[type=file]')
    await fileInput.setInputFiles({ name: 'not-an-image.png', mimeType: 'image/png', buffer: Buffer.from('just text') })
    await expect(page.getByText('The file is not a valid image')).toBeVisible()
    await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') })
    await expect(page.getByText('Picture updated')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Change picture' })).toBeVisible()
    await expect(page.locator('img[src^="/media/users/"]')).toBeVisible()
    // The server says the same when asked directly.
    const res = await page.request.post(`/api/user/${admin.key}/archive`, { headers: { origin: baseURL! } })
    expect(res.status()).toBe(422)
    expect((await res.json()).detail.code).toBe('CANNOT_ARCHIVE_SELF')
  })
})
