import { type Browser, expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, type NewUser, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * One serial, one piece (issue 26): the warehouse loads a serial that is already on a shelf (the
 * product and position scanned, the serial typed, "Salva" clicked with the mouse); the load is
 * refused, the message names the serial and the shelf it is on, and no movement is written.
 * Italian and English.
 */

async function newPage(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } })
  return context.newPage()
}

/** A keyboard-wedge scanner: the code key by key, then Enter. */
async function scan(page: Page, testid: string, code: string) {
  const box = page.getByTestId(testid)
  await box.click()
  await box.pressSequentially(code, { delay: 5 })
  await box.press('Enter')
}

let user: NewUser
let tag = ''
let productKey = ''
const code = (p: string) => `${p}-${tag}`

test.beforeAll(async ({ baseURL }) => {
  user = await createReadyUser(baseURL!, 'warehouse', { name: 'Sara', surname: uniqueName('Seriali') })
  tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const api = await adminApi(baseURL!)
  productKey = (await ok<{ _key: string }>(await api.post('/api/product', { data: { code: code('VALV'), description: 'Valvola a sfera' } })))._key
  const shelf = await ok<{ _key: string }>(await api.post('/api/position', { data: { code: code('SC1') } }))
  await ok(await api.post('/api/position', { data: { code: code('SC2') } }))
  for (const lang of ['it', 'en']) {
    await ok(await api.post('/api/movement', { data: { product_key: productKey, type: 'load', to_position_key: shelf._key, quantity: 1, serial: code(`SN-${lang}`) } }))
  }
})

const TEXT = {
  it: { locale: 'it-IT', tab: 'Movimenti', load: 'Carico', refused: (sn: string, where: string) => `Il seriale ${sn} è già a magazzino in ${where}: un seriale è un solo pezzo` },
  en: { locale: 'en-GB', tab: 'Movements', load: 'Load', refused: (sn: string, where: string) => `Serial ${sn} is already in stock in ${where}: a serial is one piece` },
} as const

for (const lang of ['it', 'en'] as const) {
  test(`a second load of a serial already in stock is refused, saying where it is (${lang})`, async ({ browser, baseURL }) => {
    const s = TEXT[lang]
    const serial = code(`SN-${lang}`)
    const api = await adminApi(baseURL!)
    const movements = async () => (await ok<{ rows: unknown[] }>(await api.get(`/api/movement?product_key=${productKey}&page_size=100`))).rows.length
    const before = await movements()

    const page = await newPage(browser, s.locale)
    await signIn(page, user.username, user.password)
    await page.getByRole('tab', { name: s.tab }).click()
    await page.getByTestId('movement-new').click()
    await page.getByTestId('movement-type').getByText(s.load, { exact: true }).click()
    await scan(page, 'movement-product', code('VALV'))
    // Into the other shelf: the serial is one piece wherever it would arrive.
    await scan(page, 'movement-to', code('SC2'))
    await page.getByTestId('movement-quantity').pressSequentially('1')
    await page.getByTestId('movement-serial').pressSequentially(serial)
    await page.getByTestId('movement-save').click()
    await expect(page.getByTestId('error-toast')).toContainText(s.refused(serial, code('SC1')))
    await page.screenshot({ path: `${SHOTS_DIR}/warehouse-serial-once-${lang}.png` })
    // The form stays open with what was typed; nothing was written.
    await expect(page.getByTestId('movement-serial')).toHaveValue(serial)
    expect(await movements()).toBe(before)
    await page.context().close()
  })
}
