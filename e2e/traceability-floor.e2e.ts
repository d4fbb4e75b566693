import { expect, type Page, request, test } from '@playwright/test'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { adminApi, createReadyUser, ISOLATED, ok, releaseProduct, signIn, uniqueName } from './helpers'

/**
 * Issue 26 on the demo serials: the traceability user reaches a work order's Tracciabilità from
 * the serial and from the overview (their own route: the production area is not theirs), and a
 * serial's data and history show numbers in the user's locale; a serial field an admin adds while
 * the serial is open shows in "Correggi dati" without a reload. A component declared once per
 * batch shows in the genealogy of every piece, not only piece 1. In Italian and in English.
 */
test.describe.configure({ timeout: 120_000 })

const rowsOf = (page: Page, testid: string) => page.getByTestId(testid).locator('tbody tr')

async function openSerial(page: Page, code: string) {
  await page.getByTestId('serials-search').pressSequentially(code)
  // The one row of this code (not the one a previous search left while the new one is on its way).
  await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
  await expect(rowsOf(page, 'serials-table').first()).toContainText(code)
  await rowsOf(page, 'serials-table').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText(code)
}

/**
 * Two pieces made in one batch with a lot declared once for the batch (bom line per batch): the
 * operator declares it on piece 1 through the API, as the tablet would, and completes the batch.
 */
async function batchWithLot(baseURL: string): Promise<{ pieces: string[]; lot: string }> {
  const api = await adminApi(baseURL)
  const operator = await createReadyUser(baseURL, 'operator', { name: 'Op', surname: uniqueName('Lotto') })
  const tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName('Assemblaggio') } }))
  const product = async (code: string, description: string) => ok<{ _key: string }>(await api.post('/api/product', { data: { code, description } }))
  const screws = await product(`VIT${tag}`, 'Kit viti inox')
  const valve = await product(`VLV${tag}`, 'Valvola a sfera')
  const process = await ok<{ phases: { _key: string }[] }>(
    await api.put(`/api/product/${valve._key}/process`, {
      data: {
        phases: [
          {
            operation_key: operation._key,
            name: 'Montaggio',
            parameters: { ...DEFAULT_PHASE_PARAMETERS, production_batch_qt: 0 },
            steps: [{ type: 'instruction', title: 'Monta il corpo valvola', text: '' }],
            traceability_level: 'complete',
            counter_key: null,
          },
        ],
      },
    }),
  )
  await ok(
    await api.put(`/api/product/${valve._key}/bom`, {
      data: { lines: [{ phase_key: process.phases[0]!._key, item_key: screws._key, quantity: 1, quantity_per: 'batch', traceability: 'complete', declared_serials: true }] },
    }),
  )
  await releaseProduct(api, valve._key)
  const wo = await ok<{ phases: { jobs: { _key: string }[] }[] }>(await api.post('/api/work-order', { data: { product_key: valve._key, quantity: 2, operator_key: operator.key } }))
  const floor = await request.newContext({ baseURL })
  const { token } = await ok<{ token: string }>(await floor.post('/api/login', { data: { username: operator.username, password: operator.password } }))
  const headers = { authorization: `Bearer ${token}` }
  type Batch = { _key: string; step_data: { _key: string }[] }
  const started = await ok<{ jobs: { batch: Batch }[] }>(
    await floor.post('/api/job/start', { headers, data: { job_keys: [wo.phases[0]!.jobs[0]!._key], idempotency_key: crypto.randomUUID() } }),
  )
  const batch = started.jobs[0]!.batch
  const serials = await ok<{ components: { component_key: string }[] }>(await floor.get(`/api/batch/${batch._key}/serials`, { headers }))
  const [pieces, lot] = [[`VLV-${tag}-1`, `VLV-${tag}-2`], `LOT-VIT-${tag}`]
  await ok(
    await floor.put(`/api/batch/${batch._key}/serial-temp-links?idempotency_key=${crypto.randomUUID()}`, {
      headers,
      data: [
        { piece: 1, serial_code: pieces[0], links: [{ component_key: serials.components[0]!.component_key, child_serial_code: lot }] },
        { piece: 2, serial_code: pieces[1] },
      ],
    }),
  )
  for (const step of batch.step_data) await ok(await floor.post(`/api/batch/${batch._key}/steps/${step._key}/complete`, { headers, data: { idempotency_key: crypto.randomUUID() } }))
  await floor.post('/api/logout', { headers })
  await floor.dispose()
  return { pieces, lot }
}

const LANGS = [
  {
    lang: 'it',
    locale: 'it-IT',
    t: {
      woTitle: "Tracciabilità dell'ordine di lavoro",
      serials: 'Seriali',
      backward: 'Genealogia: componenti',
      correct: 'Correggi dati',
      dialog: 'Correggi i dati del seriale',
      reason: 'Motivo',
      save: 'Salva',
      cancel: 'Annulla',
      history: 'Storico',
      noData: 'Nessun dato',
      field: 'Tensione',
      // A person types the decimal as their language writes it, and reads it back the same way.
      number: '12,5',
      notNumber: '12.5',
    },
  },
  {
    lang: 'en',
    locale: 'en-US',
    t: {
      woTitle: 'Work order traceability',
      serials: 'Serials',
      backward: 'Genealogy: components',
      correct: 'Correct data',
      dialog: "Correct the serial's data",
      reason: 'Reason',
      save: 'Save',
      cancel: 'Cancel',
      history: 'History',
      noData: 'No data',
      field: 'Voltage',
      number: '12.5',
      notNumber: '12,5',
    },
  },
] as const

for (const { lang, locale, t } of LANGS) {
  test.describe(`traceability on the floor (${lang})`, () => {
    test.use({ locale })

    test(`the traceability user opens the work order's traceability from the serial and from the overview; a lot declared per batch is in piece 2's genealogy (${lang})`, async ({ page, baseURL }) => {
      await page.setViewportSize({ width: 1280, height: 800 })
      const made = await batchWithLot(baseURL!)
      await signIn(page, 'tracciabilita')
      await openSerial(page, 'SN-PMP-0001')
      const woCode = (await page.getByTestId('serial-work-order').innerText()).trim()
      await page.getByTestId('serial-work-order').click()
      await expect(page).toHaveURL(/\/app\/traceability\/workorder\/[0-9a-f-]{36}$/)
      await expect(page.getByTestId('wo-traceability-title')).toHaveText(`${t.woTitle} ${woCode}`)
      await expect(rowsOf(page, 'wo-serials-produced').first()).toContainText('SN-PMP-0001')
      await expect(rowsOf(page, 'wo-serials-consumed').locator('td:first-child')).toHaveText(['SN-MOT-0101', 'SN-PCB-0201'])
      await page.screenshot({ path: `/tmp/shots-serials/wo-traceability-own-route-1280-${lang}.png`, fullPage: true })
      // A serial code there opens the serial.
      await rowsOf(page, 'wo-serials-consumed').first().getByRole('link', { name: 'SN-MOT-0101' }).click()
      await expect(page.getByTestId('serial-code')).toHaveText('SN-MOT-0101')
      // From the overview: the work order code in a row is a link to the same page.
      await page.getByRole('link', { name: t.serials }).click()
      await page.getByTestId('serials-search').fill('')
      await page.getByTestId('serials-search').pressSequentially('SN-PMP-0001')
      await expect(rowsOf(page, 'serials-table')).toHaveCount(1)
      await rowsOf(page, 'serials-table').first().getByRole('link', { name: woCode }).click()
      await expect(page.getByTestId('wo-traceability-title')).toHaveText(`${t.woTitle} ${woCode}`)

      // Piece 2 of a batch whose lot was declared once, on piece 1: the lot is in its genealogy too.
      await page.goBack()
      await page.getByTestId('serials-search').fill('')
      await openSerial(page, made.pieces[1]!)
      await page.getByRole('tab', { name: t.backward }).click()
      await expect(page.getByTestId('genealogy-backward').locator('tbody tr td:first-child')).toHaveText([made.pieces[1]!, made.lot])
    })

    test(`numbers in the user's locale in the data and the history; a serial field added shows on opening "${t.correct}" (${lang})`, ISOLATED, async ({ page, baseURL }) => {
      await page.setViewportSize({ width: 1280, height: 800 })
      await signIn(page, 'tracciabilita')
      await openSerial(page, 'SN-MOT-0102')
      // The admin adds a serial field while the serial is open (a server-wide list: this test runs alone).
      const api = await adminApi(baseURL!)
      const volts = `${t.field} ${Date.now().toString(36)}`
      const res = await api.post('/api/field', { data: { name: volts, type: 'number' } })
      expect(res.status(), await res.text()).toBeLessThan(300)
      const voltsKey = ((await res.json()) as { detail: { _key: string } }).detail._key
      expect((await api.post('/api/serial-field', { data: { field_key: voltsKey } })).status()).toBeLessThan(300)
      const dialog = page.getByRole('dialog', { name: t.dialog })
      try {
        await page.getByRole('button', { name: t.correct }).click()
        await dialog.getByRole('textbox', { name: volts }).pressSequentially(t.number)
        await dialog.getByRole('textbox', { name: t.reason }).pressSequentially(lang === 'it' ? 'misura al collaudo' : 'measured at testing')
        await dialog.getByRole('button', { name: t.save }).click()
        await expect(dialog).toHaveCount(0)
        await expect(page.getByTestId('serial-data')).toContainText(t.number)
        await expect(page.getByTestId('serial-data')).not.toContainText(t.notNumber)
        await page.getByRole('tab', { name: t.history }).click()
        await expect(rowsOf(page, 'serial-history').last()).toContainText(`${volts}: — → ${t.number}`)
        await page.screenshot({ path: `/tmp/shots-serials/history-locale-${lang}-1280.png`, fullPage: true })
      } finally {
        if (await dialog.isVisible()) await dialog.getByRole('button', { name: t.cancel }).click()
        if (await page.getByTestId('serial-data').isVisible()) {
          await page.getByRole('button', { name: t.correct }).click()
          await dialog.getByRole('textbox', { name: volts }).fill('')
          await dialog.getByRole('textbox', { name: t.reason }).pressSequentially(lang === 'it' ? 'ripristino dati demo' : 'demo data put back')
          await dialog.getByRole('button', { name: t.save }).click()
          await expect(page.getByText(t.noData, { exact: true })).toBeVisible()
        }
        await api.delete(`/api/serial-field/${voltsKey}`)
      }
    })
  })
}
