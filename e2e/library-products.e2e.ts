import { expect, type Page, test } from '@playwright/test'
import { pngBytes } from '../src-server/test/png'
import { adminApi, openArea, SHOTS_DIR, signIn, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

/** What the user sees at 1280x800. */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/${name}.png` })
const fullShot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true })
const notice = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root', { hasText: text })

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`)

/** The list, through the navigation (a reload would lock the session). */
async function openLibrary(page: Page, label: string) {
  await openArea(page, label)
  await expect(page).toHaveURL(/\/app\/library\/product/)
}

/** The list's state filter (a segmented control). */
const stateFilter = (page: Page, label: string) => page.locator('.mantine-SegmentedControl-root').getByText(label, { exact: true }).click()

async function listCodes(page: Page): Promise<string[]> {
  return page.locator('table tbody tr td:nth-child(2)').allInnerTexts()
}

test('a product with tags, image, documents and custom data; unsaved changes; deactivate, trash and restore', async ({ page }) => {
  // About forty steps through the UI: a minute or more on a busy 2-core machine.
  test.setTimeout(120_000)
  const code = uniqueName('E2E-PMP').toUpperCase()
  const newTag = uniqueName('Serie')
  await signIn(page, 'libreria')
  await openLibrary(page, 'Library')
  await expect(page.getByRole('heading', { name: 'Products' })).toBeVisible()
  // Specs before this one add products to the shared server: find the demo pump by searching.
  await page.getByRole('searchbox', { name: 'Search' }).pressSequentially('PMP-100')
  await expect(page.getByRole('cell', { name: 'PMP-100', exact: true })).toBeVisible()
  await shot(page, 'products-list')

  // New: the code is required, then the product opens on its home.
  await page.getByRole('link', { name: 'New product' }).click()
  await page.getByRole('button', { name: 'Create product' }).click()
  await expect(page.getByText('The code is required')).toBeVisible()
  await page.getByRole('textbox', { name: 'Code' }).fill('pmp-100')
  await page.getByRole('button', { name: 'Create product' }).click()
  await expect(page.getByText('Product code already in use')).toBeVisible()
  await page.getByRole('textbox', { name: 'Code' }).fill(code)
  await page.getByRole('textbox', { name: 'Description' }).fill('Pompa di prova e2e')
  await shot(page, 'products-new')
  await page.getByRole('button', { name: 'Create product' }).click()
  await expect(notice(page, 'Product created')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/library\/product\/[0-9a-f-]{36}\/home$/)
  await expect(page.getByTestId('product-code')).toHaveText(code)
  const productUrl = page.url()

  // Tags: an existing one by autocomplete, a new one by Enter; saved with the edit.
  const data = page.getByTestId('product-data')
  await data.getByRole('button', { name: 'Edit' }).click()
  const tags = data.getByRole('combobox', { name: 'Tags' })
  await tags.fill('Lin')
  await page.getByRole('option', { name: 'Linea A' }).click()
  await tags.fill(newTag)
  await tags.press('Enter')
  await data.getByRole('textbox', { name: 'Minimum order' }).fill('12')
  await data.getByRole('textbox', { name: 'Notes' }).fill('Prima riga\nSeconda riga')
  await shot(page, 'products-home-edit')
  await data.getByRole('button', { name: 'Save' }).click()
  await expect(notice(page, 'Product saved')).toBeVisible()
  await expect(data.getByText('Linea A')).toBeVisible()
  await expect(data.getByText(newTag)).toBeVisible()
  await expect(data.getByText('Seconda riga')).toBeVisible()

  // The image, shown as a preview.
  await page
    .getByTestId('image-card')
    .locator('input[type=file]')
    .setInputFiles({ name: 'pompa.png', mimeType: 'image/png', buffer: Buffer.from(pngBytes(320, 200, [20, 110, 160])) })
  await expect(notice(page, 'Picture updated')).toBeVisible()
  const image = page.getByTestId('image-card').getByRole('img', { name: `Image of ${code}` })
  await expect(image).toBeVisible()
  // Visible comes before decoded: poll until the picture itself has loaded.
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320)

  // A document, then the same name again: asked before replacing.
  const docs = page.getByTestId('docs-card')
  await docs.locator('input[type=file]').setInputFiles({ name: 'Scheda tecnica.pdf', mimeType: 'application/pdf', buffer: pdf('prima versione') })
  await expect(docs.getByRole('link', { name: 'Scheda tecnica.pdf' })).toBeVisible()
  await docs.locator('input[type=file]').setInputFiles({ name: 'Scheda tecnica.pdf', mimeType: 'application/pdf', buffer: pdf('seconda versione, più lunga') })
  const dialog = page.getByRole('dialog', { name: 'Document already there' })
  await expect(dialog).toContainText('A document named “Scheda tecnica.pdf” already exists')
  await shot(page, 'products-doc-replace')
  await dialog.getByRole('button', { name: 'Replace' }).click()
  await expect(notice(page, 'Document replaced: Scheda tecnica.pdf')).toBeVisible()
  await expect(docs.getByTestId('doc-row')).toHaveCount(1)
  const served = await page.request.get(await docs.getByRole('link', { name: 'Scheda tecnica.pdf' }).getAttribute('href').then((h) => h!))
  expect(served.headers()['content-type']).toBe('application/pdf')
  expect(await served.text()).toContain('seconda versione')

  // Custom data typed by the form field library.
  await data.getByRole('button', { name: 'Edit' }).click()
  const addField = data.getByRole('combobox', { name: 'Add a custom field' })
  // The demo's fields by their exact names (other specs add fields named after them with a suffix).
  await addField.click()
  await page.getByRole('option', { name: /^Esito collaudo · / }).click()
  await addField.click()
  await page.getByRole('option', { name: /^Data di scadenza · / }).click()
  await addField.click()
  await page.getByRole('option', { name: /^Coppia di serraggio \(Nm\) · / }).click()
  // A mandatory field left empty is not saved.
  await data.getByRole('button', { name: 'Save' }).click()
  await expect(data.getByText('Mandatory field: enter a value').first()).toBeVisible()
  await data.getByRole('combobox', { name: 'Value of Esito collaudo' }).click()
  await page.getByRole('option', { name: 'Conforme', exact: true }).click()
  // The date typed key by key (the kit's date input): a half-typed date is said and not saved.
  const expiry = data.getByRole('textbox', { name: 'Value of Data di scadenza' })
  await expiry.pressSequentially('2027/06/3')
  await data.getByRole('button', { name: 'Save' }).click()
  await expect(data.getByText('Invalid date (YYYY/MM/DD)')).toBeVisible()
  await expiry.press('End')
  await expiry.pressSequentially('0')
  await expiry.press('Tab')
  await expect(expiry).toHaveValue('2027/06/30')
  await expect(data.getByText('Invalid date (YYYY/MM/DD)')).toHaveCount(0)
  await data.getByRole('textbox', { name: 'Value of Coppia di serraggio (Nm)' }).fill('12.5')
  await shot(page, 'products-metadata-edit')

  // Leaving with unsaved changes is blocked: stay, then leave for real only after saving.
  await page.getByRole('tab', { name: 'Process' }).click()
  const unsaved = page.getByRole('dialog', { name: 'Unsaved changes' })
  await expect(unsaved).toBeVisible()
  await shot(page, 'products-unsaved')
  await unsaved.getByRole('button', { name: 'Stay here' }).click()
  await expect(page).toHaveURL(productUrl)
  await expect(data.getByRole('textbox', { name: 'Value of Data di scadenza' })).toHaveValue('2027/06/30')
  // The first save's toast (3 s) must be gone, so the one read next is this save's.
  await expect(notice(page, 'Product saved')).toHaveCount(0)
  await data.getByRole('button', { name: 'Save' }).click()
  await expect(notice(page, 'Product saved')).toBeVisible()
  const view = page.getByTestId('metadata-view')
  await expect(view).toContainText('Conforme')
  await expect(view).toContainText('2027/06/30')
  await expect(view).toContainText('12.5')
  await expect(data.getByTestId('edit-bar')).toHaveCount(0)
  await fullShot(page, 'products-home-saved')
  // Nothing unsaved now: the tab changes freely.
  await page.getByRole('tab', { name: 'Process' }).click()
  await expect(page).toHaveURL(/\/process$/)
  await page.getByRole('tab', { name: 'Parameters' }).click()
  await expect(page).toHaveURL(productUrl)

  // Edit, then cancel: the saved values stay.
  await data.getByRole('button', { name: 'Edit' }).click()
  await data.getByRole('textbox', { name: 'Description' }).fill('Da non salvare')
  await data.getByRole('button', { name: 'Cancel' }).click()
  await expect(data.getByText('Pompa di prova e2e')).toBeVisible()

  // Deactivate: listed among the inactive ones; reactivate from the notice.
  await page.getByTestId('state-card').getByRole('switch', { name: 'Active' }).click({ force: true })
  await expect(notice(page, 'Product deactivated')).toBeVisible()
  await expect(page.getByTestId('inactive-notice')).toBeVisible()
  await expect(page.getByTestId('state-badge')).toHaveText('Inactive')
  await shot(page, 'products-inactive')
  await page.getByRole('link', { name: 'Products' }).first().click()
  await page.getByRole('searchbox', { name: 'Search' }).fill(code)
  await expect(page).toHaveURL(new RegExp(`q=${code}`))
  await expect(page.locator('table tbody tr')).toHaveCount(0)
  await stateFilter(page, 'Inactive')
  await expect(page.getByRole('cell', { name: code })).toBeVisible()
  await shot(page, 'products-list-inactive')
  await page.getByRole('cell', { name: code }).click()
  await page.getByTestId('inactive-notice').getByRole('button', { name: 'Reactivate' }).click()
  await expect(notice(page, 'Product reactivated')).toBeVisible()
  await expect(page.getByTestId('state-badge')).toHaveText('Active')

  // Trash: asked first; then only in the trash list, read-only; restore brings it back.
  await page.getByTestId('state-card').getByRole('button', { name: 'Move to trash' }).click()
  await page.getByRole('dialog', { name: 'Move to the trash?' }).getByRole('button', { name: 'Move to trash' }).click()
  await expect(notice(page, 'Product moved to the trash')).toBeVisible()
  await expect(page.getByTestId('state-badge')).toHaveText('In trash')
  await expect(data.getByRole('button', { name: 'Edit' })).toHaveCount(0)
  await shot(page, 'products-trashed')
  await page.getByRole('link', { name: 'Products' }).first().click()
  await stateFilter(page, 'Active')
  // "PMP-" finds the demo pump (every earlier run's E2E-PMP_... is "PMP_"): only the trashed one is missing.
  const search = page.getByRole('searchbox', { name: 'Search' })
  await search.clear()
  await search.pressSequentially('PMP-')
  await expect(page.getByRole('cell', { name: 'PMP-100', exact: true })).toBeVisible()
  expect(await listCodes(page)).not.toContain(code)
  await search.clear()
  await search.pressSequentially(code)
  await expect(page).toHaveURL(new RegExp(`q=${code}`))
  await expect(page.locator('table tbody tr')).toHaveCount(0)
  await stateFilter(page, 'In trash')
  await expect(page.getByRole('cell', { name: code })).toBeVisible()
  await shot(page, 'products-list-trash')
  await page.getByRole('cell', { name: code }).click()
  await page.getByTestId('state-card').getByRole('button', { name: 'Restore from the trash' }).click()
  await expect(notice(page, 'Product restored')).toBeVisible()
  await page.getByRole('link', { name: 'Products' }).first().click()
  // Searched by its code: a run beside this one may have a product of its own in the trash.
  await page.getByRole('searchbox', { name: 'Search' }).fill(code)
  await stateFilter(page, 'In trash')
  await expect(page.getByText('The trash is empty')).toBeVisible()
  await stateFilter(page, 'Active')
  await expect(page.getByRole('cell', { name: code })).toBeVisible()
})

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' })

  test('tag filter with autocomplete, a file field upload, and a list failure shown as an alert', async ({ page, baseURL }) => {
    // The file field goes on a product of this test's own: a demo product keeps the field from an earlier run.
    const code = uniqueName('E2E-FILE').toUpperCase()
    const created = await (await adminApi(baseURL!)).post('/api/product', { data: { code, description: 'Prodotto campo file e2e' } })
    expect(created.status(), await created.text()).toBe(201)
    await signIn(page, 'libreria')
    await openLibrary(page, 'Libreria')
    await expect(page.getByRole('heading', { name: 'Prodotti' })).toBeVisible()

    // The tag filter suggests from 3 characters and keeps the products carrying the tag.
    const filter = page.getByRole('combobox', { name: 'Filtra per tag' })
    await filter.fill('El')
    await expect(page.getByText('Scrivi almeno 3 caratteri')).toBeVisible()
    await filter.fill('Elet')
    await page.getByRole('option', { name: 'Elettronica' }).click()
    await expect(page).toHaveURL(/tags=/)
    await expect(page.getByRole('cell', { name: 'CTL-200', exact: true })).toBeVisible()
    expect(await listCodes(page)).toEqual(expect.arrayContaining(['CMP-CAV-06', 'CMP-MOT-01', 'CMP-PCB-02', 'CTL-200']))
    expect(await listCodes(page)).not.toContain('PMP-100')
    await page.keyboard.press('Escape')
    await shot(page, 'products-list-tag-filter-it')

    // A custom file field: files go up through POST files and show as links once saved.
    await openLibrary(page, 'Libreria')
    await page.getByRole('searchbox', { name: 'Cerca' }).fill(code)
    await page.getByRole('cell', { name: code, exact: true }).click()
    await expect(page.getByTestId('product-code')).toHaveText(code)
    const data = page.getByTestId('product-data')
    await data.getByRole('button', { name: 'Modifica' }).click()
    await data.getByRole('combobox', { name: 'Aggiungi un campo personalizzato' }).click()
    await page.getByRole('option', { name: /^Foto difetto/ }).click()
    await data
      .getByTestId('metadata-item')
      .locator('input[type=file]')
      .setInputFiles([
        { name: 'difetto 1.png', mimeType: 'image/png', buffer: Buffer.from(pngBytes(60, 40, [200, 40, 40])) },
        { name: 'verbale.pdf', mimeType: 'application/pdf', buffer: pdf('verbale') },
      ])
    await expect(data.getByRole('link', { name: 'difetto_1.png' })).toBeVisible()
    await expect(data.getByRole('link', { name: 'verbale.pdf' })).toBeVisible()
    // A refused file is an alert (SPEC 8).
    const alerts: string[] = []
    page.on('dialog', (d) => {
      alerts.push(`${d.type()}: ${d.message()}`)
      void d.accept()
    })
    await data.getByTestId('metadata-item').locator('input[type=file]').setInputFiles({ name: 'script.html', mimeType: 'text/html', buffer: Buffer.from('<script>1</script>') })
    await expect.poll(() => alerts.join('\n')).toContain('alert: Caricamento non riuscito: Tipo di file non ammesso')
    await shot(page, 'products-file-field-it')
    await data.getByRole('button', { name: 'Salva' }).click()
    await expect(notice(page, 'Prodotto salvato')).toBeVisible()
    await expect(page.getByTestId('metadata-view').getByRole('link', { name: 'verbale.pdf' })).toBeVisible()
    await fullShot(page, 'products-home-it')

    // SPEC 8: the product list failing is a browser alert with the error.
    await page.route('**/api/trpc/products.list**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { message: 'internal error', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, appCode: 'INTERNAL' } } }) }),
    )
    await page.getByRole('link', { name: 'Prodotti' }).first().click()
    await page.getByRole('searchbox', { name: 'Cerca' }).fill('qualcosa di nuovo')
    await expect.poll(() => alerts.join('\n')).toContain('alert: Impossibile caricare i prodotti')
  })
})
