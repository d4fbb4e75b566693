import { expect, type Locator, type Page, test } from '@playwright/test'
import { adminApi, ok, operatorWithWorkOrder, signIn, uniqueName } from './helpers'

/**
 * Dates and times of a form step are read as typed, never rewritten silently (issue 11): text
 * that is not a date (YYYY/MM/DD) or a time (HH:MM, 24 hours, whatever the browser's language)
 * is marked next to the field and the step refuses to save, so nothing is saved over what was
 * typed; a readable value saves as the API documents it ('YYYY-MM-DD', 'HH:MM').
 */

const SHOTS = '/tmp/shots-fixups'

const wrapperOf = (page: Page, input: Locator) => page.locator('.mantine-InputWrapper-root', { has: input })

type Setup = { operator: { username: string; password: string }; job: string; date: string; time: string }

/** One form step with an optional date field and an optional time field, and a job for an operator. */
async function setup(baseURL: string): Promise<Setup> {
  const api = await adminApi(baseURL)
  const field = async (name: string, type: 'date' | 'time') => (await ok<{ _key: string }>(await api.post('/api/field', { data: { name: uniqueName(name), type } })))._key
  const date = await field('Data controllo', 'date')
  const time = await field('Ora controllo', 'time')
  const { operator, job } = await operatorWithWorkOrder(baseURL, {
    prefix: 'DT',
    operator: { surname: uniqueName('Date') },
    phases: [{ name: 'Controllo', parameters: { step_check: true }, steps: [{ type: 'form', title: 'Registro', text: '', fields: [date, time] }] }],
  })
  return { operator, job, date, time }
}

/** The saved answers of the open batch's form step, by field key (null when not answered). */
async function saved(baseURL: string, job: string, field: string): Promise<unknown> {
  const view = await ok<{ batch: { step_data: { form_data: { field_key: string; value: unknown }[] }[] } }>(
    await (await adminApi(baseURL)).get(`/api/job/${job}/work-session`),
  )
  return view.batch.step_data[0]!.form_data.find((e) => e.field_key === field)?.value ?? null
}

async function startJob(page: Page, job: string) {
  const card = page.locator(`[data-testid="job-card"][data-job-key="${job}"]`)
  await expect(card).toBeVisible()
  if ((await card.getAttribute('data-selected')) === null) await card.click()
  await page.getByTestId('to-confirm').click()
  await page.getByTestId('start-jobs').click()
  await expect(page).toHaveURL(new RegExp(`/app/operator/job/${job}/steps`))
}

async function clear(input: Locator) {
  await input.click()
  await input.press('ControlOrMeta+a')
  await input.press('Backspace')
}

/** Counts the step saves the page sends. */
function countSaves(page: Page) {
  const sent = { count: 0 }
  page.on('request', (r) => {
    if (r.url().includes('execution.saveStep') || r.url().includes('execution.completeStep')) sent.count++
  })
  return sent
}

test.describe('form step dates (it)', () => {
  test.use({ locale: 'it-IT', viewport: { width: 1024, height: 768 } })

  test('date: text that is not a date is refused next to the field and never saved; a typed date saves as YYYY-MM-DD', async ({ page, baseURL }) => {
    const s = await setup(baseURL!)
    const sent = countSaves(page)
    await signIn(page, s.operator.username, s.operator.password)
    await startJob(page, s.job)
    const date = page.getByTestId(`field-${s.date}`)

    await date.click()
    await page.keyboard.type('2026/13/45')
    await date.press('Tab')
    await expect(date).toHaveValue('2026/13/45')
    await expect(wrapperOf(page, date)).toContainText('Data non valida (AAAA/MM/GG)')
    // The typed text makes the form edited: "Salva" is there, and refuses.
    await page.getByTestId('save-step').click()
    await expect(page.locator('.mantine-Notification-root', { hasText: 'Correggi le date e le ore segnate' })).toBeVisible()
    await expect(date).toHaveValue('2026/13/45')
    await page.screenshot({ path: `${SHOTS}/form-step-date-refused.png` })
    expect(sent.count).toBe(0)
    expect(await saved(baseURL!, s.job, s.date)).toBeNull()

    // A readable date saves as the API documents it, and reads YYYY/MM/DD.
    await clear(date)
    await page.keyboard.type('2026/11/25')
    await date.press('Tab')
    await expect(wrapperOf(page, date)).not.toContainText('Data non valida')
    await page.getByTestId('save-step').click()
    await expect.poll(() => saved(baseURL!, s.job, s.date)).toBe('2026-11-25')
    await expect(page.getByTestId('save-step')).toBeHidden()
    await expect(date).toHaveValue('2026/11/25')

    // Over a saved date: unreadable text is refused, the saved date stays as it was.
    const before = sent.count
    await clear(date)
    await page.keyboard.type('2026/02/30')
    await date.press('Tab')
    await expect(wrapperOf(page, date)).toContainText('Data non valida (AAAA/MM/GG)')
    await page.getByTestId('save-step').click()
    await expect(date).toHaveValue('2026/02/30')
    await page.getByTestId('confirm-step').click()
    await expect(date).toHaveValue('2026/02/30')
    expect(sent.count).toBe(before)
    expect(await saved(baseURL!, s.job, s.date)).toBe('2026-11-25')
    // "Annulla" brings back the saved date.
    await page.getByTestId('cancel-edit').click()
    await expect(date).toHaveValue('2026/11/25')
    await expect(page.getByTestId('save-step')).toBeHidden()
  })
})

for (const [locale, lang] of [
  ['en-US', 'en'],
  ['it-IT', 'it'],
] as const) {
  test.describe(`form step times (${lang})`, () => {
    test.use({ locale, viewport: { width: 1024, height: 768 } })
    const unreadable = lang === 'en' ? 'Invalid time (HH:MM, 24 hours)' : 'Ora non valida (HH:MM, 24 ore)'

    test('time: other text is refused and never saved; HH:MM on a 24-hour clock saves as typed', async ({ page, baseURL }) => {
      const s = await setup(baseURL!)
      const sent = countSaves(page)
      await signIn(page, s.operator.username, s.operator.password)
      await startJob(page, s.job)
      const time = page.getByTestId(`field-${s.time}`)
      // A text field, not the browser's clock (12 hours in English).
      expect(await time.evaluate((el) => (el as HTMLInputElement).type)).toBe('text')

      await time.pressSequentially('2:30 PM', { delay: 5 })
      await time.press('Tab')
      await expect(time).toHaveValue('2:30 PM')
      await expect(wrapperOf(page, time)).toContainText(unreadable)
      await page.getByTestId('save-step').click()
      await expect(time).toHaveValue('2:30 PM')
      await page.screenshot({ path: `${SHOTS}/form-step-time-refused-${lang}.png` })
      expect(sent.count).toBe(0)
      expect(await saved(baseURL!, s.job, s.time)).toBeNull()

      await clear(time)
      await time.pressSequentially('14:30', { delay: 5 })
      await time.press('Tab')
      await expect(wrapperOf(page, time)).not.toContainText(unreadable)
      await page.getByTestId('save-step').click()
      await expect.poll(() => saved(baseURL!, s.job, s.time)).toBe('14:30')
      await expect(time).toHaveValue('14:30')
      await page.screenshot({ path: `${SHOTS}/form-step-time-saved-${lang}.png` })
    })
  })
}

test.describe('form step dates when the date picker cannot load (it)', () => {
  test.use({ locale: 'it-IT', viewport: { width: 1024, height: 768 } })

  test('the date is typed in a plain field: other text is marked and not saved, a readable date saves as YYYY-MM-DD', async ({ page, baseURL }) => {
    const s = await setup(baseURL!)
    // The picker loads when a date field first shows (FormFieldInput): as if the tablet had gone offline before.
    const refused = { count: 0 }
    await page.route(/\/assets\/DateField-[\w-]+\.js$/, (route) => {
      refused.count++
      return route.abort('internetdisconnected')
    })
    const sent = countSaves(page)
    await signIn(page, s.operator.username, s.operator.password)
    await startJob(page, s.job)
    const date = page.getByTestId(`field-${s.date}`)
    await expect(date).toBeEnabled()
    expect(refused.count).toBeGreaterThan(0)

    await date.click()
    await page.keyboard.type('2026/13/45')
    await date.press('Tab')
    await expect(date).toHaveValue('2026/13/45')
    await expect(wrapperOf(page, date)).toContainText('Data non valida (AAAA/MM/GG)')
    await page.getByTestId('save-step').click()
    await expect(date).toHaveValue('2026/13/45')
    expect(sent.count).toBe(0)
    expect(await saved(baseURL!, s.job, s.date)).toBeNull()

    await clear(date)
    await page.keyboard.type('2026/11/25')
    await date.press('Tab')
    await expect(wrapperOf(page, date)).not.toContainText('Data non valida')
    await page.getByTestId('save-step').click()
    await expect.poll(() => saved(baseURL!, s.job, s.date)).toBe('2026-11-25')
    await expect(date).toHaveValue('2026/11/25')
    await page.screenshot({ path: `${SHOTS}/form-step-date-typed-fallback.png` })
  })
})
