import { createHmac } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { ADMIN_PASSWORD, ISOLATED, openArea, signIn, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

const SHOTS = '/tmp/shots-flows'
mkdirSync(SHOTS, { recursive: true })
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
const notice = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text })

type Hit = { id: string; timestamp: string; signature: string; body: string; status: number }

/** A webhook receiver on this machine: 500 to the first try of each webhook-id, 200 after. */
function startReceiver(): Promise<{ server: Server; url: string; hits: Hit[] }> {
  const hits: Hit[] = []
  const tries = new Map<string, number>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '')
      const n = (tries.get(id) ?? 0) + 1
      tries.set(id, n)
      const status = n === 1 ? 500 : 200
      hits.push({ id, timestamp: String(req.headers['webhook-timestamp'] ?? ''), signature: String(req.headers['webhook-signature'] ?? ''), body, status })
      res.writeHead(status).end(status === 200 ? 'ok' : 'busy')
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/mes`, hits })))
}

const expectedSignature = (secret: string, h: Hit) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${h.id}.${h.timestamp}.${h.body}`).digest('base64')}`

test('data flow: an admin creates a flow; a CSV import (a bad row shown in the preview, then fixed) creates a work order whose signed webhook is retried, delivered and redelivered', ISOLATED, async ({ page }) => {
  const receiver = await startReceiver()
  const flowName = uniqueName('ERP')
  try {
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await openArea(page, 'Settings')
    await page.getByRole('tab', { name: 'Data flows' }).click()
    await expect(page.getByRole('heading', { name: 'Data flows' })).toBeVisible()
    await page.getByRole('link', { name: 'New flow' }).click()

    // Typed as a person types; a missing choice is said before anything is sent.
    await page.getByRole('textbox', { name: 'Name' }).pressSequentially(flowName)
    await page.getByRole('textbox', { name: 'Target address' }).pressSequentially('erp.local/hooks')
    await page.getByRole('button', { name: 'Create flow' }).click()
    await expect(page.getByText('Write an http:// or https:// address')).toBeVisible()
    await expect(page.getByText('Choose at least one event')).toBeVisible()
    await page.getByRole('textbox', { name: 'Target address' }).fill('')
    await page.getByRole('textbox', { name: 'Target address' }).pressSequentially(receiver.url)
    await page.getByRole('checkbox', { name: 'Work order created' }).check()
    await shot(page, 'flow-new-1280')
    await page.getByRole('button', { name: 'Create flow' }).click()
    await expect(notice(page, 'Flow created')).toBeVisible()
    await expect(page.getByRole('heading', { name: flowName })).toBeVisible()
    // The server made the secret; the receiver verifies with it.
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()
    expect(secret).toMatch(/^whsec_/)
    await expect(page.getByText('No deliveries.')).toBeVisible()

    // Production: import work orders from a CSV, preview first.
    await openArea(page, 'Production')
    await page.getByRole('tab', { name: 'Work orders' }).click()
    await page.getByRole('link', { name: 'Import from CSV' }).click()
    await expect(page.getByRole('heading', { name: 'Import work orders from CSV' })).toBeVisible()
    const due = '2026/12/24'
    const bad = `product_code;quantity;due_by;operator_username\nPMP-100;7;${due};operatore1\nNOPE-404;2;;operatore1\n`
    await page.locator('input[type=file]').setInputFiles({ name: 'ordini.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) })
    const preview = page.getByTestId('import-preview')
    await expect(preview.locator('[data-row="2"]')).toContainText('Unknown product')
    await expect(preview.locator('[data-row="1"]')).toContainText('Will be created')
    await expect(page.getByTestId('import-run')).toBeDisabled()
    await shot(page, 'import-preview-errors-1280')
    await page.setViewportSize({ width: 1024, height: 768 })
    await shot(page, 'import-preview-errors-1024')
    await page.setViewportSize({ width: 1280, height: 800 })

    const good = `product_code;quantity;due_by;operator_username\nPMP-100;7;${due};operatore1\n`
    await page.locator('input[type=file]').setInputFiles({ name: 'ordini-ok.csv', mimeType: 'text/csv', buffer: Buffer.from(good) })
    await expect(page.getByText('1 ready')).toBeVisible()
    await expect(preview.locator('[data-row="2"]')).toHaveCount(0)
    await page.getByTestId('import-run').click()
    await expect(notice(page, '1 work orders imported')).toBeVisible()
    await expect(page).toHaveURL(/\/app\/production\/overview\/workorder$/)

    // The webhook: refused once (500), retried, then accepted; every try signed with the secret.
    await expect.poll(() => receiver.hits.filter((h) => h.status === 200).length, { timeout: 30_000 }).toBe(1)
    const [first, second] = receiver.hits
    expect(first!.id).toBe(second!.id)
    expect(first!.status).toBe(500)
    for (const h of receiver.hits) expect(h.signature).toBe(expectedSignature(secret, h))
    const payload = JSON.parse(second!.body)
    expect(payload).toMatchObject({ type: 'WORK_ORDER_CREATED', data: { product_code: 'PMP-100', quantity: 7, due_by: due } })

    // The delivery log says so; "Redeliver" sends the same id again.
    await openArea(page, 'Settings')
    await page.getByRole('tab', { name: 'Data flows' }).click()
    await page.getByRole('link', { name: flowName }).click()
    const row = page.getByTestId('deliveries').locator(`[data-delivery="${first!.id}"]`)
    await expect(row).toContainText('Delivered')
    await expect(row).toContainText('200')
    await expect(row.getByRole('cell').nth(3)).toHaveText('2')
    await shot(page, 'flow-log-1280')
    await page.setViewportSize({ width: 1024, height: 768 })
    await shot(page, 'flow-log-1024')
    await page.setViewportSize({ width: 1280, height: 800 })
    await row.getByRole('button', { name: 'Redeliver' }).click()
    await expect(notice(page, 'Delivery queued again')).toBeVisible()
    await expect.poll(() => receiver.hits.filter((h) => h.id === first!.id).length, { timeout: 30_000 }).toBe(3)
    await expect(row.getByRole('cell').nth(3)).toHaveText('3')
  } finally {
    // Leave no active flow behind for the specs after this one.
    await page
      .getByRole('button', { name: 'Delete flow' })
      .click({ timeout: 5_000 })
      .then(() => page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click())
      .then(() => expect(notice(page, 'Flow deleted')).toBeVisible())
      .catch(() => {})
    receiver.server.close()
  }
})
