import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { adminApi, ISOLATED, releaseProduct, SHOTS_DIR, signIn, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

/** What the user sees at 1280x800. */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/wo-${name}.png` })
const notice = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root', { hasText: text })

type Made = { key: string; code: string; phases: { _key: string; name: string }[] }

/** A product with a two-phase process and one component, made through the API (the demo seed may have none yet). */
async function productWithProcess(api: APIRequestContext): Promise<Made> {
  const code = uniqueName('PMP').toUpperCase()
  const created = await api.post('/api/product', { data: { code, description: 'Pompa di prova e2e' } })
  expect(created.status(), await created.text()).toBe(201)
  const key = (await created.json()).detail._key as string
  const operations = (await (await api.get('/api/operation')).json()).detail as { _key: string; name: string }[]
  const op = (name: string) => operations.find((o) => o.name === name)?._key ?? operations[0]!._key
  const process = await api.put(`/api/product/${key}/process`, {
    data: { phases: [{ operation_key: op('Montaggio'), name: 'Montaggio' }, { operation_key: op('Collaudo'), name: 'Collaudo' }] },
  })
  expect(process.status(), await process.text()).toBe(200)
  const phases = (await process.json()).detail.phases as { _key: string; name: string }[]
  const component = await api.post('/api/product', { data: { code: `${code}-VITE`, description: 'Vite M6' } })
  const componentKey = (await component.json()).detail._key
  const bom = await api.put(`/api/product/${key}/bom`, { data: { lines: [{ phase_key: phases[0]!._key, item_key: componentKey, quantity: 4, quantity_per: 'item' }] } })
  expect(bom.status(), await bom.text()).toBe(200)
  await releaseProduct(api, key)
  return { key, code, phases }
}

async function newWorkOrder(api: APIRequestContext, productKey: string, quantity: number, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/work-order', { data: { product_key: productKey, quantity, ...extra } })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).detail as { _key: string; code: string }
}

/** The whole site queue, page after page (GET queue/site/0 answers a keyset page at a time). */
async function queueKeys(api: APIRequestContext): Promise<string[]> {
  const keys: string[] = []
  let cursor: string | null = null
  do {
    const res = await api.get(`/api/queue/site/0?limit=1000${cursor ? `&cursor=${cursor}` : ''}`)
    const detail: { work_orders: { _key: string }[]; next_cursor: string | null } = (await res.json()).detail
    keys.push(...detail.work_orders.map((w) => w._key))
    cursor = detail.next_cursor
  } while (cursor)
  return keys
}

/** Drags a row by its handle onto another row (mouse: the pointer sensor starts after a small move). */
async function dragRow(page: Page, fromKey: string, toKey: string) {
  const handle = page.locator(`tr[data-row-key="${fromKey}"]`).getByTestId('drag-handle')
  const target = page.locator(`tr[data-row-key="${toKey}"]`)
  await target.scrollIntoViewIfNeeded()
  await handle.scrollIntoViewIfNeeded()
  const from = (await handle.boundingBox())!
  const to = (await target.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 5 })
  await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2 - 4, { steps: 20 })
  // The drop place is known once the target row has moved aside for the dragged one.
  await expect.poll(() => target.evaluate((el) => getComputedStyle(el).transform)).not.toBe('none')
  await page.mouse.up()
}

test('work orders: create with jobs, reorder the queue by drag, change quantity with and without full distribution, close and archive', ISOLATED, async ({ page, baseURL }) => {
  // ISOLATED: the plant has one site queue, and this test reorders its head; a second copy of the
  // test (--repeat-each on two workers) would move its own three there at the same time.
  // Some fifty steps through the UI: more than a minute on a busy 2-core machine.
  test.setTimeout(120_000)
  const api = await adminApi(baseURL!)
  const product = await productWithProcess(api)

  await signIn(page, 'produzione')
  await expect(page).toHaveURL(/\/app\/production\/overview\/workorder/)
  await expect(page.getByText(/^\d+ work orders?$/)).toBeVisible()
  await shot(page, 'list-initial')

  // New work order: product autocomplete from 3 characters, quantity, dates, line, notes.
  await page.getByRole('link', { name: 'New work order' }).click()
  await expect(page.getByRole('heading', { name: 'New work order' })).toBeVisible()
  await page.getByRole('button', { name: 'Create work order' }).click()
  await expect(page.getByText('Choose a product', { exact: true })).toBeVisible()
  await expect(page.getByText('Enter a quantity greater than 0')).toBeVisible()
  const productBox = page.getByRole('combobox', { name: 'Product' })
  await productBox.fill(product.code.slice(0, 2))
  await expect(page.getByText('Type at least 3 characters', { exact: true })).toBeVisible()
  await productBox.fill(product.code)
  await page.getByRole('option', { name: new RegExp(product.code) }).click()
  await expect(page.getByRole('cell', { name: 'Collaudo' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Quantity' }).fill('12')
  // Dates typed key by key in the SPEC 5 form; Tab leaves the field (and closes its calendar).
  const startFrom = page.getByRole('textbox', { name: 'Start from' })
  await startFrom.pressSequentially('2030/01/10')
  await startFrom.press('Tab')
  await expect(startFrom).toHaveValue('2030/01/10')
  const dueBy = page.getByRole('textbox', { name: 'Due by' })
  await dueBy.pressSequentially('2030/01/05')
  await dueBy.press('Tab')
  await expect(page.getByText('The due date cannot be before the start date')).toBeVisible()
  await dueBy.press('ControlOrMeta+a')
  await dueBy.pressSequentially('2030/01/25')
  await dueBy.press('Tab')
  await expect(page.getByText('The due date cannot be before the start date')).toHaveCount(0)
  await page.getByRole('textbox', { name: 'Line' }).fill('Linea 1')
  await page.getByRole('textbox', { name: 'Notes' }).fill('Montare con la nuova chiave dinamometrica')
  await page.getByRole('combobox', { name: 'Operator of phase Collaudo' }).click()
  await page.getByRole('option', { name: 'Giulia Bianchi' }).click()
  await shot(page, 'new-form')
  await page.getByRole('button', { name: 'Create work order' }).click()
  await expect(notice(page, /Work order WO\d+ created/)).toBeVisible()

  // Its jobs: one per phase with the whole quantity, assigned or not as chosen.
  await expect(page).toHaveURL(/\/app\/production\/workorder\/[0-9a-f-]{36}\/job-list$/)
  const woKey = page.url().split('/').at(-2)!
  const code = (await page.getByTestId('wo-code').textContent())!
  // The material flow per phase, then the shared job list narrowed to this work order.
  await expect(page.getByTestId('wo-phase-row')).toHaveCount(2)
  await expect(page.getByTestId('wo-phase-row').nth(0)).toContainText('Unassigned · 12')
  await expect(page.getByTestId('wo-phase-row').nth(1)).toContainText('Giulia Bianchi · 12')
  const operatorOf = (phase: number) => page.getByRole('combobox', { name: `Operator of ${code} phase ${phase}` })
  const jobRow = (phase: number) => page.getByRole('row').filter({ has: operatorOf(phase) })
  await expect(operatorOf(1)).toHaveValue('')
  await expect(operatorOf(2)).toHaveValue('Giulia Bianchi')
  await expect(jobRow(1)).toContainText('Ready')
  await expect(jobRow(2)).toContainText('Not ready')
  await expect(page.getByTestId('wo-planned')).toHaveText('12')
  await shot(page, 'detail-jobs')

  // The other tabs: material (bom x quantity), notes, history, placeholders.
  await page.getByRole('tab', { name: 'Material' }).click()
  await expect(page.getByTestId('bom-total')).toHaveText('48')
  await shot(page, 'detail-bom')
  await page.getByRole('tab', { name: 'Notes' }).click()
  await expect(page.getByRole('textbox', { name: 'Work order notes' })).toHaveValue('Montare con la nuova chiave dinamometrica')
  await page.getByRole('tab', { name: 'Issues' }).click()
  await expect(page.getByTestId('new-issue')).toHaveText('New issue')

  // Quantity change: untouched phases follow the new quantity.
  await page.getByRole('button', { name: 'Change quantity' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('textbox', { name: 'New planned quantity' }).fill('15')
  await expect(dialog.getByTestId('phase-1').getByTestId('phase-sum')).toHaveText('15 / 15')
  // Without full distribution: phase 2 short of 3 pieces, save refused before sending.
  await dialog.getByTestId('phase-2').getByRole('textbox', { name: /Quantity of Giulia Bianchi/ }).fill('12')
  await expect(dialog.getByTestId('phase-2').getByTestId('phase-sum')).toHaveText('12 / 15')
  await expect(dialog.getByTestId('phase-2').getByTestId('phase-problem')).toHaveText('3 pieces still to distribute')
  await expect(dialog.getByRole('button', { name: 'Save quantity' })).toBeDisabled()
  await shot(page, 'quantity-not-distributed')
  // The rest to a new job of another operator: distributed, saved.
  await dialog.getByTestId('phase-2').getByRole('button', { name: 'New job' }).click()
  await expect(dialog.getByTestId('phase-2').getByRole('textbox', { name: 'Quantity of the new job' })).toHaveValue('3')
  await dialog.getByTestId('phase-2').getByRole('combobox', { name: 'Operator of the new job' }).click()
  await page.getByRole('option', { name: 'Marco Rossi' }).click()
  await expect(dialog.getByTestId('phase-2').getByTestId('phase-sum')).toHaveText('15 / 15')
  await shot(page, 'quantity-distributed')
  await dialog.getByRole('button', { name: 'Save quantity' }).click()
  await expect(notice(page, 'Quantity updated')).toBeVisible()
  await page.getByRole('tab', { name: 'Job list' }).click()
  await expect(page.getByTestId('wo-planned')).toHaveText('15')
  await expect(operatorOf(2)).toHaveCount(2)
  expect(await operatorOf(2).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).sort())).toEqual(['Giulia Bianchi', 'Marco Rossi'])
  await expect(page.getByTestId('wo-phase-row').nth(1)).toContainText('Marco Rossi · 3')

  // A stale dialog meets the server's rule: it answers and the dialog shows why.
  await page.getByRole('button', { name: 'Change quantity' }).click()
  await dialog.getByRole('textbox', { name: 'New planned quantity' }).fill('16')
  await expect(dialog.getByRole('button', { name: 'Save quantity' })).toBeEnabled()
  const detail = (await (await api.get(`/api/work-order/${woKey}`)).json()).detail
  const extra = await api.patch(`/api/work-order/${woKey}/update-quantities`, {
    data: { quantity: 15, phases: [{ phase_key: detail.phases[1]._key, jobs: [{ job_key: detail.phases[1].jobs[1]._key, quantity: 2 }], new_jobs: [{ quantity: 1 }] }] },
  })
  expect(extra.status(), await extra.text()).toBe(200)
  await dialog.getByRole('button', { name: 'Save quantity' }).click()
  await expect(dialog.getByTestId('quantity-server-error')).toContainText('The whole workload must be distributed')
  await expect(dialog.getByTestId('quantity-server-error')).toContainText('Phase 2 (Collaudo)')
  await shot(page, 'quantity-server-error')
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  // History: readable events.
  await page.getByRole('tab', { name: 'History' }).click()
  await expect(page.getByTestId('history-event').first()).toHaveText('Quantity changed')
  await expect(page.getByTestId('history-event').last()).toHaveText('Work order created')
  await shot(page, 'detail-history')

  // The queue: two more work orders, then drag the last one to the top.
  const second = await newWorkOrder(api, product.key, 5, { due_by: '2020/01/01', line: 'Linea 2' })
  const third = await newWorkOrder(api, product.key, 7)
  expect((await queueKeys(api)).slice(-3)).toEqual([woKey, second._key, third._key])
  // The three to the head of the queue (a save puts the listed ones first), so they are on the
  // list's first page however many work orders other specs left on this server.
  const toHead = await api.put('/api/queue', { data: { type: 's', site_key: '0', work_orders: [woKey, second._key, third._key] } })
  expect(toHead.status(), await toHead.text()).toBe(200)
  await page.getByRole('link', { name: 'Work orders' }).first().click()
  await expect(page).toHaveURL(/\/app\/production\/overview\/workorder$/)
  await expect(page.locator(`tr[data-row-key="${second._key}"]`).getByTestId('wo-late')).toBeVisible()
  await expect(page.locator(`tr[data-row-key="${woKey}"]`).getByTestId('wo-on-time')).toBeVisible()
  const before = await queueKeys(api)
  expect(before.slice(0, 3)).toEqual([woKey, second._key, third._key])
  // The last one goes before the first of the three: one move (queue/move), the queue is
  // neither read nor saved whole.
  const queueCalls: string[] = []
  const watch = (req: { url: () => string }) => {
    const procedures = /\/api\/trpc\/([\w.,]+)/.exec(req.url())?.[1]?.split(',') ?? []
    queueCalls.push(...procedures.filter((p) => /^workOrders\.(queue|saveQueue|moveInQueue)$/.test(p)))
    if (/\/api\/queue/.test(req.url())) queueCalls.push(req.url())
  }
  page.on('request', watch)
  await dragRow(page, third._key, woKey)
  await expect(notice(page, 'Queue saved')).toBeVisible()
  page.off('request', watch)
  expect(queueCalls).toEqual(['workOrders.moveInQueue'])
  const after = await queueKeys(api)
  expect(after).toEqual([third._key, woKey, second._key, ...before.slice(3)])
  const rowKeys = await page.locator('tbody tr[data-row-key]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key')))
  expect(rowKeys.slice(0, 3)).toEqual([third._key, woKey, second._key])
  await shot(page, 'list-reordered')

  // Filters: the reorder handle goes away; search narrows on the server.
  await page.getByRole('searchbox', { name: 'Search' }).fill(code)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(page.getByTestId('drag-handle')).toHaveCount(0)
  await expect(page.getByTestId('reorder-hint')).toContainText('only without filters')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await page.getByRole('combobox', { name: 'Timeliness' }).click()
  await page.getByRole('option', { name: 'Late' }).click()
  await expect(page.locator(`tr[data-row-key="${second._key}"]`)).toBeVisible()
  await expect(page.locator(`tr[data-row-key="${woKey}"]`)).toHaveCount(0)
  await shot(page, 'list-filtered-late')
  await page.getByRole('button', { name: 'Clear filters' }).click()

  // Close and archive: only finished work orders go to the archive; restore brings it back.
  await page.locator(`tr[data-row-key="${woKey}"]`).getByRole('link', { name: code }).click()
  await expect(page.getByRole('button', { name: 'Archive' })).toBeDisabled()
  await page.getByRole('button', { name: 'Close', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Close the order' }).click()
  await expect(notice(page, 'Work order closed')).toBeVisible()
  await expect(page.getByTestId('wo-status')).toHaveText('Closed')
  await expect(page.getByTestId('wo-phase-row').first()).toContainText('all closed')
  await page.getByRole('button', { name: 'Archive' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click()
  await expect(notice(page, 'Work order archived')).toBeVisible()
  await expect(page.getByText(/Archived on .*read-only/)).toBeVisible()
  await shot(page, 'detail-archived')
  expect(await queueKeys(api)).not.toContain(woKey)
  await page.getByRole('link', { name: 'Archive' }).click()
  await expect(page).toHaveURL(/\/workorder\/archive/)
  await page.getByRole('searchbox', { name: 'Search the archive' }).fill(code)
  const archivedRow = page.getByRole('row', { name: new RegExp(code) })
  await expect(archivedRow).toBeVisible()
  await shot(page, 'archive')
  await archivedRow.getByRole('button', { name: 'Restore' }).click()
  await expect(notice(page, `Work order ${code} restored at the end of the queue`)).toBeVisible()
  expect((await queueKeys(api)).at(-1)).toBe(woKey)
})
