import { expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, fillLogin, ok, signIn, uniqueName } from './helpers'

/**
 * Refused input reads in the user's language and names the field (issue 11): a rule a service
 * checks itself answers INVALID_INPUT with issues like a schema refusal, and an INVALID_INPUT
 * without issues still never shows the server's English text. A BOM quantity with more decimals
 * than are stored is refused next to the field before saving, never rounded.
 */

test.use({ locale: 'it-IT', viewport: { width: 1280, height: 800 } })

const SHOTS = '/tmp/shots-fixups'

async function openNewUser(page: Page, baseURL: string) {
  const admin = await createReadyUser(baseURL, 'admin')
  await signIn(page, admin.username, admin.password)
  await page.getByRole('tab', { name: 'Utenti' }).click()
  await page.getByRole('link', { name: 'Nuovo utente' }).click()
  await expect(page.getByRole('heading', { name: 'Nuovo utente' })).toBeVisible()
}

async function fillNewUser(page: Page, username: string) {
  await page.getByRole('textbox', { name: 'Username' }).pressSequentially(username, { delay: 5 })
  await page.getByRole('checkbox', { name: /^Operatore/ }).check()
  await page.getByRole('button', { name: 'Crea utente' }).click()
}

test('a username the server refuses (a service rule): the field says why in Italian, nothing created', async ({ page, baseURL }) => {
  await openNewUser(page, baseURL!)
  const username = `mario ${uniqueName('rossi')}`
  await fillNewUser(page, username)
  const field = page.locator('.mantine-InputWrapper-root', { has: page.getByRole('textbox', { name: 'Username' }) })
  await expect(field).toContainText('Username: contiene caratteri non ammessi')
  await expect(page.locator('main')).not.toContainText('may hold')
  await page.screenshot({ path: `${SHOTS}/username-refused-it.png` })
  const users = await ok<{ username: string }[]>(await (await adminApi(baseURL!)).get(`/api/user?search=${encodeURIComponent(username)}`))
  expect(users).toEqual([])
})

test('an INVALID_INPUT without issues reads "Dati non validi" and the field, never the English text', async ({ page, baseURL }) => {
  await openNewUser(page, baseURL!)
  await page.route('**/api/trpc/users.create**', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify([
        { error: { message: 'username: refused by a proxy', code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, appCode: 'INVALID_INPUT', extra: null } } },
      ]),
    }),
  )
  await fillNewUser(page, uniqueName('anna'))
  const field = page.locator('.mantine-InputWrapper-root', { has: page.getByRole('textbox', { name: 'Username' }) })
  await expect(field).toContainText('Dati non validi: Username')
  await expect(page.locator('main')).not.toContainText('refused by a proxy')
})

test('bom: a quantity with more than 4 decimals is refused next to the field, never rounded; 4 decimals save as typed', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!)
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName('Montaggio') } }))
  const tag = uniqueName('DEC').toUpperCase()
  const product = async (code: string) => (await ok<{ _key: string }>(await api.post('/api/product', { data: { code: `${tag}-${code}` } })))._key
  const main = await product('MAIN')
  await product('VITE')
  await ok(await api.put(`/api/product/${main}/process`, { data: { phases: [{ operation_key: operation._key }] } }))
  const library = await createReadyUser(baseURL!, 'library')
  const path = `/app/library/product/${main}/bom`
  await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
  await fillLogin(page, library.username, library.password)
  await expect(page).toHaveURL(new RegExp(`${path}$`))

  await page.getByRole('button', { name: 'Modifica distinta' }).click()
  await page.getByTestId('bom-phase-0').getByRole('button', { name: 'Aggiungi componente' }).click()
  await page.getByRole('combobox', { name: 'Componente 1 della fase 1', exact: true }).pressSequentially(`${tag}-VI`, { delay: 5 })
  await page.getByRole('option', { name: new RegExp(`${tag}-VITE`) }).click()
  const quantity = page.getByRole('textbox', { name: 'Quantità del componente 1 della fase 1' })
  await quantity.press('ControlOrMeta+a')
  await quantity.pressSequentially('1,23456', { delay: 5 })
  await quantity.press('Tab')
  await expect(quantity).toHaveValue('1,23456')
  await expect(page.getByTestId('bom-line-0-0')).toContainText('Al massimo 4 decimali')
  await page.getByRole('button', { name: 'Salva distinta' }).click()
  await expect(page.getByText('Correggi le righe evidenziate prima di salvare.')).toBeVisible()
  await expect(quantity).toHaveValue('1,23456')
  await page.screenshot({ path: `${SHOTS}/bom-decimals-refused-it.png` })
  expect((await ok<{ lines: unknown[] }>(await api.get(`/api/product/${main}/bom`))).lines).toEqual([])

  await quantity.press('End')
  await quantity.press('Backspace')
  await expect(page.getByTestId('bom-line-0-0')).not.toContainText('Al massimo 4 decimali')
  await page.getByRole('button', { name: 'Salva distinta' }).click()
  await expect.poll(async () => (await ok<{ lines: { quantity: number }[] }>(await api.get(`/api/product/${main}/bom`))).lines.map((l) => l.quantity)).toEqual([1.2345])
})
