import { expect, test } from '@playwright/test'
import { ok, operatorWithWorkOrder, SHOTS_DIR, signIn } from './helpers'

/**
 * The operator's first screen is one page of their queue (issue 23: 50 jobs, however long the
 * queue); "Show more" ("Mostra altri") loads the next page below it, in queue order, and goes
 * away once the whole queue is shown.
 */

test.use({ viewport: { width: 1024, height: 768 } })

test('operator queue: the first 50 jobs, then "Show more" loads the rest in order', async ({ page, baseURL }) => {
  test.setTimeout(180_000)
  // 21 work orders of 3 phases given to one operator: 63 open jobs in their queue.
  const s = await operatorWithWorkOrder(baseURL!, {
    prefix: 'MORE',
    phases: [{ name: 'Taglio' }, { name: 'Piega' }, { name: 'Collaudo' }],
  })
  for (let i = 0; i < 20; i++) {
    await ok(await s.api.post('/api/work-order', { data: { product_key: s.productKey, quantity: 1, operator_key: s.operator.key } }))
  }
  const all = await ok<{ assigned_jobs_by_operator: { jobs: { _key: string }[]; more: boolean }[] }>(
    await s.api.get(`/api/job-assignment?user_key=${s.operator.key}&limit=500&unassigned_limit=0`),
  )
  const queue = all.assigned_jobs_by_operator[0]!.jobs.map((j) => j._key)
  expect(queue).toHaveLength(63)

  await signIn(page, s.operator.username, s.operator.password)
  await expect(page).toHaveURL(/\/app\/operator\/select-job/)
  const cards = page.getByTestId('job-card')
  const shown = () => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-job-key')))
  // Sign-in and the first read on a busy shared machine: more than the default 10 s at times.
  await expect(cards).toHaveCount(50, { timeout: 30_000 })
  expect(await shown()).toEqual(queue.slice(0, 50))

  const more = page.getByTestId('show-more-queue')
  await more.scrollIntoViewIfNeeded()
  await expect(more).toHaveText('Show more')
  await page.screenshot({ path: `${SHOTS_DIR}/operator-queue-show-more.png` })
  await more.click()
  await expect(cards).toHaveCount(63, { timeout: 30_000 })
  expect(await shown()).toEqual(queue)
  await expect(more).toHaveCount(0)

  // A job of the second page is selected like any other.
  await page.locator(`[data-testid="job-card"][data-job-key="${queue[54]}"]`).click()
  await expect(page).toHaveURL(new RegExp(`job=${queue[54]}`))
})
