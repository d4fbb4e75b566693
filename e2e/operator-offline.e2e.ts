import { expect, type Page, test } from '@playwright/test'
import { adminApi, type NewUser, ok, operatorWithWorkOrder, signIn, uniqueName } from './helpers'

/**
 * Offline past max_offline (issue 11) on the operator's tablet: the work timer stops where the
 * work session closed and never runs backwards once the connection and the server's answer come
 * back; the reconnection records exactly one BACK_ONLINE.
 */

test.use({ viewport: { width: 1024, height: 768 } })

const MAX_OFFLINE_S = 15
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots-execution/${name}.png` })

/** An operator with one job of one instruction step; the phase shows the timer. */
async function setup(baseURL: string): Promise<{ operator: NewUser; wo: string; job: string }> {
  const { operator, wo, job } = await operatorWithWorkOrder(baseURL, {
    prefix: 'OFF',
    description: 'Telaio saldato',
    operator: { surname: uniqueName('Offline') },
    quantity: 2,
    phases: [
      {
        name: 'Saldatura',
        parameters: { max_offline: MAX_OFFLINE_S, display_job_timer: true, std_processing_time: 600 },
        steps: [{ type: 'instruction', title: 'Salda i raccordi', text: 'Cordone continuo.', fields: [] }],
      },
    ],
  })
  return { operator, wo, job }
}

const state = (page: Page) => page.getByTestId('job-state').first()

/** The worked time the timer shows, in seconds (H:MM:SS before the expected time). */
async function timerSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('job-timer').innerText()).match(/(\d+):(\d{2}):(\d{2})/)
  expect(text).not.toBeNull()
  const [, h, m, s] = text!.map(Number) as [number, number, number, number]
  return h * 3600 + m * 60 + s
}

test('offline past max_offline: the timer stops where the session closed, goes on from there once resumed, and one BACK_ONLINE is recorded', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const s = await setup(baseURL!)
  await signIn(page, s.operator.username, s.operator.password)
  await page.getByTestId('to-confirm').click()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${s.job}/steps`))
  await expect(state(page)).toHaveAttribute('data-state', 'running')
  // One answered heartbeat: the client knows the server's time of its last contact.
  await page.waitForResponse((r) => r.url().endsWith(`/api/job/${s.job}/heartbeat`) && r.ok(), { timeout: 15_000 })

  await context.setOffline(true)
  await expect(state(page)).toHaveAttribute('data-state', 'offline')
  // Past max_offline the client closes the work session: the timer stops there (it kept counting offline).
  await expect(state(page)).toHaveAttribute('data-state', 'paused_offline', { timeout: (MAX_OFFLINE_S + 10) * 1000 })
  await expect(page.getByTestId('work-hint')).toBeVisible()
  const atClose = await timerSeconds(page)
  expect(atClose).toBeGreaterThanOrEqual(MAX_OFFLINE_S)
  await page.waitForTimeout(2_500)
  expect(await timerSeconds(page)).toBe(atClose)
  await shot(page, 'offline-closed-timer')

  await context.setOffline(false)
  await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 15_000 })
  await expect(page.getByTestId('heartbeat-stopped')).toContainText('Back online')
  // Online again, the steps no longer say they wait for the connection (the job is paused).
  await expect(page.getByTestId('work-hint')).toHaveCount(0)
  const api = await adminApi(baseURL!)
  await expect.poll(async () => (await ok<{ job: { paused_offline: boolean } }>(await api.get(`/api/job/${s.job}/work-session`))).job.paused_offline).toBe(true)
  await shot(page, 'back-online')
  // Resumed, the timer goes on from the server's count of the closed session: where it stopped
  // here, not back at the last heartbeat before the connection was lost.
  await page.getByTestId('start-job').click()
  await expect(state(page)).toHaveAttribute('data-state', 'running')
  const resumedAt = await timerSeconds(page)
  expect(resumedAt).toBeGreaterThanOrEqual(atClose - 1)
  expect(resumedAt).toBeLessThanOrEqual(atClose + 3)
  await shot(page, 'resumed-timer')

  const history = await ok<{ event_type: string; subject_key: string | null }[]>(await api.get(`/api/work-order/${s.wo}/history`))
  const ofJob = history.filter((e) => e.subject_key === s.job).map((e) => e.event_type)
  expect(ofJob).toContain('JOB_PAUSE_FORCED')
  expect(ofJob.filter((t) => t === 'BACK_ONLINE')).toHaveLength(1)
  // Leave nothing running for the other specs.
  await page.getByTestId('pause-job').click()
  await expect(state(page)).toHaveAttribute('data-state', 'paused')
})
