import { type Browser, expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, type NewUser, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * Issue 26, code fields: a code typed and left without Enter is read when the field is left or
 * the form is submitted (a click on the button), never dropped; an unknown code refuses the
 * submit with the reason (a new position's parent, a move's target, a counted product, a
 * movement's product and positions); a list filtered by an unknown code shows nothing and says why.
 */

async function newPage(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } })
  return context.newPage()
}

/** Types a code like a scanner: key by key, then Enter. */
async function scan(page: Page, testid: string, code: string) {
  const box = page.getByTestId(testid)
  await box.click()
  await box.pressSequentially(code, { delay: 5 })
  await box.press('Enter')
}

/** Types a code like a person who then goes for the mouse: no Enter. */
async function type(page: Page, testid: string, text: string) {
  const box = page.getByTestId(testid)
  await box.click()
  await box.pressSequentially(text, { delay: 20 })
}

let user: NewUser
let tag = ''
const code = (p: string) => `${p}-${tag}`

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ baseURL }) => {
  user = await createReadyUser(baseURL!, 'warehouse', { name: 'Ada', surname: 'Ferri' })
  tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const api = await adminApi(baseURL!)
  await ok(await api.post('/api/product', { data: { code: code('BULL'), description: 'Bullone M10' } }))
  await ok(await api.post('/api/position', { data: { code: code('AREA'), description: 'Area B' } }))
  await ok(await api.post('/api/position', { data: { code: code('DEPOT'), description: 'Depot' } }))
})

test('codes typed without Enter count on a click; unknown ones refuse the submit (Italian)', async ({ browser }) => {
  test.setTimeout(120_000)
  const page = await newPage(browser, 'it-IT')
  await signIn(page, user.username, user.password)

  // A new position inside AREA: the parent typed, no Enter, then a click on "Crea la posizione".
  await page.getByRole('tab', { name: 'Posizioni' }).click()
  await page.getByTestId('position-new').click()
  await type(page, 'position-code', code('SCAF'))
  await type(page, 'position-parent', code('area'))
  await page.getByTestId('position-save').click()
  await expect(page.getByTestId('position-title')).toHaveText(code('SCAF'))
  await expect(page.getByTestId('position-path')).toHaveText(`${code('AREA')} / ${code('SCAF')}`)

  // An unknown parent refuses the creation with the reason; nothing is created at the top level.
  await page.getByRole('tab', { name: 'Posizioni' }).click()
  await page.getByTestId('position-new').click()
  await type(page, 'position-code', code('ORFANA'))
  await type(page, 'position-parent', 'NON-ESISTE')
  await page.getByTestId('position-save').click()
  await expect(page.getByText('Posizione non trovata')).toBeVisible()
  await expect(page).toHaveURL(/\/positions\/new$/)
  // Emptied, the parent means the top level again.
  await page.getByTestId('position-parent').fill('')
  await page.getByTestId('position-save').click()
  await expect(page.getByTestId('position-title')).toHaveText(code('ORFANA'))

  // A load: product and destination typed without Enter, quantity with a decimal comma, a click.
  await page.getByRole('tab', { name: 'Movimenti' }).click()
  await page.getByTestId('movement-new').click()
  await type(page, 'movement-product', code('BULL'))
  await type(page, 'movement-to', code('SCAF'))
  await type(page, 'movement-quantity', '7,5')
  await page.getByTestId('movement-save').click()
  await expect(page.getByTestId('movement-status')).toHaveText('Confermato')

  // The inventory filtered by an unknown position shows nothing and says why; a known one lists its stock.
  await page.getByRole('tab', { name: 'Inventario' }).click()
  await scan(page, 'inventory-position', 'SCAFFALE-FANTASMA')
  await expect(page.getByTestId('inventory-unknown-filter')).toContainText('Nessuna posizione ha il codice «SCAFFALE-FANTASMA»')
  await expect(page.getByTestId('inventory-lines')).toHaveCount(0)
  await page.screenshot({ path: `${SHOTS_DIR}/warehouse-unknown-filter-it.png`, fullPage: true })
  await page.getByTestId('inventory-position').fill('')
  await type(page, 'inventory-position', code('SCAF'))
  await page.getByText("Cosa c'è in magazzino").click()
  await expect(page.getByTestId('inventory-unknown-filter')).toHaveCount(0)
  await expect(page.getByTestId('inventory-lines').locator('tbody tr')).toHaveCount(1)
  await expect(page.getByTestId('inventory-lines')).toContainText('7,5')
  await page.context().close()
})

test('codes typed without Enter count on a click: a parent, a move\'s target, a counted product; unknown ones refuse with the reason (English)', async ({ browser }) => {
  test.setTimeout(120_000)
  const page = await newPage(browser, 'en-GB')
  await signIn(page, user.username, user.password)

  // A new position inside AREA: the parent typed, no Enter, then a click on the create button.
  await page.getByRole('tab', { name: 'Positions' }).click()
  await page.getByTestId('position-new').click()
  await type(page, 'position-code', code('RACK'))
  await type(page, 'position-parent', code('area'))
  await page.getByTestId('position-save').click()
  await expect(page.getByTestId('position-title')).toHaveText(code('RACK'))
  await expect(page.getByTestId('position-path')).toHaveText(`${code('AREA')} / ${code('RACK')}`)

  // Moved: an unknown target typed and clicked is refused with the reason; DEPOT typed (no Enter) and clicked moves it.
  await page.getByTestId('position-move').click()
  const move = page.getByRole('dialog')
  await type(page, 'move-target', 'NO-SUCH-SHELF')
  await page.getByTestId('move-save').click()
  await expect(move.getByText('Position not found')).toBeVisible()
  await expect(page.getByTestId('position-path')).toHaveText(`${code('AREA')} / ${code('RACK')}`)
  await page.getByTestId('move-target').fill('')
  await type(page, 'move-target', code('depot'))
  await page.getByTestId('move-save').click()
  await expect(move).toHaveCount(0)
  await expect(page.getByTestId('position-path')).toHaveText(`${code('DEPOT')} / ${code('RACK')}`)

  // Counted: a product found there, its code typed without Enter. Unknown, the count is refused with the reason.
  await page.getByTestId('position-count').click()
  const count = page.getByRole('dialog')
  await page.getByTestId('count-add-line').click()
  await type(page, 'count-product', 'NO-SUCH-PART')
  await type(page, 'count-quantity', '3')
  await type(page, 'count-reason', 'Found at the count')
  await page.getByTestId('count-save').click()
  await expect(count.getByText('Product not found')).toBeVisible()
  await expect(count).toBeVisible()
  await page.getByTestId('count-product').fill('')
  await type(page, 'count-product', code('bull'))
  await page.getByTestId('count-save').click()
  await expect(count).toHaveCount(0)
  await expect(page.getByText('Count recorded: 1 adjustment')).toBeVisible()
  await expect(page.getByTestId('inventory-lines').locator('tbody tr', { hasText: code('BULL') })).toContainText('3')

  // A new position whose parent matches nothing: refused with the reason, nothing created.
  await page.getByRole('tab', { name: 'Positions' }).click()
  await page.getByTestId('position-new').click()
  await type(page, 'position-code', code('LOOSE'))
  await type(page, 'position-parent', 'NO-SUCH-SHELF')
  await page.getByTestId('position-save').click()
  await expect(page.getByText('Position not found')).toBeVisible()
  await expect(page).toHaveURL(/\/positions\/new$/)
  await page.context().close()
})

test('the movement list filtered by an unknown product says why it is empty (English)', async ({ browser }) => {
  const page = await newPage(browser, 'en-GB')
  await signIn(page, user.username, user.password)
  await page.getByRole('tab', { name: 'Movements' }).click()
  await type(page, 'movements-product', 'NO-SUCH-PART')
  await page.getByRole('combobox', { name: 'Status' }).click()
  await expect(page.getByTestId('movements-unknown-filter')).toContainText('No product has the code «NO-SUCH-PART»')
  await expect(page.getByTestId('movements-table')).toHaveCount(0)
  await page.context().close()
})
