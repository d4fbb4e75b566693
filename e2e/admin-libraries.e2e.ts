import { expect, type Page, test } from '@playwright/test'
import { pngBytes } from '../src-server/test/png'
import { ADMIN_PASSWORD, openArea, SHOTS_DIR, signIn, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

/** What the user sees at 1280x800 (a full-page shot would paint the fixed header mid-page once scrolled). */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/${name}.png` })

const notice = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text })

/** Into the admin area and one of its tabs, the way a person gets there (no reload, which would lock). */
async function openAdminTab(page: Page, area: string, tab: string) {
  await openArea(page, area)
  await page.getByRole('tab', { name: tab }).click()
}

// Each test walks a whole library screen by screen: more than a minute on a busy 2-core machine.
test.describe.configure({ timeout: 120_000 })

test('field library -> operation with an image instruction and a mandatory form field; duplicate name refused', async ({ page }) => {
  const fieldName = uniqueName('Matricola motore')
  const operationName = uniqueName('Rivettatura')
  await signIn(page, 'admin', ADMIN_PASSWORD)

  // A mandatory field in the form field library.
  await openAdminTab(page, 'Settings', 'Form fields')
  await expect(page.getByRole('heading', { name: 'Form fields' })).toBeVisible()
  // Found by name: other specs add fields to the shared list, and its first page moves.
  await page.getByRole('searchbox', { name: 'Search' }).fill('Esito collaudo')
  await expect(page.getByRole('cell', { name: 'Esito collaudo' })).toBeVisible()
  await shot(page, 'libs-fields-list')
  await page.getByRole('link', { name: 'New field' }).click()
  await page.getByRole('button', { name: 'Create field' }).click()
  await expect(page.getByText('The name is required')).toBeVisible()
  await page.getByRole('textbox', { name: 'Name' }).fill(fieldName)
  await page.getByRole('switch', { name: 'Mandatory' }).check({ force: true })
  await page.getByRole('textbox', { name: 'Help text' }).fill('Read it from the motor plate')
  await shot(page, 'libs-field-new')
  await page.getByRole('button', { name: 'Create field' }).click()
  await expect(notice(page, 'Field created')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/field\/[0-9a-f-]{36}$/)
  await shot(page, 'libs-field-detail')

  // A field used by an operation cannot change type: the editor says so.
  await page.getByRole('link', { name: 'Form fields' }).first().click()
  await page.getByRole('searchbox', { name: 'Search' }).fill('Coppia di serraggio')
  // Exactly the demo's field: other specs add fields named after it with a suffix.
  await page.getByRole('cell', { name: 'Coppia di serraggio (Nm)', exact: true }).click()
  await expect(page.getByRole('combobox', { name: 'Type' })).toBeDisabled()
  await expect(page.getByText('The field is used by operations: its type cannot change.')).toBeVisible()
  await shot(page, 'libs-field-in-use')

  // The operation: an instruction with an uploaded image, a form step with the new field.
  await page.getByRole('tab', { name: 'Operations' }).click()
  // Found by name: other specs add operations (some named Montaggio_...) to the shared list.
  await page.getByRole('searchbox', { name: 'Search' }).fill('Montaggio')
  await expect(page.getByRole('cell', { name: 'Montaggio', exact: true })).toBeVisible()
  await shot(page, 'libs-operations-list')
  await page.getByRole('link', { name: 'New operation' }).click()
  await page.getByRole('textbox', { name: 'Operation name' }).fill(operationName)
  await page.getByRole('button', { name: 'Add instruction' }).click()
  await page.getByRole('textbox', { name: 'Title of step 1' }).fill('Place the rivets')
  await page.getByTestId('step-0').getByRole('textbox', { name: 'Text' }).fill('Six rivets on the flange.\nCheck the spacing.')
  await page
    .getByTestId('step-0')
    .locator('input[type=file]')
    .setInputFiles({ name: 'flange.png', mimeType: 'image/png', buffer: Buffer.from(pngBytes(240, 160, [30, 120, 200])) })
  const thumb = page.getByTestId('step-0').getByRole('img', { name: 'flange.png' })
  await expect(thumb).toBeVisible()

  await page.getByRole('button', { name: 'Add form' }).click()
  await page.getByRole('textbox', { name: 'Title of step 2' }).fill('Record the serial')
  // A form step without fields is not saved.
  await page.getByRole('button', { name: 'Create operation' }).click()
  await expect(page.getByText('Choose at least one field')).toBeVisible()
  await page.getByTestId('step-1').getByRole('combobox', { name: 'Form fields' }).click()
  await page.getByRole('option', { name: fieldName }).click()
  await page.keyboard.press('Escape')
  await expect(page.getByText('Choose at least one field')).toHaveCount(0)
  await shot(page, 'libs-operation-new')
  await page.getByRole('button', { name: 'Create operation' }).click()
  await expect(notice(page, 'Operation created')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/operations\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { name: operationName })).toBeVisible()

  // What was saved comes back: the image is served by /media/{key} as an image, the field is chosen.
  await expect(thumb).toBeVisible()
  const served = await thumb.evaluate(async (img: HTMLImageElement) => {
    const res = await fetch(img.src)
    return { status: res.status, type: res.headers.get('content-type'), width: img.naturalWidth }
  })
  expect(served).toEqual({ status: 200, type: 'image/png', width: 240 })
  await expect(page.getByTestId('step-1').getByText(fieldName)).toBeVisible()
  await shot(page, 'libs-operation-detail')
  await page.getByTestId('step-1').scrollIntoViewIfNeeded()
  await shot(page, 'libs-operation-detail-form-step')

  // Reorder: the form step goes first; saving keeps the order.
  await page.getByRole('button', { name: 'Move step 2 up' }).click()
  await expect(page.getByRole('textbox', { name: 'Title of step 1' })).toHaveValue('Record the serial')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(notice(page, 'Operation updated')).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Title of step 1' })).toHaveValue('Record the serial')

  // The same name again (other letter case) is refused with the server's message.
  await page.getByRole('link', { name: 'Operations' }).first().click()
  await page.getByRole('searchbox', { name: 'Search' }).fill(operationName)
  await expect(page.getByRole('cell', { name: operationName })).toBeVisible()
  await page.getByRole('link', { name: 'New operation' }).click()
  await page.getByRole('textbox', { name: 'Operation name' }).fill(operationName.toUpperCase())
  await page.getByRole('button', { name: 'Create operation' }).click()
  await expect(page.getByText('Operation name already in use')).toBeVisible()
  await shot(page, 'libs-operation-duplicate')

  // Leaving with unsaved changes asks first.
  await page.getByRole('tab', { name: 'Issue types' }).click()
  await expect(page.getByRole('dialog', { name: 'Unsaved changes' })).toBeVisible()
  await shot(page, 'libs-operation-unsaved')
  await page.getByRole('button', { name: 'Leave without saving' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/issue-types$/)
})

test('deleting an operation asks for confirmation', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await openAdminTab(page, 'Settings', 'Operations')
  await page.getByRole('link', { name: 'New operation' }).click()
  const name = uniqueName('Sbavatura')
  await page.getByRole('textbox', { name: 'Operation name' }).fill(name)
  await page.getByRole('button', { name: 'Create operation' }).click()
  await expect(notice(page, 'Operation created')).toBeVisible()
  await page.getByRole('button', { name: 'Delete operation' }).click()
  await expect(page).toHaveURL(/\/delete$/)
  const dialog = page.getByRole('dialog', { name: 'Delete operation' })
  await expect(dialog).toContainText(name)
  await shot(page, 'libs-operation-delete')
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(notice(page, 'Operation deleted')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/operations$/)
  await page.getByRole('searchbox', { name: 'Search' }).fill(name)
  await expect(page.getByRole('cell', { name })).toHaveCount(0)
})

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' })

  test('tipo di segnalazione: creato, nella lista, eliminato (non usato)', async ({ page }) => {
    const code = uniqueName('E2E').toUpperCase()
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await openAdminTab(page, 'Impostazioni', 'Tipi di segnalazione')
    await page.getByRole('searchbox', { name: 'Cerca' }).fill('Guasto macchina')
    await expect(page.getByRole('cell', { name: 'Guasto macchina' })).toBeVisible()
    await shot(page, 'libs-issue-types-list')
    await page.getByRole('link', { name: 'Nuovo tipo' }).click()
    await page.getByRole('button', { name: 'Crea tipo' }).click()
    await expect(page.getByText('Il codice è obbligatorio')).toBeVisible()
    await expect(page.getByText('Il nome è obbligatorio')).toBeVisible()
    await page.getByRole('textbox', { name: 'Codice' }).fill(code)
    await page.getByRole('textbox', { name: 'Nome' }).fill('Perdita olio')
    await page.getByRole('textbox', { name: 'Chiudere entro (ore)' }).fill('12')
    await page.getByRole('combobox', { name: 'Collegata a' }).click()
    await page.getByRole('option', { name: 'Lavoro', exact: true }).click()
    await page.getByRole('switch', { name: 'Critica' }).check({ force: true })
    await shot(page, 'libs-issue-type-new')
    await page.getByRole('button', { name: 'Crea tipo' }).click()
    await expect(notice(page, 'Tipo di segnalazione creato')).toBeVisible()
    await expect(page.getByRole('heading', { name: `${code} · Perdita olio` })).toBeVisible()
    await shot(page, 'libs-issue-type-detail')

    // The same code again is refused.
    await page.getByRole('link', { name: 'Tipi di segnalazione' }).first().click()
    await page.getByRole('searchbox', { name: 'Cerca' }).fill(code)
    await expect(page.getByRole('row', { name: new RegExp(code) })).toContainText('12 h')
    await page.getByRole('link', { name: 'Nuovo tipo' }).click()
    await page.getByRole('textbox', { name: 'Codice' }).fill(code.toLowerCase())
    await page.getByRole('textbox', { name: 'Nome' }).fill('Doppione')
    await page.getByRole('button', { name: 'Crea tipo' }).click()
    await expect(page.getByText('Codice del tipo di segnalazione già in uso')).toBeVisible()
    // Cancelling a new type goes back to the list without asking.
    await page.getByRole('button', { name: 'Annulla' }).click()
    await expect(page).toHaveURL(/\/app\/admin\/issue-types$/)

    // Delete the unused type.
    await page.getByRole('searchbox', { name: 'Cerca' }).fill(code)
    await page.getByRole('cell', { name: code }).click()
    await page.getByRole('button', { name: 'Elimina tipo' }).click()
    const dialog = page.getByRole('dialog', { name: 'Elimina tipo di segnalazione' })
    await expect(dialog).toContainText(code)
    await shot(page, 'libs-issue-type-delete')
    await dialog.getByRole('button', { name: 'Elimina' }).click()
    await expect(notice(page, 'Tipo di segnalazione eliminato')).toBeVisible()
    await expect(page).toHaveURL(/\/app\/admin\/issue-types$/)
    await expect(page.getByRole('cell', { name: code })).toHaveCount(0)

    // The operation library in Italian too.
    await page.getByRole('tab', { name: 'Operazioni' }).click()
    await page.getByRole('searchbox', { name: 'Cerca' }).fill('Montaggio')
    await page.getByRole('cell', { name: 'Montaggio', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Passi predefiniti della fase' })).toBeVisible()
    await expect(page.getByTestId('step-2')).toContainText('Coppia di serraggio (Nm)')
    await shot(page, 'libs-operation-detail-it')
  })
})
