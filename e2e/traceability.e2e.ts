import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { adminApi, ISOLATED, signIn, uniqueName } from './helpers'

const SHOTS = '/tmp/shots-serials'
const rowsOf = (page: Page, testid: string) => page.getByTestId(testid).locator('tbody tr')

test('traceability: search a serial from the minimum length, open it, genealogy both ways and its CSV', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signIn(page, 'tracciabilita')
  await expect(page).toHaveURL(/\/app\/traceability$/)
  await expect(page.getByRole('heading', { name: 'Serials' })).toBeVisible()

  // Two characters: under the minimum (3), nothing is searched and the hint says so.
  const box = page.getByTestId('serials-search')
  await box.pressSequentially('SN')
  await expect(page.getByText('Type at least 3 characters')).toBeVisible()
  await box.pressSequentially('-PMP')
  await expect(page).toHaveURL(/q=SN-PMP/)
  await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
  await expect(page.getByTestId('serials-total')).toHaveText('1 serials')
  await page.screenshot({ path: `${SHOTS}/overview-1280.png`, fullPage: true })

  await rowsOf(page, 'serials-table').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-PMP-0001')
  await expect(page.getByTestId('serial-data')).toContainText('superato')
  await expect(rowsOf(page, 'serial-components')).toHaveText([/SN-MOT-0101/, /SN-PCB-0201/])

  await page.getByRole('tab', { name: 'Genealogy: components' }).click()
  await expect(rowsOf(page, 'genealogy-backward').locator('td:first-child')).toHaveText(['SN-PMP-0001', 'SN-MOT-0101', 'SN-PCB-0201', 'SN-CTL-0301'])
  await page.screenshot({ path: `${SHOTS}/genealogy-1280.png`, fullPage: true })
  const download = page.waitForEvent('download')
  await page.getByTestId('genealogy-csv-backward').click()
  const csv = readFileSync(await (await download).path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n')
  expect(csv[0]).toBe('Level;Code;Product code;Product;Status;Created on')
  expect(csv.slice(1).map((l) => l.split(';').slice(0, 2).join(';'))).toEqual(['0;SN-PMP-0001', '1;SN-MOT-0101', '1;SN-PCB-0201', '2;SN-CTL-0301'])

  // Down to the controller, then forward: what it went into, up to the pump.
  await page.getByTestId('genealogy-backward').getByRole('link', { name: 'SN-CTL-0301' }).click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-CTL-0301')
  await expect(page.getByText('Contained in')).toBeVisible()
  await page.getByRole('tab', { name: 'Genealogy: used in' }).click()
  await expect(rowsOf(page, 'genealogy-forward').locator('td:first-child')).toHaveText(['SN-CTL-0301', 'SN-PCB-0201', 'SN-PMP-0001'])
  await page.getByRole('tab', { name: 'History' }).click()
  await expect(rowsOf(page, 'serial-history')).toHaveText([/Created/, /Linked.*SN-CTL-0301 in SN-PCB-0201/])
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.screenshot({ path: `${SHOTS}/history-1024.png`, fullPage: true })

  // Back to the overview: the search is kept.
  await page.getByRole('link', { name: 'Serials' }).click()
  await expect(page).toHaveURL(/\/app\/traceability\?q=SN-PMP$/)
  await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
})

test('traceability: filters by product and state; an unknown serial reads as not found', async ({ page }) => {
  await signIn(page, 'tracciabilita')
  await page.getByRole('combobox', { name: 'Product' }).click()
  await page.getByRole('option', { name: /^CMP-MOT-01/ }).click()
  // Made at the same moment by the demo seed: either order.
  await expect(rowsOf(page, 'serials-table')).toHaveCount(2)
  await expect(page.getByTestId('serials-table')).toContainText('SN-MOT-0101')
  await expect(page.getByTestId('serials-table')).toContainText('SN-MOT-0102')
  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'Temporary' }).click()
  await expect(page.getByText('No serials')).toBeVisible()
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.screenshot({ path: `${SHOTS}/filters-1024.png`, fullPage: true })
  await page.evaluate(() => history.pushState(null, '', '/app/traceability/serials/00000000-0000-4000-8000-000000000000'))
  await expect(page.getByRole('alert')).toHaveText('Not found')
})

test('traceability: a code is corrected only with the setting on and a reason; the history keeps old, new and why', ISOLATED, async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!)
  const setFlags = async (on: boolean) => expect((await api.patch('/api/settings', { data: { serial_code_edit: on, serial_delete: on } })).status()).toBe(200)
  await setFlags(false)
  try {
    await signIn(page, 'tracciabilita')
    const box = page.getByTestId('serials-search')
    await box.pressSequentially('SN-MOT-0102')
    await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
    await rowsOf(page, 'serials-table').first().click()
    await expect(page.getByTestId('serial-code')).toHaveText('SN-MOT-0102')
    // Setting off: no way to change the code.
    await expect(page.getByRole('button', { name: 'Change code' })).toHaveCount(0)

    await setFlags(true)
    await page.reload()
    await page.getByRole('textbox', { name: 'Password' }).fill('demo1234')
    await page.getByRole('button', { name: 'Unlock' }).click()
    await page.getByRole('button', { name: 'Change code' }).click()
    const dialog = page.getByRole('dialog', { name: 'Change the serial code' })
    const next = uniqueName('SN-MOT')
    await dialog.getByRole('textbox', { name: 'New code' }).fill('')
    await dialog.getByRole('textbox', { name: 'New code' }).pressSequentially(next)
    // No reason: Save stays off.
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled()
    await dialog.getByRole('textbox', { name: 'Reason' }).pressSequentially('etichetta ristampata')
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.screenshot({ path: `${SHOTS}/edit-1024.png` })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByTestId('serial-code')).toHaveText(next)
    await page.getByRole('tab', { name: 'History' }).click()
    await expect(rowsOf(page, 'serial-history').last()).toContainText(`code: SN-MOT-0102 → ${next}; Reason: etichetta ristampata`)

    // A code already in use is refused with the SPEC message; the serial keeps its code.
    await page.getByRole('button', { name: 'Change code' }).click()
    await dialog.getByRole('textbox', { name: 'New code' }).fill('')
    await dialog.getByRole('textbox', { name: 'New code' }).pressSequentially('SN-PMP-0001')
    await dialog.getByRole('textbox', { name: 'Reason' }).pressSequentially('prova')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(page.locator('.mantine-Notification-root', { hasText: 'Serial code already used: cannot update' })).toBeVisible()
    await dialog.getByRole('textbox', { name: 'New code' }).fill('')
    // Back to the demo code, so that the other tests find it again.
    await dialog.getByRole('textbox', { name: 'New code' }).pressSequentially('SN-MOT-0102')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByTestId('serial-code')).toHaveText('SN-MOT-0102')
  } finally {
    await setFlags(false)
  }
})

test('traceability: removing a component asks for a reason first', ISOLATED, async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!)
  expect((await api.patch('/api/settings', { data: { serial_delete: true } })).status()).toBe(200)
  try {
    await signIn(page, 'tracciabilita')
    await page.getByTestId('serials-search').pressSequentially('SN-PMP-0001')
    await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
    await rowsOf(page, 'serials-table').first().click()
    await expect(page.getByTestId('serial-code')).toHaveText('SN-PMP-0001')
    await rowsOf(page, 'serial-components').first().getByRole('button', { name: 'Remove' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove SN-MOT-0101 from SN-PMP-0001?' })
    await expect(dialog.getByRole('button', { name: 'Remove link' })).toBeDisabled()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(rowsOf(page, 'serial-components')).toHaveCount(2)
  } finally {
    expect((await api.patch('/api/settings', { data: { serial_delete: false } })).status()).toBe(200)
  }
})
