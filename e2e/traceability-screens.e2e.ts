import { expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, ISOLATED, openArea, signIn } from './helpers'

/**
 * Traceability screens of issue 13 on the demo serials (SN-PMP-0001 holds SN-MOT-0101 and
 * SN-PCB-0201, SN-PCB-0201 holds SN-CTL-0301; SN-MOT-0102 is a spare; the pump was made by the
 * first demo work order of PMP-100): the genealogy graph both ways and its clicks, a data
 * correction with its reason in the history (put back afterwards), the overview's work order
 * filter and the work order's Tracciabilità tab, in English and Italian.
 */
// Each test walks several screens (about 15-20 s on a quiet machine): room for a busy one.
test.describe.configure({ timeout: 120_000 })

const SHOTS = '/tmp/shots-serials'
const rowsOf = (page: Page, testid: string) => page.getByTestId(testid).locator('tbody tr')
const node = (page: Page, code: string) => page.getByTestId('genealogy-graph').locator(`[data-testid="genealogy-node"][data-code="${code}"]`)

/** Into a screen of the app without reloading it (a reload locks the session). */
async function goInApp(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState(null, '', p)
    dispatchEvent(new PopStateEvent('popstate'))
  }, path)
}

async function openSerial(page: Page, code: string) {
  await page.getByTestId('serials-search').pressSequentially(code)
  await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
  await rowsOf(page, 'serials-table').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText(code)
}

/** The top edge of each node, by code: who is drawn above whom. */
async function tops(page: Page, codes: string[]): Promise<number[]> {
  return Promise.all(codes.map(async (c) => (await node(page, c).boundingBox())!.y))
}

test('genealogy graph: the serial with what it is made of below and what it went into above; a click opens a serial', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signIn(page, 'tracciabilita')
  await openSerial(page, 'SN-PMP-0001')
  await page.getByRole('tab', { name: 'Genealogy graph' }).click()
  const nodes = page.getByTestId('genealogy-graph').getByTestId('genealogy-node')
  await expect(nodes).toHaveCount(4)
  await expect(node(page, 'SN-PMP-0001')).toHaveAttribute('data-role', 'self')
  for (const code of ['SN-MOT-0101', 'SN-PCB-0201', 'SN-CTL-0301']) await expect(node(page, code)).toHaveAttribute('data-role', 'component')
  // Three edges: pump -> motor, pump -> board, board -> controller.
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  const [pump, motor, board, ctl] = await tops(page, ['SN-PMP-0001', 'SN-MOT-0101', 'SN-PCB-0201', 'SN-CTL-0301'])
  expect(pump!).toBeLessThan(motor!)
  expect(motor).toBe(board)
  expect(board!).toBeLessThan(ctl!)
  // The whole graph fits in its box, and the box in the window.
  const box = (await page.getByTestId('genealogy-graph').boundingBox())!
  expect(box.y + box.height).toBeLessThanOrEqual(800 + 1)
  for (const code of ['SN-PMP-0001', 'SN-CTL-0301']) {
    const b = (await node(page, code).boundingBox())!
    expect(b.x).toBeGreaterThanOrEqual(box.x)
    expect(b.y + b.height).toBeLessThanOrEqual(box.y + box.height)
  }
  // The graph's own buttons speak the user's language (the library's defaults are 'Zoom In', 'Fit View').
  await expect(page.getByRole('button', { name: 'Zoom In', exact: true })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Zoom in', exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Fit to window', exact: true })).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/graph-1280.png` })

  // A click on the board opens it: the pump above it, the controller below.
  await node(page, 'SN-PCB-0201').click()
  await expect(page).toHaveURL(/\/app\/traceability\/serials\/[0-9a-f-]{36}$/)
  await expect(page.getByTestId('serial-code')).toHaveText('SN-PCB-0201')
  await page.getByRole('tab', { name: 'Genealogy graph' }).click()
  await expect(nodes).toHaveCount(3)
  await expect(node(page, 'SN-PCB-0201')).toHaveAttribute('data-role', 'self')
  await expect(node(page, 'SN-PMP-0001')).toHaveAttribute('data-role', 'container')
  await expect(node(page, 'SN-CTL-0301')).toHaveAttribute('data-role', 'component')
  const [above, self, below] = await tops(page, ['SN-PMP-0001', 'SN-PCB-0201', 'SN-CTL-0301'])
  expect(above!).toBeLessThan(self!)
  expect(self!).toBeLessThan(below!)
  await expect(page.getByTestId('genealogy-legend').getByText('Contained in (1)')).toBeVisible()
  await expect(page.getByTestId('genealogy-legend').getByText('Components (1)')).toBeVisible()
  await page.setViewportSize({ width: 1024, height: 768 })
  await expect(node(page, 'SN-CTL-0301')).toBeInViewport()
  await page.screenshot({ path: `${SHOTS}/graph-1024.png` })

  // Forward from the controller, the leaf: all it went into, up to the pump; the table stays next to it.
  await node(page, 'SN-CTL-0301').click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-CTL-0301')
  await page.getByRole('tab', { name: 'Genealogy graph' }).click()
  await expect(node(page, 'SN-PMP-0001')).toHaveAttribute('data-role', 'container')
  await expect(node(page, 'SN-PCB-0201')).toHaveAttribute('data-role', 'container')
  await page.getByRole('tab', { name: 'Genealogy: used in' }).click()
  await expect(rowsOf(page, 'genealogy-forward').locator('td:first-child')).toHaveText(['SN-CTL-0301', 'SN-PCB-0201', 'SN-PMP-0001'])
  await expect(page.getByTestId('genealogy-csv-forward')).toBeVisible()
})

test('data correction: the configured serial fields by name and type (mandatory marked), a reason required; the history shows each field before and after and why', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  // Two serial fields of their own (unique names), removed again at the end.
  const api = await adminApi(baseURL!)
  const made = async (res: Awaited<ReturnType<typeof api.post>>) => {
    expect(res.status(), await res.text()).toBeLessThan(300)
    return ((await res.json()) as { detail: { _key: string } }).detail
  }
  const winding = `Avvolgimento ${Date.now().toString(36)}`
  const volts = `Tensione ${Date.now().toString(36)}`
  const windingKey = (await made(await api.post('/api/field', { data: { name: winding, type: 'text' } })))._key
  const voltsKey = (await made(await api.post('/api/field', { data: { name: volts, type: 'number' } })))._key
  await made(await api.post('/api/serial-field', { data: { field_key: windingKey } }))
  await made(await api.post('/api/serial-field', { data: { field_key: voltsKey, mandatory: true } }))
  await signIn(page, 'tracciabilita')
  await openSerial(page, 'SN-MOT-0102')
  const dialog = page.getByRole('dialog', { name: "Correct the serial's data" })
  try {
    await page.getByRole('button', { name: 'Correct data' }).click()
    // No free field names any more: only the configured fields, the mandatory one marked.
    await expect(dialog.getByRole('button', { name: 'Add a field' })).toHaveCount(0)
    await expect(dialog.getByTestId(`field-${voltsKey}`)).toBeVisible()
    await expect(dialog.locator('label', { hasText: volts }).locator('.mantine-InputWrapper-required')).toHaveCount(1)
    await expect(dialog.locator('label', { hasText: winding }).locator('.mantine-InputWrapper-required')).toHaveCount(0)
    await dialog.getByRole('textbox', { name: winding }).pressSequentially('rifatto 2026')
    // A number as people type it (decimal comma); text that is no number keeps Save off.
    await dialog.getByRole('textbox', { name: volts }).pressSequentially('dodici')
    await dialog.getByRole('textbox', { name: 'Reason' }).pressSequentially('riparazione in garanzia')
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled()
    await dialog.getByRole('textbox', { name: volts }).fill('')
    await dialog.getByRole('textbox', { name: volts }).pressSequentially('12,5')
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.screenshot({ path: `${SHOTS}/data-edit-1024.png` })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(page.getByTestId('serial-data')).toContainText('rifatto 2026')
    await expect(page.getByTestId('serial-data')).toContainText(winding)
    await page.getByRole('tab', { name: 'History' }).click()
    await expect(rowsOf(page, 'serial-history').last()).toContainText('Changed')
    // (The two fields in either order: serial data is stored as JSON, keys by their key.)
    for (const part of [`${winding}: — → rifatto 2026`, `${volts}: — → 12.5`, 'Reason: riparazione in garanzia']) {
      await expect(rowsOf(page, 'serial-history').last()).toContainText(part)
    }

    // Changing a value: before and after.
    await page.getByRole('button', { name: 'Correct data' }).click()
    const value = dialog.getByRole('textbox', { name: winding })
    await value.fill('')
    await value.pressSequentially('rifatto 2027')
    await dialog.getByRole('textbox', { name: 'Reason' }).pressSequentially('anno sbagliato')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(rowsOf(page, 'serial-history').last()).toContainText(`${winding}: rifatto 2026 → rifatto 2027; Reason: anno sbagliato`)
  } finally {
    // Back to no data, so that the other specs find the demo serial as it was (also with a reason).
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Cancel' }).click()
    if (await page.getByTestId('serial-data').isVisible()) {
      await page.getByRole('button', { name: 'Correct data' }).click()
      await dialog.getByRole('textbox', { name: winding }).fill('')
      await dialog.getByRole('textbox', { name: volts }).fill('')
      await dialog.getByRole('textbox', { name: 'Reason' }).pressSequentially('ripristino dati demo')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByText('No data')).toBeVisible()
    }
    for (const key of [windingKey, voltsKey]) await api.delete(`/api/serial-field/${key}`)
  }
  for (const part of [`${winding}: rifatto 2027 → —`, `${volts}: 12.5 → —`, 'Reason: ripristino dati demo']) {
    await expect(rowsOf(page, 'serial-history').last()).toContainText(part)
  }
})

test("work order filter and the work order's Tracciabilità tab: produced and consumed serials, each opening the serial", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  const planner = await createReadyUser(baseURL!, 'production traceability', { name: 'Ilaria', surname: 'Fontana' })
  await signIn(page, planner.username, planner.password)
  await openArea(page, 'Traceability')
  await openSerial(page, 'SN-PMP-0001')
  const woCode = (await page.getByTestId('serial-work-order').innerText()).trim()
  expect(woCode.length).toBeGreaterThan(2)

  // The overview filtered by that work order, found by typing its code.
  await page.getByRole('link', { name: 'Serials' }).click()
  await page.getByTestId('serials-search').fill('')
  const wo = page.getByRole('combobox', { name: 'Work order' })
  await wo.pressSequentially(woCode.slice(0, 2))
  await expect(page.getByText('Type at least 3 characters')).toBeVisible()
  await wo.pressSequentially(woCode.slice(2))
  await page.getByRole('option', { name: new RegExp(`^${woCode} `) }).click()
  await expect(page).toHaveURL(/wo=[0-9a-f-]{36}/)
  await expect(rowsOf(page, 'serials-table')).toHaveText([/SN-PMP-0001/])
  await page.screenshot({ path: `${SHOTS}/overview-wo-1280.png` })

  // From the serial to its work order's Tracciabilità tab.
  await rowsOf(page, 'serials-table').first().click()
  await page.getByTestId('serial-work-order').click()
  await expect(page).toHaveURL(/\/app\/production\/workorder\/[0-9a-f-]{36}\/traceability$/)
  const woUrl = page.url()
  await expect(page.getByRole('tab', { name: 'Traceability' })).toHaveAttribute('aria-selected', 'true')
  await expect(rowsOf(page, 'wo-serials-produced')).toHaveCount(1)
  await expect(rowsOf(page, 'wo-serials-produced').first()).toContainText('SN-PMP-0001')
  await expect(rowsOf(page, 'wo-serials-produced').first()).toContainText('PMP-100')
  await expect(rowsOf(page, 'wo-serials-consumed').locator('td:first-child')).toHaveText(['SN-MOT-0101', 'SN-PCB-0201'])
  await expect(rowsOf(page, 'wo-serials-consumed').first()).toContainText('SN-PMP-0001')
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.screenshot({ path: `${SHOTS}/wo-tab-1024.png`, fullPage: true })
  await rowsOf(page, 'wo-serials-consumed').first().getByRole('link', { name: 'SN-MOT-0101' }).click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-MOT-0101')
  // Back on the tab: its serials in the overview, filtered by the work order.
  await page.goBack()
  await page.getByTestId('wo-serials-overview').click()
  await expect(page).toHaveURL(/\/app\/traceability\?wo=[0-9a-f-]{36}$/)
  await expect(page.getByRole('combobox', { name: 'Work order' })).toHaveValue(new RegExp(`^${woCode} `))
  await expect(rowsOf(page, 'serials-table')).toHaveText([/SN-PMP-0001/])

  // Production without the traceability scope: the same lists, codes without links.
  await page.context().clearCookies()
  await signIn(page, 'produzione')
  await goInApp(page, new URL(woUrl).pathname)
  await expect(rowsOf(page, 'wo-serials-produced').first()).toContainText('SN-PMP-0001')
  await expect(rowsOf(page, 'wo-serials-consumed')).toHaveCount(2)
  await expect(page.getByTestId('wo-serials-produced').getByRole('link')).toHaveCount(0)
  await expect(page.getByTestId('wo-serials-consumed').getByRole('link')).toHaveCount(0)
})

test.describe('in Italian', ISOLATED, () => {
  test.use({ locale: 'it-IT' })

  test('grafo, correzione e scheda Tracciabilità in italiano', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1024, height: 768 })
    const api = await adminApi(baseURL!)
    expect((await api.patch('/api/settings', { data: { serial_code_edit: true } })).status()).toBe(200)
    try {
      const planner = await createReadyUser(baseURL!, 'production traceability', { name: 'Ilaria', surname: 'Fontana' })
      await signIn(page, planner.username, planner.password)
      await openArea(page, 'Tracciabilità')
      await openSerial(page, 'SN-PCB-0201')
      await expect(page.getByRole('button', { name: 'Modifica codice' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Correggi dati' })).toBeVisible()
      await page.getByRole('tab', { name: 'Grafo genealogia' }).click()
      await expect(page.getByTestId('genealogy-graph').getByTestId('genealogy-node')).toHaveCount(3)
      await expect(page.getByTestId('genealogy-legend').getByText('Contenuto in (1)')).toBeVisible()
      await expect(page.getByTestId('genealogy-legend').getByText('Componenti (1)')).toBeVisible()
      await expect(page.getByRole('button', { name: 'Ingrandisci' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Adatta alla finestra' })).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/grafo-1024-it.png` })
      await node(page, 'SN-PMP-0001').click()
      await expect(page.getByTestId('serial-code')).toHaveText('SN-PMP-0001')
      await page.getByTestId('serial-work-order').click()
      await expect(page.getByRole('tab', { name: 'Tracciabilità' })).toHaveAttribute('aria-selected', 'true')
      await expect(page.getByRole('heading', { name: 'Seriali prodotti (1)' })).toBeVisible()
      await expect(page.getByRole('heading', { name: 'Seriali dei componenti consumati (2)' })).toBeVisible()
      await expect(rowsOf(page, 'wo-serials-consumed').first()).toContainText('SN-PMP-0001')
      await page.screenshot({ path: `${SHOTS}/scheda-odl-1024-it.png`, fullPage: true })
    } finally {
      expect((await api.patch('/api/settings', { data: { serial_code_edit: false } })).status()).toBe(200)
    }
  })
})
