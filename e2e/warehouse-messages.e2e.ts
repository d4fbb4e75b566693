import { type Browser, expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, type NewUser, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * Issue 26, warehouse messages: too little stock says how much is there; a reverted movement
 * links its reversal by number (and back); a toast
 * does not cover the page's action buttons. Italian and English.
 */

async function newPage(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } })
  return context.newPage()
}

async function scan(page: Page, testid: string, code: string) {
  const box = page.getByTestId(testid)
  await box.click()
  await box.pressSequentially(code, { delay: 5 })
  await box.press('Enter')
}

let user: NewUser
let tag = ''
const code = (p: string) => `${p}-${tag}`
type Movement = { _key: string; number: number }
let load: Movement

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ baseURL }) => {
  user = await createReadyUser(baseURL!, 'warehouse', { name: 'Gino', surname: 'Sala' })
  tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const api = await adminApi(baseURL!)
  const product = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: code('DADO'), description: 'Dado M6' } }))
  const shelf = await ok<{ _key: string }>(await api.post('/api/position', { data: { code: code('SC') } }))
  await ok(await api.post('/api/position', { data: { code: code('LN') } }))
  load = await ok<Movement>(await api.post('/api/movement', { data: { product_key: product._key, type: 'load', to_position_key: shelf._key, quantity: 2.5 } }))
})

const TEXT = {
  it: { tab: 'Movimenti', unload: 'Scarico', short: (p: string) => `Giacenza insufficiente in ${p}: ce ne sono 2,5, ne servono 4` },
  en: { tab: 'Movements', unload: 'Unload', short: (p: string) => `Not enough stock in ${p}: 2.5 there, 4 needed` },
} as const

for (const lang of ['it', 'en'] as const) {
  test(`too little stock says how much is there; the toast leaves the actions free (${lang})`, async ({ browser }) => {
    const s = TEXT[lang]
    const page = await newPage(browser, lang === 'it' ? 'it-IT' : 'en-GB')
    await signIn(page, user.username, user.password)
    await page.getByRole('tab', { name: s.tab }).click()
    await page.getByTestId('movement-new').click()
    await page.getByTestId('movement-type').getByText(s.unload).click()
    await scan(page, 'movement-product', code('DADO'))
    await scan(page, 'movement-from', code('SC'))
    await page.getByTestId('movement-quantity').pressSequentially('4')
    await page.getByTestId('movement-save').click()
    await expect(page.getByTestId('error-toast')).toContainText(s.short(code('SC')))
    // The toast is not over the page's buttons: the save button can still be clicked where it is.
    const toast = (await page.getByTestId('error-toast').boundingBox())!
    const save = (await page.getByTestId('movement-save').boundingBox())!
    const newButton = page.getByTestId('movement-new')
    const overlaps = (a: typeof toast, b: typeof toast) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    expect(overlaps(toast, save)).toBe(false)
    if (await newButton.count()) expect(overlaps(toast, (await newButton.boundingBox())!)).toBe(false)
    await page.screenshot({ path: `${SHOTS_DIR}/warehouse-short-${lang}.png` })
    await page.context().close()
  })
}

test('a reverted movement links its reversal by number, and back', async ({ browser }) => {
  const page = await newPage(browser, 'it-IT')
  await signIn(page, user.username, user.password)
  // Opened from the list (a reload would lock the session): the load is the product's only movement.
  await page.getByRole('tab', { name: 'Movimenti' }).click()
  await scan(page, 'movements-product', code('DADO'))
  await expect(page.getByTestId('movements-table').locator('tbody tr')).toHaveCount(1)
  await page.getByTestId('movements-table').locator('tbody tr').first().click()
  await expect(page.getByTestId('movement-title')).toContainText(`M-${load.number}`)
  await page.getByTestId('movement-revert').click()
  await page.getByTestId('revert-reason').pressSequentially('Caricato per sbaglio')
  await page.getByTestId('revert-confirm').click()
  await expect(page.getByTestId('movement-reverted')).toHaveText('Stornato')
  const link = page.getByTestId('movement-reverted-by').getByRole('link')
  await expect(link).toHaveText(/^M-\d+$/)
  const reversal = await link.textContent()
  await link.click()
  await expect(page.getByTestId('movement-title')).toContainText(reversal!)
  await expect(page.getByRole('link', { name: `M-${load.number}` })).toBeVisible()
  await page.context().close()
})
