import { type Browser, expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, type NewUser, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * Issue 26, warehouse messages: too little stock says how much is there, and the refused movement
 * draws no number (the next good one leaves no hole); a reverted movement links its reversal by
 * number (and back); a toast does not cover the page's action buttons. Italian and English.
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

/** Another code over the one in the field: select all, delete, scan. */
async function rescan(page: Page, testid: string, code: string) {
  const box = page.getByTestId(testid)
  await box.click()
  await box.press('ControlOrMeta+a')
  await box.press('Backspace')
  await scan(page, testid, code)
}

let user: NewUser
let tag = ''
const code = (p: string) => `${p}-${tag}`
type Movement = { _key: string; number: number }
let load: Movement
/** A load per language that the reversal test reverts. */
const toRevert: Partial<Record<'it' | 'en', Movement>> = {}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ baseURL }) => {
  user = await createReadyUser(baseURL!, 'warehouse', { name: 'Gino', surname: 'Sala' })
  tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const api = await adminApi(baseURL!)
  const product = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: code('DADO'), description: 'Dado M6' } }))
  const shelf = await ok<{ _key: string }>(await api.post('/api/position', { data: { code: code('SC') } }))
  await ok(await api.post('/api/position', { data: { code: code('LN') } }))
  load = await ok<Movement>(await api.post('/api/movement', { data: { product_key: product._key, type: 'load', to_position_key: shelf._key, quantity: 2.5 } }))
  toRevert.it = load
  // A second shelf with enough: where the unload is taken from once the first is refused.
  const full = await ok<{ _key: string }>(await api.post('/api/position', { data: { code: code('SP') } }))
  await ok(await api.post('/api/movement', { data: { product_key: product._key, type: 'load', to_position_key: full._key, quantity: 10 } }))
  const other = await ok<{ _key: string }>(await api.post('/api/position', { data: { code: code('SE') } }))
  toRevert.en = await ok<Movement>(await api.post('/api/movement', { data: { product_key: product._key, type: 'load', to_position_key: other._key, quantity: 1 } }))
})

/** The newest movement number of the plant (other specs add movements meanwhile). */
async function newestNumber(baseURL: string): Promise<number> {
  const api = await adminApi(baseURL)
  return (await ok<{ rows: Movement[] }>(await api.get('/api/movement?page_size=1'))).rows[0]!.number
}

/** Every movement number in (after, upTo]: a number drawn by a refused write would be missing. */
async function numbersBetween(baseURL: string, after: number, upTo: number): Promise<number[]> {
  const api = await adminApi(baseURL)
  const rows = (await ok<{ rows: Movement[] }>(await api.get('/api/movement?page_size=200'))).rows
  return rows.map((r) => r.number).filter((n) => n > after && n <= upTo).sort((a, b) => a - b)
}

const TEXT = {
  it: {
    tab: 'Movimenti',
    unload: 'Scarico',
    short: (p: string) => `Giacenza insufficiente in ${p}: ce ne sono 2,5, ne servono 4`,
    reason: 'Caricato per sbaglio',
    reverted: 'Stornato',
  },
  en: { tab: 'Movements', unload: 'Unload', short: (p: string) => `Not enough stock in ${p}: 2.5 there, 4 needed`, reason: 'Loaded by mistake', reverted: 'Reverted' },
} as const

for (const lang of ['it', 'en'] as const) {
  test(`too little stock says how much is there; the toast leaves the actions free; the refused movement leaves no hole in the numbers (${lang})`, async ({ browser, baseURL }) => {
    const s = TEXT[lang]
    const page = await newPage(browser, lang === 'it' ? 'it-IT' : 'en-GB')
    await signIn(page, user.username, user.password)
    await page.getByRole('tab', { name: s.tab }).click()
    await page.getByTestId('movement-new').click()
    await page.getByTestId('movement-type').getByText(s.unload).click()
    await scan(page, 'movement-product', code('DADO'))
    await scan(page, 'movement-from', code('SC'))
    await page.getByTestId('movement-quantity').pressSequentially('4')
    const before = await newestNumber(baseURL!)
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
    // Taken from the shelf that has enough: recorded, and its number follows the last one made
    // (the refused movement drew none: every number up to it exists).
    await page.getByTestId('error-toast-close').click()
    await rescan(page, 'movement-from', code('SP'))
    await page.getByTestId('movement-save').click()
    await expect(page.getByTestId('movement-title')).toContainText(/M-\d+/)
    const good = Number((await page.getByTestId('movement-title').innerText()).match(/M-(\d+)/)![1])
    expect(good).toBeGreaterThan(before)
    expect(await numbersBetween(baseURL!, before, good)).toEqual(Array.from({ length: good - before }, (_, i) => before + 1 + i))
    await page.context().close()
  })
}

for (const lang of ['it', 'en'] as const) {
  test(`a reverted movement links its reversal by number, and back (${lang})`, async ({ browser }) => {
    const s = TEXT[lang]
    const original = toRevert[lang]!
    const page = await newPage(browser, lang === 'it' ? 'it-IT' : 'en-GB')
    await signIn(page, user.username, user.password)
    // Opened from the list (a reload would lock the session): the product's movements, the load by its number.
    await page.getByRole('tab', { name: s.tab }).click()
    await scan(page, 'movements-product', code('DADO'))
    const row = page.getByTestId('movements-table').locator('tbody tr').filter({ has: page.getByText(`M-${original.number}`, { exact: true }) })
    await expect(row).toHaveCount(1)
    await row.click()
    await expect(page.getByTestId('movement-title')).toContainText(`M-${original.number}`)
    await page.getByTestId('movement-revert').click()
    await page.getByTestId('revert-reason').pressSequentially(s.reason)
    await page.getByTestId('revert-confirm').click()
    await expect(page.getByTestId('movement-reverted')).toHaveText(s.reverted)
    const link = page.getByTestId('movement-reverted-by').getByRole('link')
    await expect(link).toHaveText(/^M-\d+$/)
    const reversal = await link.textContent()
    await link.click()
    await expect(page.getByTestId('movement-title')).toContainText(reversal!)
    await expect(page.getByRole('link', { name: `M-${original.number}`, exact: true })).toBeVisible()
    await page.context().close()
  })
}
