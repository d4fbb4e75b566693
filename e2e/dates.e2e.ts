import { expect, test } from '@playwright/test'
import { adminApi, releaseProduct, shot, signIn, uniqueName } from './helpers'

// An English browser would show mm/dd/yyyy in a native date field: the app's own fields follow
// SPEC 5 (YYYY/MM/DD) whatever the browser, with month names in the app's language.
test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } })

test('issue date filters: typed and pasted as YYYY/MM/DD or ISO, picked from a calendar, a wrong date said and kept', async ({ page }) => {
  await signIn(page, 'qualita')
  await expect(page).toHaveURL(/\/app\/quality\/issues$/)
  const from = page.getByRole('textbox', { name: 'Opened from' })
  const to = page.getByRole('textbox', { name: 'to', exact: true })
  await expect(from).toHaveAttribute('placeholder', 'YYYY/MM/DD')
  await expect(page.locator('input[type="date"]')).toHaveCount(0)

  // Typed as a person does, in the SPEC format.
  await from.click()
  await page.keyboard.type('2026/11/01')
  await page.keyboard.press('Tab')
  await expect(page).toHaveURL(/from=2026-11-01/)
  await expect(from).toHaveValue('2026/11/01')

  // A pasted ISO date is read too, and shown in the SPEC format once the field is left.
  await to.click()
  await page.keyboard.insertText('2026-11-20')
  await page.keyboard.press('Tab')
  await expect(page).toHaveURL(/to=2026-11-20/)
  await expect(to).toHaveValue('2026/11/20')

  // Not a date: the text stays as typed, the field says why, the filter is unchanged.
  await from.click()
  await from.press('ControlOrMeta+a')
  await page.keyboard.type('2026/02/30')
  await page.keyboard.press('Tab')
  await expect(from).toHaveValue('2026/02/30')
  await expect(page.getByText('Invalid date (YYYY/MM/DD)')).toBeVisible()
  await expect(page).toHaveURL(/from=2026-11-01/)

  // Picked from the calendar: month names in the app's language, the value in the SPEC format.
  await to.click()
  await expect(page.getByRole('button', { name: 'Choose the month' })).toHaveText('November 2026')
  await page.getByRole('button', { name: '18 November 2026', exact: true }).click()
  await expect(to).toHaveValue('2026/11/18')
  await expect(page).toHaveURL(/to=2026-11-18/)
  await shot(page, 'dates-issue-filters')
})

test('new work order: the due date typed key by key is saved as typed; a day that does not exist is said and not saved', async ({ page, baseURL }) => {
  // A product with a one-phase process (what a work order needs), made through the API.
  const api = await adminApi(baseURL!)
  const code = uniqueName('DAT').toUpperCase()
  const created = await api.post('/api/product', { data: { code, description: 'Prodotto date e2e' } })
  expect(created.status(), await created.text()).toBe(201)
  const productKey = (await created.json()).detail._key as string
  const operations = (await (await api.get('/api/operation')).json()).detail as { _key: string }[]
  const process = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ operation_key: operations[0]!._key, name: 'Montaggio' }] } })
  expect(process.status(), await process.text()).toBe(200)
  await releaseProduct(api, productKey)
  const workOrdersOfProduct = async () => (await (await api.get(`/api/work-order?product_key=${productKey}`)).json()).detail.rows as { _key: string }[]

  await signIn(page, 'produzione')
  await expect(page).toHaveURL(/\/app\/production\/overview\/workorder$/)
  await page.getByRole('link', { name: 'New work order' }).click()
  await expect(page.getByRole('heading', { name: 'New work order' })).toBeVisible()
  const productBox = page.getByRole('combobox', { name: 'Product' })
  await productBox.click()
  await productBox.pressSequentially(code)
  await expect(productBox).toHaveValue(code)
  await page.getByRole('option', { name: new RegExp(code) }).click()
  await page.getByRole('textbox', { name: 'Quantity' }).pressSequentially('3')
  const dueBy = page.getByRole('textbox', { name: 'Due by' })
  await expect(dueBy).toHaveAttribute('placeholder', 'YYYY/MM/DD')

  // 30 February: the text stays as typed, the field says why, nothing is created.
  await dueBy.pressSequentially('2026/02/30')
  await dueBy.press('Tab')
  await expect(dueBy).toHaveValue('2026/02/30')
  await expect(page.getByText('Invalid date (YYYY/MM/DD)')).toBeVisible()
  await page.getByRole('button', { name: 'Create work order' }).click()
  await expect(page.getByRole('heading', { name: 'New work order' })).toBeVisible()
  await expect(dueBy).toHaveValue('2026/02/30')
  expect(await workOrdersOfProduct()).toEqual([])
  await shot(page, 'dates-work-order-unreadable')

  // A real day, typed over it: saved as typed.
  await dueBy.press('ControlOrMeta+a')
  await dueBy.pressSequentially('2026/12/24')
  await dueBy.press('Tab')
  await expect(dueBy).toHaveValue('2026/12/24')
  await expect(page.getByText('Invalid date (YYYY/MM/DD)')).toHaveCount(0)
  await page.getByRole('button', { name: 'Create work order' }).click()
  await expect(page).toHaveURL(/\/app\/production\/workorder\/[0-9a-f-]{36}\/job-list$/)
  const woKey = page.url().split('/').at(-2)!
  const saved = await api.get(`/api/work-order/${woKey}`)
  expect(saved.status(), await saved.text()).toBe(200)
  const wo = (await saved.json()).detail as { code: string; due_by: string; start_from: string | null }
  expect(wo).toMatchObject({ due_by: '2026/12/24', start_from: null })
  expect(await workOrdersOfProduct()).toHaveLength(1)

  // The list's due date filters are the same field: typed key by key, applied once a real day.
  await page.getByRole('link', { name: 'Work orders' }).first().click()
  const dueFrom = page.getByRole('textbox', { name: 'Due from' })
  await dueFrom.pressSequentially('2026/12/24')
  await dueFrom.press('Tab')
  await expect(page).toHaveURL(/from=2026%2F12%2F24/)
  await expect(dueFrom).toHaveValue('2026/12/24')
  await expect(page.getByRole('link', { name: wo.code, exact: true })).toBeVisible()
  const dueTo = page.getByRole('textbox', { name: 'to', exact: true })
  await dueTo.pressSequentially('2026/12/23')
  await dueTo.press('Tab')
  await expect(page).toHaveURL(/to=2026%2F12%2F23/)
  await expect(page.getByRole('link', { name: wo.code, exact: true })).toHaveCount(0)
  await shot(page, 'dates-work-order-filters')
})

test.describe('Italian', () => {
  test.use({ locale: 'it-IT' })

  test('the calendar names months in Italian; the date stays YYYY/MM/DD', async ({ page }) => {
    await signIn(page, 'qualita')
    const from = page.getByRole('textbox', { name: 'Aperte dal' })
    await from.click()
    await page.keyboard.type('2026/03/09')
    await expect(page.getByRole('button', { name: 'Scegli il mese' })).toHaveText('marzo 2026')
    await page.keyboard.press('Tab')
    await expect(from).toHaveValue('2026/03/09')
    await expect(page).toHaveURL(/from=2026-03-09/)
  })
})
