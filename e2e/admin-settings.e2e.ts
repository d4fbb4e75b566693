import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { expect, type Page, test } from '@playwright/test'
import { pngBytes } from '../src-server/test/png'
import { ADMIN_PASSWORD, createReadyUser, ISOLATED, SHOTS_DIR, signIn } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

const png = (name: string, width: number, height: number, rgb: [number, number, number] = [0, 128, 128]) => ({
  name,
  mimeType: 'image/png',
  buffer: Buffer.from(pngBytes(width, height, rgb)),
})

/** What the admin sees in the 1280x800 window, from the top (or scrolled to the end). */
async function snap(page: Page, name: string, where: 'top' | 'bottom' = 'top') {
  await page.evaluate((w) => window.scrollTo(0, w === 'top' ? 0 : document.body.scrollHeight), where)
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png` })
}

async function unlock(page: Page, password: string, dialogName = 'Session locked', button = 'Unlock') {
  const dialog = page.getByRole('dialog', { name: dialogName })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Password' }).fill(password)
  await dialog.getByRole('button', { name: button }).click()
  await expect(dialog).toHaveCount(0)
}

/** A reload locks the session (SPEC 4): unlock it with the password on the lock screen. */
async function reloadAndUnlock(page: Page, password = ADMIN_PASSWORD) {
  await page.reload()
  await unlock(page, password)
}

/** Opening a URL directly loads the page anew, which locks the session like a reload. */
async function open(page: Page, path: string, password = ADMIN_PASSWORD, italian = false) {
  await page.goto(path)
  await unlock(page, password, italian ? 'Sessione bloccata' : 'Session locked', italian ? 'Sblocca' : 'Unlock')
}

// Each test walks several settings tabs with reloads and unlocks: past a minute on a busy 2-core machine.
test.describe.configure({ timeout: 120_000 })

test('API token: created in the UI, shown once, works as Bearer with its permissions; revoked -> 401', ISOLATED, async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await open(page, '/app/admin/general/api-token')
  await expect(page.getByRole('tab', { name: 'API tokens' })).toHaveAttribute('aria-selected', 'true')
  await page.getByRole('button', { name: 'New token' }).click()
  const modal = page.getByRole('dialog', { name: 'New API token' })

  // Nothing filled in: the form says what is missing and sends nothing.
  await modal.getByRole('button', { name: 'Create token' }).click()
  await expect(modal).toContainText('Enter a description')
  await expect(modal).toContainText('Select at least one permission')

  await modal.getByRole('textbox', { name: 'Description' }).fill('Line 3 PLC export')
  await modal.getByRole('checkbox', { name: 'Production' }).check()
  await modal.getByRole('checkbox', { name: 'Quality' }).check()
  await snap(page, 'settings-api-token-modal')

  // A failure of the call shows SPEC 8's message.
  await page.route('**/api/trpc/apiTokens.create**', (route) => route.abort())
  await modal.getByRole('button', { name: 'Create token' }).click()
  await expect(modal.getByRole('alert')).toContainText('API token cannot be created')
  await page.unroute('**/api/trpc/apiTokens.create**')

  await modal.getByRole('button', { name: 'Create token' }).click()
  const shown = page.getByRole('dialog', { name: 'Token created' })
  await expect(shown).toContainText('shown only this once')
  await expect(shown.getByRole('button', { name: 'Copy token' })).toBeVisible()
  const token = (await shown.getByTestId('api-token-value').innerText()).trim()
  expect(token).toMatch(/^mes_[a-z0-9]+\.[a-z0-9]+$/)
  await snap(page, 'settings-api-token-created')

  // The Bearer header decides who calls, whatever cookie the browser context holds.
  const bearer = { Authorization: `Bearer ${token}` }
  const who = await page.request.get('/api/whoami', { headers: bearer })
  expect(who.status()).toBe(200)
  const whoBody = await who.json()
  expect(whoBody.detail.session_key).toBeNull()
  // Exactly its permissions: production reads users, admin-only paths are refused.
  expect((await page.request.get('/api/user', { headers: bearer })).status()).toBe(200)
  expect((await page.request.get('/api/api-token', { headers: bearer })).status()).toBe(403)

  await shown.getByRole('button', { name: 'I have copied the token' }).click()
  const key = token.split('.')[0]!
  const row = page.getByTestId(`api-token-${key}`)
  await expect(row).toContainText('Line 3 PLC export')
  await expect(row).toContainText('Production')
  await expect(row).toContainText('Quality')
  await expect(row).toContainText('Active')
  // The token itself is never shown again.
  await expect(page.getByText(token)).toHaveCount(0)
  await snap(page, 'settings-api-token')

  await row.getByRole('button', { name: 'Revoke' }).click()
  const confirm = page.getByRole('dialog', { name: 'Revoke the token?' })
  await expect(confirm).toContainText('Line 3 PLC export')
  await confirm.getByRole('button', { name: 'Revoke' }).click()
  await expect(row).toContainText('Revoked')
  expect((await page.request.get('/api/whoami', { headers: bearer })).status()).toBe(401)
})

test('company: name and hourly cost saved; a 2:1 logo is refused, a square one accepted and removable', ISOLATED, async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await open(page, '/app/admin/general/company')
  const name = page.getByRole('textbox', { name: 'Company name' })
  await expect(name).toHaveValue('Officine Meccaniche Demo S.r.l.')
  const demoCompany = (await (await page.request.get('/api/settings')).json()).detail as { company_name: string; operator_hourly_cost: number }
  await name.fill('Officine Rossi S.p.A.')
  await page.getByRole('textbox', { name: 'Operator hourly cost' }).fill('27.5')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()

  const fileInput = page.locator('input[type="file"]')
  await fileInput.setInputFiles(png('wide.png', 200, 100))
  await expect(page.getByText('Preview of wide.png')).toBeVisible()
  // Said before any upload: the browser reads the image's size, and the upload button stays off.
  const notSquare = page.getByTestId('logo-not-square')
  await expect(notSquare).toContainText('Image not square')
  await expect(notSquare).toContainText('200×100 pixels')
  await expect(page.getByRole('button', { name: 'Upload logo' })).toBeDisabled()
  await snap(page, 'settings-company-logo-refused')
  const settingsAfterRefusal = await page.request.get('/api/settings')
  expect((await settingsAfterRefusal.json()).detail.logo_url).toBeNull()

  await page.getByRole('button', { name: 'Cancel' }).last().click()
  await page.locator('input[type="file"]').setInputFiles(png('square.png', 120, 120, [0, 150, 136]))
  await expect(notSquare).toHaveCount(0)
  await page.getByRole('button', { name: 'Upload logo' }).click()
  await expect(page.getByText('Logo updated')).toBeVisible()
  await expect(page.getByTestId('logo-preview')).toHaveAttribute('src', /^\/media\/settings\/logo-/)
  const natural = await page.getByTestId('logo-preview').evaluate((img: HTMLImageElement) => img.naturalWidth)
  expect(natural).toBe(120)

  await reloadAndUnlock(page)
  await expect(page.getByRole('textbox', { name: 'Company name' })).toHaveValue('Officine Rossi S.p.A.')
  // The unit shows beside the number, outside the typed text.
  await expect(page.getByRole('textbox', { name: 'Operator hourly cost' })).toHaveValue('27.5')
  await expect(page.getByTestId('logo-preview')).toHaveAttribute('src', /^\/media\/settings\/logo-/)
  await snap(page, 'settings-company')

  await page.getByRole('button', { name: 'Remove logo' }).click()
  await expect(page.getByText('Logo removed')).toBeVisible()
  await expect(page.getByText('No logo')).toBeVisible()

  // Put the demo company back, so a later run (or spec) finds the server as it started.
  const restored = await page.evaluate(async (company) => {
    const res = await fetch('/api/settings', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(company) })
    return res.status
  }, { company_name: demoCompany.company_name, operator_hourly_cost: demoCompany.operator_hourly_cost })
  expect(restored).toBe(200)
})

test('idle timeout and a default phase parameter persist after a reload', ISOLATED, async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await open(page, '/app/admin/general/other')
  const idle = page.getByRole('textbox', { name: 'Idle lock' })
  await expect(idle).toHaveValue('15')
  await idle.fill('30')
  await page.getByRole('switch', { name: 'Independent queue reordering' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await snap(page, 'settings-other')

  await page.getByRole('tab', { name: 'Default phase' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/general\/default-phase$/)
  await page.getByRole('textbox', { name: 'Standard processing time' }).fill('45')
  await page.getByText('Release batch', { exact: true }).click()
  const releaseQt = page.getByRole('textbox', { name: 'Release batch quantity' })
  await expect(releaseQt).toBeEnabled()
  // release_batch needs a release quantity above 0: the form says so before saving.
  await expect(page.getByText('the quantity must be greater than 0')).toBeVisible()
  await releaseQt.fill('12')
  await snap(page, 'settings-default-phase-dirty')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Default parameters saved')).toBeVisible()
  await snap(page, 'settings-default-phase')
  await snap(page, 'settings-default-phase-end', 'bottom')

  await reloadAndUnlock(page)
  await expect(page.getByRole('textbox', { name: 'Standard processing time' })).toHaveValue('45')
  await expect(page.getByRole('textbox', { name: 'Release batch quantity' })).toHaveValue('12')
  await expect(page.getByRole('radio', { name: 'Release batch' })).toBeChecked()
  await page.getByRole('tab', { name: 'Other' }).click()
  await expect(page.getByRole('textbox', { name: 'Idle lock' })).toHaveValue('30')
  await expect(page.getByRole('switch', { name: 'Independent queue reordering' })).toBeChecked()
  // The session's own idle timer follows the setting.
  const session = await page.evaluate(async () => {
    const who = await (await fetch('/api/whoami')).json()
    const res = await fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_key: who.detail.user_key }),
    })
    return (await res.json()).detail
  })
  expect(session.idle_lock_minutes).toBe(30)

  // Put the defaults back for the other tests (other specs add phases with the default parameters).
  await page.getByRole('textbox', { name: 'Idle lock' }).fill('15')
  await page.getByRole('switch', { name: 'Independent queue reordering' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  const restored = await page.evaluate(async (defaults) => {
    const res = await fetch('/api/settings/default-phase', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(defaults),
    })
    return res.status
  }, DEFAULT_PHASE_PARAMETERS)
  expect(restored).toBe(200)
})

test('departments: add, rename, delete; one assigned to a user cannot be deleted', ISOLATED, async ({ page, request }) => {
  // A demo department given to a user is in use (set up through the REST API as admin).
  const login = await request.post('/api/login', { data: { username: 'admin', password: ADMIN_PASSWORD } })
  const headers = { Authorization: `Bearer ${(await login.json()).detail.token}` }
  const departments = (await (await request.get('/api/department', { headers })).json()).detail as { _key: string; code: string }[]
  const asm = departments.find((d) => d.code === 'ASM')!
  const created = await request.post('/api/user', { headers, data: { username: `dep_${Date.now().toString(36)}`, scope: 'operator' } })
  expect(created.status()).toBe(201)
  const userKey = (await created.json()).detail._key
  expect((await request.patch(`/api/user/${userKey}`, { headers, data: { department_key: asm._key } })).status()).toBe(200)
  await request.post('/api/logout', { headers })

  await signIn(page, 'admin', ADMIN_PASSWORD)
  await open(page, '/app/admin/general/departments')
  const table = page.getByTestId('departments-table')
  await expect(table).toContainText('Assemblaggio')
  await expect(page.getByTestId('department-ASM').getByRole('button', { name: 'Delete ASM' })).toBeDisabled()

  await page.getByRole('textbox', { name: 'Code' }).fill('VRN')
  await page.getByRole('textbox', { name: 'Name' }).fill('Verniciatura')
  await page.getByRole('button', { name: 'Add department' }).click()
  await expect(page.getByText('Department VRN created')).toBeVisible()
  await expect(page.getByTestId('department-VRN')).toContainText('Verniciatura')

  // The same code in another case is refused by the server.
  await page.getByRole('textbox', { name: 'Code' }).fill('vrn')
  await page.getByRole('textbox', { name: 'Name' }).fill('Doppione')
  await page.getByRole('button', { name: 'Add department' }).click()
  await expect(page.getByText('Department code already in use')).toBeVisible()
  await page.getByRole('button', { name: 'CLOSE' }).click()
  await page.getByRole('textbox', { name: 'Code' }).fill('')
  await page.getByRole('textbox', { name: 'Name' }).fill('')

  await page.getByTestId('department-VRN').getByRole('button', { name: 'Edit VRN' }).click()
  const editing = page.getByTestId('department-editing')
  await editing.getByRole('textbox', { name: 'Name' }).fill('Verniciatura a polvere')
  await editing.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Department updated')).toBeVisible()
  await expect(page.getByTestId('department-VRN')).toContainText('Verniciatura a polvere')
  await snap(page, 'settings-departments')

  await page.getByTestId('department-VRN').getByRole('button', { name: 'Delete VRN' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete the department?' })
  await expect(confirm).toContainText('Department VRN (Verniciatura a polvere) will be deleted.')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Department VRN deleted')).toBeVisible()
  await expect(page.getByTestId('department-VRN')).toHaveCount(0)
})

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' })

  test('every tab reads in Italian', ISOLATED, async ({ page, baseURL }) => {
    const admin = await createReadyUser(baseURL!, 'admin', { name: 'Anna', surname: 'Amministra' })
    await signIn(page, admin.username, admin.password)
    await open(page, '/app/admin/general/company', admin.password, true)
    await expect(page.getByTestId('screen-title')).toHaveText('Impostazioni')
    await expect(page.getByRole('textbox', { name: 'Ragione sociale' })).toBeVisible()
    await expect(page.getByText("Un'immagine quadrata (proporzioni 1:1)")).toBeVisible()
    await page.locator('input[type="file"]').setInputFiles(png('largo.png', 300, 150))
    await expect(page.getByTestId('logo-not-square')).toContainText("L'immagine misura 300×150 pixel: il logo deve essere quadrato")
    await expect(page.getByRole('button', { name: 'Carica logo' })).toBeDisabled()
    await snap(page, 'settings-company-it')

    await page.getByRole('tab', { name: 'Fase predefinita' }).click()
    await expect(page.getByText('Stile di rilascio', { exact: true })).toBeVisible()
    // The unit (translated) shows beside the number, outside the typed text.
    await expect(page.getByRole('textbox', { name: 'Tempo massimo offline' })).toHaveValue(/^\d+$/)
    await expect(page.getByText('s/pz', { exact: true })).toBeVisible()
    await snap(page, 'settings-default-phase-it')

    await page.getByRole('tab', { name: 'Reparti' }).click()
    await expect(page.getByRole('button', { name: 'Aggiungi reparto' })).toBeVisible()
    await snap(page, 'settings-departments-it')

    await page.getByRole('tab', { name: 'Token API' }).click()
    await page.getByRole('button', { name: 'Nuovo token' }).click()
    const modal = page.getByRole('dialog', { name: 'Nuovo token API' })
    await modal.getByRole('textbox', { name: 'Descrizione' }).fill('Esportazione')
    await modal.getByRole('checkbox', { name: 'Magazzino' }).check()
    await page.route('**/api/trpc/apiTokens.create**', (route) => route.abort())
    await modal.getByRole('button', { name: 'Crea token' }).click()
    await expect(modal.getByRole('alert')).toContainText('Impossibile creare il token API')
    await snap(page, 'settings-api-token-it')
    await page.unroute('**/api/trpc/apiTokens.create**')
    await modal.getByRole('button', { name: 'Annulla' }).click()

    await page.getByRole('tab', { name: 'Altro' }).click()
    await expect(page.getByRole('textbox', { name: 'Blocco per inattività' })).toHaveValue('15')
    await snap(page, 'settings-other-it')
  })
})
