import { expect, type Page, test } from '@playwright/test'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import { adminApi, createReadyUser, ISOLATED, type NewUser, ok, releaseProduct, signIn, signOut, uniqueName } from './helpers'

/**
 * Two-level traceability (issue 13): a serialized sub-assembly (a motor group numbered by a
 * counter, each with a motor serial scanned into it) is built in one work order, then consumed by
 * the finished product in another (its serial typed, the group's serial scanned). The operator
 * declares the serials as a barcode scanner types them (key by key, ending with Enter); the
 * traceability user finds the finished serial, sees the group and its motor in the genealogy, and
 * from the motor goes forward to the finished product; the group's history says which "Reso
 * definitivo" is its own batch and which its link into the pump. Library, counter and work orders are made
 * through the API (the screens are not the point here). In Italian and in English.
 */

const SHOTS = '/tmp/shots-serialexec'

type Setup = { operator: NewUser; tracer: NewUser; groupJob: string; finalJob: string; groupCode: string; finalCode: string; motorCode: string; prefix: string }

async function setup(baseURL: string): Promise<Setup> {
  const api = await adminApi(baseURL)
  const operator = await createReadyUser(baseURL, 'operator', { name: 'Op', surname: uniqueName('Seriali') })
  const tracer = await createReadyUser(baseURL, 'traceability', { name: 'Tracciatore', surname: uniqueName('Qualita') })
  const tag = uniqueName('').replace(/^_/, '').toUpperCase()
  const prefix = `GM${tag}`
  const counter = await ok<{ _key: string }>(await api.post('/api/counter', { data: { name: uniqueName('Gruppi motore'), template: `${prefix}-{###}` } }))
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName('Assemblaggio') } }))
  const product = async (code: string, description: string) => ok<{ _key: string }>(await api.post('/api/product', { data: { code, description } }))
  const motor = await product(`MOT${tag}`, 'Motore 0,75 kW')
  const group = await product(`GRP${tag}`, 'Gruppo motore')
  const pump = await product(`PMP${tag}`, 'Pompa centrifuga')
  const params = { ...DEFAULT_PHASE_PARAMETERS, production_batch_qt: 0, step_check: true, step_check_force_order: true }
  const phase = async (productKey: string, name: string, counterKey: string | null, itemKey: string) => {
    const process = await ok<{ phases: { _key: string }[] }>(
      await api.put(`/api/product/${productKey}/process`, {
        data: {
          phases: [
            {
              operation_key: operation._key,
              name,
              parameters: params,
              steps: [{ type: 'instruction', title: `${name}: monta e dichiara i seriali`, text: 'Leggi con lo scanner i seriali dei componenti.' }],
              traceability_level: 'complete',
              counter_key: counterKey,
            },
          ],
        },
      }),
    )
    const phaseKey = process.phases[0]!._key
    await ok(
      await api.put(`/api/product/${productKey}/bom`, {
        data: { lines: [{ phase_key: phaseKey, item_key: itemKey, quantity: 1, quantity_per: 'item', traceability: 'complete', declared_serials: true }] },
      }),
    )
  }
  await phase(group._key, 'Assemblaggio gruppo', counter._key, motor._key)
  await phase(pump._key, 'Montaggio pompa', null, group._key)
  const workOrder = async (productKey: string, quantity: number) => {
    await releaseProduct(api, productKey)
    return (await ok<{ phases: { jobs: { _key: string }[] }[] }>(await api.post('/api/work-order', { data: { product_key: productKey, quantity, operator_key: operator.key } })))
      .phases[0]!.jobs[0]!._key
  }
  return {
    operator,
    tracer,
    groupJob: await workOrder(group._key, 2),
    finalJob: await workOrder(pump._key, 1),
    groupCode: `GRP${tag}`,
    // Not SN-PMP-…: the demo serials of that prefix are counted by traceability.e2e.ts.
    finalCode: `FIN-PMP-${tag}`,
    motorCode: `MOT-${tag}-A`,
    prefix,
  }
}

/** From the operator's queue (where signing in and a closed job lead; a reload would lock the session). */
async function startJob(page: Page, job: string) {
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  const card = page.locator(`[data-testid="job-card"][data-job-key="${job}"]`)
  await expect(card).toBeVisible()
  await expect(page.getByTestId('job-list-queue')).toBeVisible()
  // The queue may still be catching up (a job just closed): select until the selection holds.
  await expect(async () => {
    if ((await card.getAttribute('data-selected')) === null) await card.click()
    await expect(card).toHaveAttribute('data-selected', 'true', { timeout: 1000 })
  }).toPass()
  await page.getByTestId('to-confirm').click()
  await expect(page.getByTestId('confirm-jobs')).toBeVisible()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${job}/steps`))
  await expect(page.getByTestId('batch-serials')).toBeVisible()
}

/** What a keyboard-wedge scanner does: the code key by key, then Enter. */
async function scan(page: Page, testId: string, code: string) {
  const input = page.getByTestId(testId)
  await input.pressSequentially(code, { delay: 5 })
  await input.press('Enter')
}

const toast = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root', { hasText: text })

const LANGS = [
  {
    lang: 'it',
    locale: 'it-IT',
    t: {
      saved: 'Collegamenti seriali salvati',
      notDeclared: 'Dichiara prima tutti i seriali del lotto',
      wrongProduct: (code: string) => new RegExp(`Pezzo 2: il seriale ${code} è del prodotto \\S+, non del componente \\S+`),
      declared: (n: number, of: number) => `${n} di ${of} pezzi dichiarati`,
      counterMissing: 'Nessun contatore definito',
      graph: 'Grafo genealogia',
      backward: 'Genealogia: componenti',
      forward: 'Genealogia: utilizzi',
      history: 'Storico',
      finalized: 'Reso definitivo',
      ownBatch: /il seriale, al completamento del lotto \d+/,
      linkInto: (code: string) => `il collegamento in ${code}`,
    },
  },
  {
    lang: 'en',
    locale: 'en-US',
    t: {
      saved: 'Serial links saved',
      notDeclared: "Declare every serial of the batch first",
      wrongProduct: (code: string) => new RegExp(`Piece 2: serial ${code} belongs to product \\S+, not to component \\S+`),
      declared: (n: number, of: number) => `${n} of ${of} pieces declared`,
      counterMissing: 'No counter defined',
      graph: 'Genealogy graph',
      backward: 'Genealogy: components',
      forward: 'Genealogy: used in',
      history: 'History',
      finalized: 'Made final',
      ownBatch: /the serial, when batch \d+ completed/,
      linkInto: (code: string) => `the link into ${code}`,
    },
  },
] as const

for (const { lang, locale, t } of LANGS) {
  test.describe(`two-level traceability (${lang})`, () => {
    test.use({ locale, viewport: { width: 1024, height: 768 } })

    test(`the operator scans the serials of a sub-assembly and of the finished product; the genealogy goes down and back up (${lang})`, async ({ page, baseURL }) => {
      test.setTimeout(120_000)
      const s = await setup(baseURL!)
      const motors = [`${s.motorCode}1`, `${s.motorCode}2`]

      // --- Work order 1: two motor groups, numbered by the counter, a motor scanned into each.
      await signIn(page, s.operator.username, s.operator.password)
      await startJob(page, s.groupJob)
      const panel = page.getByTestId('batch-serials')
      await expect(panel.getByTestId('serials-declared')).toHaveText(t.declared(0, 2))
      await expect(page.getByTestId('step-serials-missing')).toBeVisible()
      // Completing the step before the serials are declared: the server refuses.
      await page.getByTestId('confirm-step').click()
      await expect(toast(page, t.notDeclared)).toBeVisible()
      await page.getByTestId('error-toast-close').first().click()

      // Piece 1: the motor scanned, Enter saves.
      await scan(page, 'serial-scan-1-1-1', motors[0]!)
      await expect(toast(page, t.saved)).toBeVisible()
      // The toast names the link made: the piece's serial and the motor in it.
      await expect(toast(page, t.saved)).toContainText(`← ${motors[0]!}`)
      // The counter numbered both pieces at the first save; the scanner's Enter moved on to piece 2.
      await expect(page.getByTestId('serial-code-1')).toHaveText(`${s.prefix}-001`)
      await expect(page.getByTestId('serial-code-2')).toHaveText(`${s.prefix}-002`)
      await expect(page.getByTestId('serial-scan-2-1-1')).toBeFocused()
      await page.screenshot({ path: `${SHOTS}/group-piece1-${lang}.png` })
      // A serial of another product (the first group, not a motor): refused in red, nothing kept.
      await scan(page, 'serial-scan-2-1-1', `${s.prefix}-001`)
      await expect(toast(page, t.wrongProduct(`${s.prefix}-001`))).toBeVisible()
      // The field turns red with the message under it, naming the product the serial belongs to.
      await expect(page.getByTestId('batch-serials').getByText(t.wrongProduct(`${s.prefix}-001`))).toBeVisible()
      await page.getByTestId('error-toast-close').first().click()
      await expect(panel.getByTestId('serials-declared')).toHaveText(t.declared(1, 2))
      // Piece 1's motor scanned into piece 2: it is inside the first group, so moving it asks first.
      const second = page.getByTestId('serial-scan-2-1-1')
      await second.press('ControlOrMeta+a')
      await second.press('Backspace')
      await scan(page, 'serial-scan-2-1-1', motors[0]!)
      await expect(page.getByTestId('confirm-move-text')).toContainText(motors[0]!)
      await expect(page.getByTestId('confirm-move-text')).toContainText(`${s.prefix}-001`)
      await page.screenshot({ path: `${SHOTS}/group-confirm-move-${lang}.png` })
      await page.getByTestId('confirm-move').click()
      await expect(page.getByTestId('serial-piece-2')).toHaveAttribute('data-declared', 'true')
      await expect(page.getByTestId('serial-piece-1')).not.toHaveAttribute('data-declared', 'true')
      await expect(page.getByTestId('serial-scan-1-1-1')).toHaveValue('')
      // Piece 1 gets the other motor: both pieces declared.
      await scan(page, 'serial-scan-1-1-1', motors[1]!)
      await expect(panel.getByTestId('serials-declared')).toHaveText(t.declared(2, 2))
      await expect(page.getByTestId('step-serials-missing')).toHaveCount(0)
      await page.screenshot({ path: `${SHOTS}/group-declared-${lang}.png` })
      await page.getByTestId('confirm-step').click()
      await expect(page).toHaveURL(/\/app\/operator\/select-job/, { timeout: 15_000 })

      // --- Work order 2: the pump; no counter, so its serial is typed (scanned), then the group.
      await expect(page.locator(`[data-testid="job-card"][data-job-key="${s.groupJob}"]`)).toHaveCount(0)
      await startJob(page, s.finalJob)
      await expect(page.getByTestId('counter-not-defined')).toContainText(t.counterMissing)
      await scan(page, 'serial-code-input-1', s.finalCode)
      await expect(page.getByTestId('serial-scan-1-1-1')).toBeFocused()
      await scan(page, 'serial-scan-1-1-1', `${s.prefix}-002`)
      await expect(toast(page, t.saved)).toBeVisible()
      await expect(page.getByTestId('serial-piece-1')).toHaveAttribute('data-declared', 'true')
      await page.screenshot({ path: `${SHOTS}/pump-declared-${lang}.png` })
      await page.getByTestId('confirm-step').click()
      await expect(page).toHaveURL(/\/app\/operator\/select-job/, { timeout: 15_000 })
      await signOut(page)

      // --- Traceability: find the pump's serial, its genealogy down to the motor, then back up.
      await signIn(page, s.tracer.username, s.tracer.password)
      await expect(page).toHaveURL(/\/app\/traceability$/)
      await page.getByTestId('serials-search').pressSequentially(s.finalCode)
      const rows = page.getByTestId('serials-table').locator('tbody tr')
      await expect(rows).toHaveCount(1)
      await rows.first().click()
      await expect(page.getByTestId('serial-code')).toHaveText(s.finalCode)
      // The genealogy graph: the pump, the group inside it and the group's motor.
      await page.getByRole('tab', { name: t.graph }).click()
      const graph = page.getByTestId('genealogy-graph')
      for (const code of [s.finalCode, `${s.prefix}-002`, motors[0]!]) await expect(graph.locator(`[data-testid="genealogy-node"][data-code="${code}"]`).first()).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/genealogy-graph-${lang}.png`, fullPage: true })
      await page.getByRole('tab', { name: t.backward }).click()
      const backward = page.getByTestId('genealogy-backward').locator('tbody tr td:first-child')
      await expect(backward).toHaveText([s.finalCode, `${s.prefix}-002`, motors[0]!])
      await page.screenshot({ path: `${SHOTS}/genealogy-backward-${lang}.png`, fullPage: true })
      await page.getByTestId('genealogy-backward').getByRole('link', { name: motors[0]! }).click()
      await expect(page.getByTestId('serial-code')).toHaveText(motors[0]!)
      await page.getByRole('tab', { name: t.forward }).click()
      const forward = page.getByTestId('genealogy-forward').locator('tbody tr td:first-child')
      await expect(forward).toHaveText([motors[0]!, `${s.prefix}-002`, s.finalCode])
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.screenshot({ path: `${SHOTS}/genealogy-forward-${lang}.png`, fullPage: true })
      await page.getByTestId('genealogy-forward').getByRole('link', { name: s.finalCode }).click()
      await expect(page.getByTestId('serial-code')).toHaveText(s.finalCode)
      // The group's history says which "made final" is which: its own batch (work order 1), then
      // its link into the pump (work order 2).
      await page.getByRole('tab', { name: t.backward }).click()
      await page.getByTestId('genealogy-backward').getByRole('link', { name: `${s.prefix}-002` }).click()
      await expect(page.getByTestId('serial-code')).toHaveText(`${s.prefix}-002`)
      await page.getByRole('tab', { name: t.history }).click()
      const finals = page.getByTestId('serial-history').locator('tbody tr', { hasText: t.finalized })
      await expect(finals).toHaveCount(2)
      await expect(finals.filter({ hasText: t.ownBatch })).toHaveCount(1)
      await expect(finals.filter({ hasText: t.linkInto(s.finalCode) })).toHaveCount(1)
      await page.screenshot({ path: `${SHOTS}/history-made-final-${lang}.png`, fullPage: true })
    })
  })
}

test.describe('a component serial not in stock (SPEC 5)', ISOLATED, () => {
  test.use({ locale: 'it-IT', viewport: { width: 1024, height: 768 } })

  test('with inventory management on, the operator confirms linking a motor in no stock position, without inventory movements', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const s = await setup(baseURL!)
    const api = await adminApi(baseURL!)
    const before = await ok<{ inventory_management: boolean }>(await api.get('/api/settings/warehouse'))
    await signIn(page, s.operator.username, s.operator.password)
    await startJob(page, s.groupJob)
    await ok(await api.patch('/api/settings/warehouse', { data: { inventory_management: true } }))
    try {
      const motor = `${s.motorCode}X`
      await scan(page, 'serial-scan-1-1-1', motor)
      // Nothing saved yet: the dialog names the serial.
      await expect(page.getByTestId('confirm-stock-text')).toContainText(motor)
      await expect(page.getByTestId('serial-piece-1')).not.toHaveAttribute('data-declared', 'true')
      await page.screenshot({ path: `${SHOTS}/confirm-not-in-stock-it.png` })
      await page.getByTestId('confirm-stock').click()
      await expect(toast(page, 'Collegamenti seriali salvati')).toBeVisible()
      await expect(page.getByTestId('serial-piece-1')).toHaveAttribute('data-declared', 'true')
      await expect(page.getByTestId('confirm-stock-text')).toHaveCount(0)
    } finally {
      await api.patch('/api/settings/warehouse', { data: { inventory_management: before.inventory_management } })
    }
  })
})
