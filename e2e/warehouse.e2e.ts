import { type Browser, expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, type NewUser, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * Issue 14, the warehouse core: a warehouse user (Italian) lands on the warehouse, builds positions
 * (an area with a shelf inside it, a line), loads a component by typing codes the way a scanner
 * does (code + Enter, decimal comma), transfers part of it to the line, reverts that transfer with
 * a reason, counts the shelf (the difference becomes an adjustment) and cannot put the area inside
 * its own shelf. The same user in English reads the movements and inventory; a failed movement
 * load shows its message in red for 1.5 s (SPEC 8). Products through the API; nothing shared is
 * changed.
 */

async function newPage(browser: Browser, locale: string, width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width, height } })
  return context.newPage()
}

/** Types a code like a scanner: key by key, then Enter. */
async function scan(page: Page, testid: string, code: string) {
  const box = page.getByTestId(testid)
  await box.click()
  await box.pressSequentially(code, { delay: 10 })
  await box.press('Enter')
}

const rowsOf = (page: Page, testid: string) => page.getByTestId(testid).locator('tbody tr')

/** Opens a position from the positions tab by searching its code (a reload would lock the session). */
async function openPosition(page: Page, positionCode: string) {
  await page.getByRole('tab', { name: /^(Posizioni|Positions)$/ }).click()
  await page.getByTestId('positions-search').pressSequentially(positionCode)
  await page.getByTestId('positions-table').getByText(positionCode, { exact: true }).click()
  await expect(page.getByTestId('position-title')).toHaveText(positionCode)
}

let user: NewUser
let tag = ''
const code = (p: string) => `${p}-${tag}`

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ baseURL }) => {
  user = await createReadyUser(baseURL!, 'warehouse', { name: 'Marta', surname: 'Colombo' })
  tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const api = await adminApi(baseURL!)
  await ok(await api.post('/api/product', { data: { code: code('VITE'), description: 'Vite M8x30 zincata' } }))
})

test('a warehouse user builds positions, loads, transfers, reverts with a reason and counts (Italian)', async ({ browser }) => {
  test.setTimeout(180_000)
  const page = await newPage(browser, 'it-IT')
  await signIn(page, user.username, user.password)
  // SPEC 2: the warehouse area opens on the inventory.
  await expect(page).toHaveURL(/\/app\/warehouse\/inventory$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Magazzino')

  // Positions: an area, a shelf inside it, a line at the top level.
  await page.getByRole('tab', { name: 'Posizioni' }).click()
  await page.getByTestId('position-new').click()
  await page.getByTestId('position-code').pressSequentially(code('AREA'))
  await page.getByTestId('position-description').pressSequentially('Area componenti')
  await page.getByTestId('position-save').click()
  await expect(page.getByTestId('position-title')).toHaveText(code('AREA'))
  await page.getByTestId('position-add-child').click()
  await expect(page.getByTestId('position-parent')).toHaveValue(code('AREA'))
  await page.getByTestId('position-code').pressSequentially(code('SCAF'))
  await page.getByTestId('position-save').click()
  await expect(page.getByTestId('position-title')).toHaveText(code('SCAF'))
  await expect(page.getByTestId('position-path')).toHaveText(`${code('AREA')} / ${code('SCAF')}`)
  await page.getByRole('tab', { name: 'Posizioni' }).click()
  await page.getByTestId('position-new').click()
  await page.getByTestId('position-code').pressSequentially(code('LINEA'))
  await page.getByTestId('position-save').click()
  await expect(page.getByTestId('position-title')).toHaveText(code('LINEA'))

  // Load 12,5 screws into the shelf: product code scanned, decimal comma.
  await openPosition(page, code('SCAF'))
  await page.getByTestId('position-load').click()
  await expect(page.getByTestId('movement-to')).toHaveValue(code('SCAF'))
  await scan(page, 'movement-product', code('VITE').toLowerCase())
  await expect(page.getByText('Vite M8x30 zincata')).toBeVisible()
  await page.getByTestId('movement-quantity').pressSequentially('12,5')
  await page.getByTestId('movement-save').click()
  await expect(page.getByTestId('movement-status')).toHaveText('Confermato')
  await expect(page.getByText('Quantità confermata')).toBeVisible()

  // Transfer 2,5 to the line, every code scanned.
  await page.getByRole('tab', { name: 'Movimenti' }).click()
  await page.getByTestId('movement-new').click()
  await page.getByTestId('movement-type').getByText('Trasferimento').click()
  await scan(page, 'movement-product', code('VITE'))
  await scan(page, 'movement-from', code('SCAF'))
  await scan(page, 'movement-to', code('LINEA'))
  await page.getByTestId('movement-quantity').pressSequentially('2,5')
  await page.screenshot({ path: `${SHOTS_DIR}/warehouse-transfer-1280.png`, fullPage: true })
  await page.getByTestId('movement-save').click()
  await expect(page.getByTestId('movement-status')).toHaveText('Confermato')

  // Too much for the shelf: refused with the reason in Italian, nothing moves.
  await page.getByRole('tab', { name: 'Movimenti' }).click()
  await page.getByTestId('movement-new').click()
  await page.getByTestId('movement-type').getByText('Scarico').click()
  await scan(page, 'movement-product', code('VITE'))
  await scan(page, 'movement-from', code('LINEA'))
  await page.getByTestId('movement-quantity').pressSequentially('3')
  await page.getByTestId('movement-save').click()
  await expect(page.getByTestId('error-toast')).toContainText('Giacenza insufficiente')
  await page.getByTestId('error-toast-close').click()

  // Revert the transfer: a reason is required.
  await page.getByRole('tab', { name: 'Movimenti' }).click()
  await scan(page, 'movements-position', code('LINEA'))
  await expect(rowsOf(page, 'movements-table')).toHaveCount(1)
  await rowsOf(page, 'movements-table').first().click()
  await page.getByTestId('movement-revert').click()
  await page.getByTestId('revert-confirm').click()
  await expect(page.getByText('Indica il motivo')).toBeVisible()
  await page.getByTestId('revert-reason').pressSequentially('Portate alla linea sbagliata')
  await page.getByTestId('revert-confirm').click()
  await expect(page.getByTestId('movement-reverted')).toHaveText('Stornato')
  await expect(page.getByText('Portate alla linea sbagliata')).toBeVisible()
  await page.screenshot({ path: `${SHOTS_DIR}/warehouse-reverted-1280.png`, fullPage: true })

  // Inventory of the area (with the shelf inside it): all 12,5 back on the shelf.
  await page.getByRole('tab', { name: 'Inventario' }).click()
  await scan(page, 'inventory-position', code('AREA'))
  await expect(rowsOf(page, 'inventory-lines')).toHaveCount(1)
  await expect(rowsOf(page, 'inventory-lines').first()).toContainText(code('SCAF'))
  await expect(rowsOf(page, 'inventory-lines').first()).toContainText('12,5')

  // Count the shelf: 12 found, the difference becomes an adjustment with the reason.
  await openPosition(page, code('SCAF'))
  await page.getByTestId('position-count').click()
  const counted = page.getByTestId('count-quantity')
  await counted.fill('')
  await counted.pressSequentially('12')
  await page.getByTestId('count-save').click()
  await expect(page.getByText('Indica il motivo')).toBeVisible()
  await page.getByTestId('count-reason').pressSequentially('Inventario di fine mese')
  await page.getByTestId('count-save').click()
  await expect(page.getByText('Conteggio registrato: 1 rettifica')).toBeVisible()
  await expect(rowsOf(page, 'inventory-lines').first()).toContainText('12')
  await expect(rowsOf(page, 'position-movements').first()).toContainText('Rettifica')

  // The area cannot go inside its own shelf.
  await openPosition(page, code('AREA'))
  await page.getByTestId('position-move').click()
  await scan(page, 'move-target', code('SCAF'))
  await page.getByTestId('move-save').click()
  await expect(page.getByTestId('error-toast')).toContainText('non può stare dentro sé stessa')
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.screenshot({ path: `${SHOTS_DIR}/warehouse-move-refused-1024.png`, fullPage: true })
  await page.context().close()
})

test('the same warehouse in English; a failed movement load is said in red for 1.5 s', async ({ browser }) => {
  test.setTimeout(120_000)
  const page = await newPage(browser, 'en-GB', 1024, 768)
  await signIn(page, user.username, user.password)
  await expect(page.getByTestId('screen-title')).toHaveText('Warehouse')
  await expect(page.getByRole('tab', { name: 'Inventory' })).toBeVisible()
  await scan(page, 'inventory-product', code('VITE'))
  await expect(rowsOf(page, 'inventory-lines')).toHaveCount(1)
  await expect(rowsOf(page, 'inventory-totals').first()).toContainText('12')
  await expect(page.getByText('Totals per product')).toBeVisible()

  await page.getByRole('tab', { name: 'Movements' }).click()
  await scan(page, 'movements-product', code('VITE'))
  // Load, transfer, its revert and the count's adjustment (the refused unload wrote nothing).
  await expect(rowsOf(page, 'movements-table')).toHaveCount(4)
  await expect(rowsOf(page, 'movements-table').first()).toContainText('Adjustment')
  await expect(page.getByTestId('movements-table')).toContainText('Reverted')
  await page.screenshot({ path: `${SHOTS_DIR}/warehouse-movements-en-1024.png`, fullPage: true })

  // SPEC 8: the movement list cannot load: a red message that goes after 1.5 s.
  await page.route('**/api/trpc/**movements.list**', (route) => route.abort())
  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'Confirmed' }).click()
  const red = page.locator('.mantine-Notification-root').filter({ hasText: 'Server' })
  await expect(red).toBeVisible()
  await expect(red).toBeHidden({ timeout: 4000 })
  await page.unroute('**/api/trpc/**movements.list**')
  await page.context().close()
})
