import { expect, type Page, type Route, test } from '@playwright/test'
import { adminApi, ok, operatorWithWorkOrder, signIn, uniqueName } from './helpers'

/**
 * The server's database goes away while an operator fills a form (issue 23): every API call
 * answers what the server answers then (503 DATABASE_UNAVAILABLE with Retry-After, in REST's or
 * tRPC's shape; src-server/db/outage.test.ts checks the server side on a real PostgreSQL). The
 * tablet says "server unreachable: the database is not answering", keeps the confirmation on the
 * device (issue 24: "1 operation pending", the step done on screen), does not sign out, and sends
 * it by itself once the server answers again.
 */

test.use({ viewport: { width: 1024, height: 768 } })

const OUTAGE = { code: 'DATABASE_UNAVAILABLE', message: 'database unavailable: retry shortly' }
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots-execution/${name}.png` })

/** What the app answers while PostgreSQL cannot be reached, per call of a tRPC batch or as REST. */
async function answerDatabaseDown(route: Route) {
  const url = new URL(route.request().url())
  const headers = { 'retry-after': '5' }
  if (url.pathname === '/api/health') {
    return route.fulfill({ status: 503, headers, json: { detail: { status: 'unavailable', database: 'postgres', ...OUTAGE } } })
  }
  if (url.pathname.startsWith('/api/trpc/')) {
    const error = { error: { message: OUTAGE.message, code: -32603, data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503, appCode: OUTAGE.code, extra: null } } }
    const calls = url.pathname.slice('/api/trpc/'.length).split(',').length
    return route.fulfill({ status: 503, headers, json: url.searchParams.get('batch') ? Array.from({ length: calls }, () => error) : error })
  }
  return route.fulfill({ status: 503, headers, json: { detail: OUTAGE } })
}

test('database down while a form is filled: a clear banner, the typed value kept, still signed in; back by itself', async ({ page, baseURL }) => {
  test.setTimeout(120_000)
  const api = await adminApi(baseURL!)
  const field = await ok<{ _key: string }>(await api.post('/api/field', { data: { name: `Lotto viti ${uniqueName('')}`, type: 'text', mandatory: true } }))
  const { operator, job } = await operatorWithWorkOrder(baseURL!, {
    prefix: 'DBD',
    description: 'Valvola',
    operator: { surname: uniqueName('DbDown') },
    quantity: 2,
    phases: [
      {
        name: 'Montaggio',
        parameters: { max_offline: 300, production_batch_qt: 1, auto_new_batch: true },
        steps: [{ type: 'form', title: 'Registra il lotto', text: '', fields: [field._key] }],
      },
    ],
  })

  await signIn(page, operator.username, operator.password)
  await page.getByTestId('to-confirm').click()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${job}/steps`))
  await expect(page.getByTestId('job-state').first()).toHaveAttribute('data-state', 'running')
  await page.getByTestId(`field-${field._key}`).fill('LV-2231')

  // PostgreSQL goes away: the confirmation is refused with 503 (after the client's own retries) and kept on the tablet.
  await page.route('**/api/**', answerDatabaseDown)
  await page.getByTestId('confirm-step').click()
  await expect(page.getByTestId('offline-queue')).toContainText('Offline: 1 operation pending', { timeout: 15_000 })
  const banner = page.getByTestId('offline-banner')
  await expect(banner).toBeVisible()
  await expect(banner).toHaveAttribute('data-cause', 'database')
  await expect(banner).toContainText('Server unreachable: the database is not answering')
  await expect(page.getByTestId('job-state').first()).toHaveAttribute('data-state', 'offline')
  // The work session's own poll (every 20 s, retried twice) fails too: the screen and the work kept stay, nobody signs out.
  let refusedPolls = 0
  page.on('response', (r) => {
    if (r.url().includes('execution.workSession') && r.status() === 503) refusedPolls++
  })
  await expect.poll(() => refusedPolls, { timeout: 40_000 }).toBeGreaterThanOrEqual(3)
  await expect(page.getByTestId('batch-kept')).toBeVisible()
  await expect(page.getByTestId('offline-queue')).toContainText('Offline: 1 operation pending')
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${job}/steps`))
  await shot(page, 'database-down-banner')

  // Back: the probe of /api/health sees it, the banner goes, the kept confirmation is sent once.
  await page.unroute('**/api/**', answerDatabaseDown)
  await expect(banner).toHaveCount(0, { timeout: 15_000 })
  await expect(page.getByTestId('offline-queue')).toHaveCount(0, { timeout: 15_000 })
  await expect(page.getByTestId('job-state').first()).toHaveAttribute('data-state', 'running')
  await expect.poll(async () => (await ok<{ job: { completed_qt: number } }>(await api.get(`/api/job/${job}/work-session`))).job.completed_qt).toBe(1)
  await page.getByTestId('pause-job').click()
  await expect(page.getByTestId('job-state').first()).toHaveAttribute('data-state', 'paused')
})
