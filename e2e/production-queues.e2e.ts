import { type APIRequestContext, expect, type Locator, type Page, request, test } from '@playwright/test'
import { adminApi, createReadyUser, DEMO_PASSWORD, ISOLATED, type NewUser, ok, releaseProduct, signIn, signOut, uniqueName } from './helpers'

const SHOTS = '/tmp/shots-production'

// biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions that use them
/** An API client signed in as `user` by Bearer token. */
async function apiAs(baseURL: string, username: string, password: string): Promise<APIRequestContext> {
  const anon = await request.newContext({ baseURL })
  const { token } = await ok(await anon.post('/api/login', { data: { username, password } }))
  await anon.dispose()
  return request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } })
}

type Plant = { tag: string; a: NewUser; b: NewUser; productKey: string; orders: { key: string; code: string; job: string }[]; extra: string[] }

/**
 * Closes and archives work orders a test made, so they leave the shared site queue. One whose job
 * still holds pieces in progress (the history test leaves a batch open) cannot close: it stays.
 */
async function retire(api: APIRequestContext, keys: string[]) {
  for (const key of keys) {
    const closed = await api.patch(`/api/work-order/${key}`, { data: { status: 'closed' } })
    if (closed.status() === 409) continue
    expect(closed.status(), await closed.text()).toBe(200)
    await ok(await api.post(`/api/work-order/${key}/archive`))
  }
}

/** Two operators of their own (surnames share `tag`) and three work orders, each one job given to the first. */
async function makePlant(baseURL: string): Promise<Plant> {
  const api = await adminApi(baseURL)
  await ok(await api.patch('/api/settings', { data: { independent_queue_reordering: true } }))
  const tag = uniqueName('Q')
  const a = await createReadyUser(baseURL, 'operator', { name: 'Anna', surname: `${tag}a` })
  const b = await createReadyUser(baseURL, 'operator', { name: 'Bruno', surname: `${tag}b` })
  const operation = await ok(await api.post('/api/operation', { data: { name: uniqueName('Saldatura') } }))
  const product = await ok(await api.post('/api/product', { data: { code: uniqueName('PQ').toUpperCase(), description: 'Telaio saldato' } }))
  await ok(
    await api.put(`/api/product/${product._key}/process`, {
      data: { phases: [{ operation_key: operation._key, name: 'Saldatura', steps: [{ type: 'instruction', title: 'Salda', text: '' }] }] },
    }),
  )
  const orders = []
  for (let i = 0; i < 3; i++) {
    await releaseProduct(api, product._key)
    const wo = await ok(await api.post('/api/work-order', { data: { product_key: product._key, quantity: 5, operator_key: a.key } }))
    orders.push({ key: wo._key, code: wo.code, job: wo.phases[0].jobs[0]._key })
  }
  return { tag, a, b, productKey: product._key, orders, extra: [] }
}

const card = (page: Page, user: NewUser) => page.locator(`[data-testid="operator-queue"][data-operator="${user.username}"]`)
const codesIn = (c: Locator) => c.getByTestId('queue-job-code')
const jobIn = (c: Locator, code: string) => c.getByTestId('queue-job').filter({ hasText: code })

/** A mouse drag as a person makes it: press on the handle, move in steps, release over the target. */
async function drag(page: Page, handle: Locator, target: Locator) {
  await handle.scrollIntoViewIfNeeded()
  const from = (await handle.boundingBox())!
  const to = (await target.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 8, { steps: 4 })
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 })
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + 2, { steps: 2 })
  await page.mouse.up()
}

/** Opening a URL (or reloading) loads the app anew, which locks the session (SPEC 4): unlock it. */
async function unlock(page: Page, password = DEMO_PASSWORD) {
  const dialog = page.getByRole('dialog', { name: 'Session locked' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Password' }).pressSequentially(password)
  await dialog.getByRole('button', { name: 'Unlock' }).click()
  await expect(dialog).toHaveCount(0)
}

async function open(page: Page, path: string) {
  await page.goto(path)
  await unlock(page)
}

async function openQueues(page: Page, plant: Plant) {
  await signIn(page, 'produzione')
  await page.getByRole('tab', { name: 'Operator queues' }).click()
  await expect(page).toHaveURL(/\/app\/production\/overview\/queues/)
  await page.getByRole('searchbox', { name: 'Search operator' }).pressSequentially(plant.tag)
  await expect(page.getByTestId('operator-queue')).toHaveCount(2)
}

test.describe('production: operator queues, history in words, site queue positions', ISOLATED, () => {
  let plant: Plant

  test.beforeEach(async ({ baseURL }) => {
    plant = await makePlant(baseURL!)
  })

  // The e2e server is shared by every spec: the plant setting goes back to its default and the
  // work orders made here leave the site queue (other specs read its first page).
  test.afterEach(async ({ baseURL }) => {
    const api = await adminApi(baseURL!)
    await ok(await api.patch('/api/settings', { data: { independent_queue_reordering: false } }))
    await retire(api, [...plant.orders.map((o) => o.key), ...plant.extra])
  })

  test('reorder a queue by drag and by the keyboard menu, back to the site order, move jobs to another operator', async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    const [o1, o2, o3] = plant.orders.map((o) => o.code) as [string, string, string]
    await openQueues(page, plant)
    const a = card(page, plant.a)
    const b = card(page, plant.b)
    await expect(codesIn(a)).toHaveText([o1, o2, o3])
    await expect(b).toContainText('No jobs')

    // Independent ordering on, then the third job dragged to the top.
    await a.getByRole('switch', { name: 'Independent order' }).click({ force: true })
    await expect(page.getByText(/independent ordering on/)).toBeVisible()
    await expect(a).toContainText("The operator's own order")
    await drag(page, jobIn(a, o3).getByTestId('queue-drag-handle'), jobIn(a, o1))
    await expect(codesIn(a)).toHaveText([o3, o1, o2])
    await expect(page.getByText(/queue saved/).first()).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/queues-1280.png`, fullPage: true })

    // The keyboard path: the job's menu opened and chosen with keys.
    await jobIn(a, o1).getByTestId('queue-job-menu').focus()
    await page.keyboard.press('Enter')
    await page.getByRole('menuitem', { name: 'To the end of the queue' }).focus()
    await page.keyboard.press('Enter')
    await expect(codesIn(a)).toHaveText([o3, o2, o1])
    // Saved on the server: a reload shows the same order.
    await page.reload()
    await unlock(page)
    await page.getByRole('searchbox', { name: 'Search operator' }).pressSequentially(plant.tag)
    await expect(codesIn(a)).toHaveText([o3, o2, o1])

    // Independent ordering off: back to the site order.
    await a.getByRole('switch', { name: 'Independent order' }).click({ force: true })
    await expect(page.getByText(/back to the site order/)).toBeVisible()
    await expect(codesIn(a)).toHaveText([o1, o2, o3])
    await expect(a).toContainText('Follows the site order')

    // A job dragged onto the other operator's card goes to that operator.
    await drag(page, jobIn(a, o2).getByTestId('queue-drag-handle'), b)
    await expect(codesIn(b)).toHaveText([o2])
    await expect(codesIn(a)).toHaveText([o1, o3])
    await expect(page.getByText(`Job ${o2} moved to`)).toBeVisible()
    // And one through the menu and its dialog.
    await jobIn(a, o3).getByTestId('queue-job-menu').click()
    await page.getByRole('menuitem', { name: 'Move to another operator…' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('combobox', { name: 'Operator' }).pressSequentially(`${plant.tag}b`)
    await page.getByRole('option', { name: `Bruno ${plant.tag}b` }).click()
    await dialog.getByRole('button', { name: 'Move', exact: true }).click()
    await expect(codesIn(b)).toHaveText([o2, o3])
    await expect(codesIn(a)).toHaveText([o1])
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.screenshot({ path: `${SHOTS}/queues-1024.png`, fullPage: true })

    // The operator finds them in their own queue.
    await signOut(page)
    await signIn(page, plant.b.username, plant.b.password)
    await expect(page).toHaveURL(/\/app\/operator\/select-job/)
    const cards = page.getByTestId('job-card')
    await expect(cards).toHaveCount(2)
    await expect(cards.nth(0)).toContainText(o2)
    await expect(cards.nth(1)).toContainText(o3)
  })

  test('the operator queues and the history in Italian', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'it-IT', viewport: { width: 1024, height: 768 } })
    const page = await context.newPage()
    const [o1, o2, o3] = plant.orders.map((o) => o.code) as [string, string, string]
    await signIn(page, 'produzione')
    await page.getByRole('tab', { name: 'Code operatori' }).click()
    await page.getByRole('searchbox', { name: 'Cerca operatore' }).pressSequentially(plant.tag)
    const a = card(page, plant.a)
    await expect(codesIn(a)).toHaveText([o1, o2, o3])
    await expect(a).toContainText("Segue l'ordine di stabilimento")
    await jobIn(a, o2).getByRole('button', { name: `Azioni sul job ${o2}` }).click()
    await expect(page.getByRole('menuitem', { name: 'In cima alla coda' })).toBeDisabled()
    await page.getByRole('menuitem', { name: 'Sposta a un altro operatore…' }).click()
    await expect(page.getByRole('dialog', { name: `Sposta il job ${o2} a un altro operatore` })).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/queues-it-1024.png`, fullPage: true })
    await page.getByRole('dialog').getByRole('button', { name: 'Annulla' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await page.getByRole('tab', { name: 'Ordini di lavoro' }).click()
    await expect(page).toHaveURL(/\/overview\/workorder/)
    await page.getByRole('searchbox', { name: 'Cerca', exact: true }).pressSequentially(o1)
    await page.getByRole('link', { name: o1, exact: true }).click()
    await page.getByRole('tab', { name: 'Storico' }).click()
    await expect(page.getByTestId('history-event').last()).toHaveText('Ordine di lavoro creato')
    await page.screenshot({ path: `${SHOTS}/history-it-1024.png`, fullPage: true })
    await context.close()
  })

  test('history tells the pause reason and a correction from -> to, and filters by kind', async ({ page, baseURL }) => {
    const [first] = plant.orders as [Plant['orders'][number]]
    const operator = await apiAs(baseURL!, plant.a.username, plant.a.password)
    await ok(await operator.post('/api/job/start', { data: { job_keys: [first.job], idempotency_key: crypto.randomUUID() } }))
    await ok(await operator.post(`/api/job/${first.job}/pause`, { data: { idempotency_key: crypto.randomUUID(), reason: 'no_material' } }))
    const production = await apiAs(baseURL!, 'produzione', DEMO_PASSWORD)
    await ok(await production.post('/api/job/update', { data: { job_key: first.job, action: 'update_times', time_spent_ms: 5_400_000 } }))

    await page.setViewportSize({ width: 1280, height: 800 })
    await signIn(page, 'produzione')
    await open(page, `/app/production/workorder/${first.key}/history`)
    const history = page.getByTestId('wo-history')
    await expect(history.getByTestId('history-event').first()).toHaveText('Job times corrected')
    await expect(history).toContainText('Reason: material ran out')
    await expect(history).toContainText(/Working time: \d+:\d\d:\d\d → 1:30:00/)
    await expect(history).toContainText('Job started')
    await page.screenshot({ path: `${SHOTS}/history-1280.png`, fullPage: true })

    await page.getByRole('combobox', { name: 'Type' }).click()
    await page.getByRole('option', { name: 'Corrections' }).click()
    await expect(history.getByTestId('history-event')).toHaveText(['Job times corrected'])
    await expect(page).toHaveURL(/kind=corrections/)
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.screenshot({ path: `${SHOTS}/history-1024.png`, fullPage: true })
  })

  test('a work order on another page moves to position N, then to the top', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const api = await adminApi(baseURL!)
    // More than one page of 50: the target is created last, so it sits at the end of the queue.
    const queued: number = (await ok(await api.get('/api/queue/site/0?limit=1000'))).work_orders.length
    await releaseProduct(api, plant.productKey)
    for (let i = queued; i < 52; i++) plant.extra.push((await ok(await api.post('/api/work-order', { data: { product_key: plant.productKey, quantity: 1 } })))._key)
    const target = await ok(await api.post('/api/work-order', { data: { product_key: plant.productKey, quantity: 1 } }))
    plant.extra.push(target._key)
    const total: number = (await ok(await api.get('/api/queue/site/0?limit=1000'))).work_orders.length
    const lastPage = Math.ceil(total / 50)

    await page.setViewportSize({ width: 1280, height: 800 })
    await signIn(page, 'produzione')
    await open(page, `/app/production/overview/workorder?page=${lastPage}`)
    const row = page.locator(`tr[data-row-key="${target._key}"]`)
    await expect(row.getByTestId('queue-place')).toHaveText(String(total))
    await row.getByTestId('queue-position-menu').click()
    await page.getByRole('menuitem', { name: 'Move to position…' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText(`Now at position ${total} of ${total}.`)
    await dialog.getByRole('textbox', { name: 'New position' }).pressSequentially('3')
    await dialog.getByRole('button', { name: 'Move', exact: true }).click()
    await expect(page.getByText(`${target.code} moved to position 3 of the queue`)).toBeVisible()
    // The list follows it to its page.
    await expect(page).not.toHaveURL(/page=/)
    await expect(page.locator('tbody tr').nth(2)).toHaveAttribute('data-row-key', target._key)
    await expect(row.getByTestId('queue-place')).toHaveText('3')
    await page.screenshot({ path: `${SHOTS}/site-queue-1280.png`, fullPage: false })

    await row.getByTestId('queue-position-menu').click()
    await page.getByRole('menuitem', { name: 'To the top of the queue' }).click()
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-row-key', target._key)
    const queue = (await ok(await api.get('/api/queue/site/0'))).work_orders
    expect(queue[0]._key).toBe(target._key)
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.screenshot({ path: `${SHOTS}/site-queue-1024.png`, fullPage: false })
  })
})
