import { expect, type Page, test } from '@playwright/test'
import { adminApi, signIn } from './helpers'

/**
 * Issue 26 on the demo serials: the traceability user reaches a work order's Tracciabilità from
 * the serial and from the overview (their own route: the production area is not theirs), and a
 * serial's data and history show numbers in the user's locale; a serial field an admin adds while
 * the serial is open shows in "Correggi dati" without a reload.
 */
test.describe.configure({ timeout: 120_000 })

const rowsOf = (page: Page, testid: string) => page.getByTestId(testid).locator('tbody tr')

async function openSerial(page: Page, code: string) {
  await page.getByTestId('serials-search').pressSequentially(code)
  await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
  await rowsOf(page, 'serials-table').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText(code)
}

test("the traceability user opens the work order's traceability from the serial and from the overview", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signIn(page, 'tracciabilita')
  await openSerial(page, 'SN-PMP-0001')
  const woCode = (await page.getByTestId('serial-work-order').innerText()).trim()
  await page.getByTestId('serial-work-order').click()
  await expect(page).toHaveURL(/\/app\/traceability\/workorder\/[0-9a-f-]{36}$/)
  await expect(page.getByTestId('wo-traceability-title')).toHaveText(`Work order traceability ${woCode}`)
  await expect(rowsOf(page, 'wo-serials-produced').first()).toContainText('SN-PMP-0001')
  await expect(rowsOf(page, 'wo-serials-consumed').locator('td:first-child')).toHaveText(['SN-MOT-0101', 'SN-PCB-0201'])
  await page.screenshot({ path: '/tmp/shots-serials/wo-traceability-own-route-1280.png', fullPage: true })
  // A serial code there opens the serial.
  await rowsOf(page, 'wo-serials-consumed').first().getByRole('link', { name: 'SN-MOT-0101' }).click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-MOT-0101')
  // From the overview: the work order code in a row is a link to the same page.
  await page.getByRole('link', { name: 'Serials' }).click()
  await page.getByTestId('serials-search').fill('')
  await page.getByTestId('serials-search').pressSequentially('SN-PMP-0001')
  await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
  await rowsOf(page, 'serials-table').first().getByRole('link', { name: woCode }).click()
  await expect(page.getByTestId('wo-traceability-title')).toHaveText(`Work order traceability ${woCode}`)
})

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' })

  test('numeri con la virgola nei dati e nella storia; un campo seriale aggiunto compare aprendo "Correggi dati"', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await signIn(page, 'tracciabilita')
    await openSerial(page, 'SN-MOT-0102')
    // The admin adds a serial field while the serial is open.
    const api = await adminApi(baseURL!)
    const volts = `Tensione ${Date.now().toString(36)}`
    const res = await api.post('/api/field', { data: { name: volts, type: 'number' } })
    expect(res.status(), await res.text()).toBeLessThan(300)
    const voltsKey = ((await res.json()) as { detail: { _key: string } }).detail._key
    expect((await api.post('/api/serial-field', { data: { field_key: voltsKey } })).status()).toBeLessThan(300)
    const dialog = page.getByRole('dialog', { name: 'Correggi i dati del seriale' })
    try {
      await page.getByRole('button', { name: 'Correggi dati' }).click()
      await dialog.getByRole('textbox', { name: volts }).pressSequentially('12,5')
      await dialog.getByRole('textbox', { name: 'Motivo' }).pressSequentially('misura al collaudo')
      await dialog.getByRole('button', { name: 'Salva' }).click()
      await expect(dialog).toHaveCount(0)
      await expect(page.getByTestId('serial-data')).toContainText('12,5')
      await expect(page.getByTestId('serial-data')).not.toContainText('12.5')
      await page.getByRole('tab', { name: 'Storico' }).click()
      await expect(rowsOf(page, 'serial-history').last()).toContainText(`${volts}: — → 12,5`)
      await page.screenshot({ path: '/tmp/shots-serials/history-locale-it-1280.png', fullPage: true })
    } finally {
      if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Annulla' }).click()
      if (await page.getByTestId('serial-data').isVisible()) {
        await page.getByRole('button', { name: 'Correggi dati' }).click()
        await dialog.getByRole('textbox', { name: volts }).fill('')
        await dialog.getByRole('textbox', { name: 'Motivo' }).pressSequentially('ripristino dati demo')
        await dialog.getByRole('button', { name: 'Salva' }).click()
        await expect(page.getByText('Nessun dato')).toBeVisible()
      }
      await api.delete(`/api/serial-field/${voltsKey}`)
    }
  })
})
