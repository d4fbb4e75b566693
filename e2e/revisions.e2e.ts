import { expect, test } from '@playwright/test'
import { adminApi, createReadyUser, DEMO_PASSWORD, fillLogin, operatorStartsJob, releaseProduct, shot, uniqueName } from './helpers'

/**
 * Issue 21 in the library: a released product's draft is edited (a step reworded), the screens
 * say "Bozza", the library releases rev 2 with a reason typed like a person, and the compare view
 * shows the old and the new wording.
 */
const TEXTS = {
  it: {
    locale: 'it-IT',
    editProcess: 'Modifica processo',
    procedure: /Procedura/,
    phase: 'Fase 1: Montaggio',
    text: 'Testo',
    saveProcess: 'Salva processo',
    draft: 'Bozza',
    release: 'Rilascia',
    releasedRev: (n: number) => `Rilasciata rev ${n}`,
    revisions: 'Revisioni',
    home: 'Parametri',
    update: 'Aggiorna alla rev 2',
    rev: (n: number) => `Rev ${n}`,
    reason: 'Motivo',
    discard: 'Scarta bozza',
  },
  en: {
    locale: 'en-US',
    editProcess: 'Edit process',
    procedure: /Procedure/,
    phase: 'Phase 1: Montaggio',
    text: 'Text',
    saveProcess: 'Save process',
    draft: 'Draft',
    release: 'Release',
    releasedRev: (n: number) => `Released rev ${n}`,
    revisions: 'Revisions',
    home: 'Parameters',
    update: 'Update to rev 2',
    rev: (n: number) => `Rev ${n}`,
    reason: 'Reason',
    discard: 'Discard draft',
  },
}

async function releasedProduct(baseURL: string) {
  const api = await adminApi(baseURL)
  const code = uniqueName('REV').toUpperCase()
  const created = await api.post('/api/product', { data: { code, description: 'Prodotto revisioni e2e' } })
  expect(created.status(), await created.text()).toBe(201)
  const productKey = (await created.json()).detail._key as string
  const operations = (await (await api.get('/api/operation')).json()).detail as { _key: string }[]
  const steps = [
    { type: 'instruction', title: 'Viti', text: 'Stringi le viti a 5 Nm.' },
    { type: 'instruction', title: 'Controllo', text: 'Controlla la tenuta.' },
  ]
  const process = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ operation_key: operations[0]!._key, name: 'Montaggio', steps }] } })
  expect(process.status(), await process.text()).toBe(200)
  await releaseProduct(api, productKey, 'Prima emissione')
  return { api, productKey, operationKey: operations[0]!._key, steps }
}

for (const lang of ['it', 'en'] as const) {
  const s = TEXTS[lang]
  test.describe(lang, () => {
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test('the library rewords a step, releases rev 2 with a reason and compares it with rev 1', async ({ page, baseURL }) => {
      const { productKey } = await releasedProduct(baseURL!)
      const user = await createReadyUser(baseURL!, 'library', { name: 'Lia', surname: 'Bruni' })
      const path = `/app/library/product/${productKey}/process`
      await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
      await fillLogin(page, user.username, user.password)
      await expect(page).toHaveURL(new RegExp(`${path}$`))
      const badge = page.getByTestId('revision-badge')
      await expect(badge).toHaveText(s.releasedRev(1))
      await expect(page.getByRole('button', { name: s.release, exact: true })).toHaveCount(0)

      // Reword the first step of the draft.
      await page.getByRole('button', { name: s.editProcess }).click()
      await page.getByRole('button', { name: s.phase }).click()
      await page.getByTestId('phase-detail').getByRole('tab', { name: s.procedure }).click()
      const text = page.getByTestId('step-0').getByRole('textbox', { name: s.text })
      await text.click()
      await text.press('ControlOrMeta+a')
      await page.keyboard.type('Stringi le viti M4 a 6 Nm.')
      await page.getByRole('button', { name: s.saveProcess }).click()
      await expect(badge).toHaveText(s.draft)
      await shot(page, `revisions-draft-${lang}`)

      // Release with a reason: an empty reason is refused first.
      await page.getByRole('button', { name: s.release, exact: true }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: s.release, exact: true }).click()
      await expect(dialog).toBeVisible()
      await dialog.getByRole('textbox', { name: s.reason }).click()
      await page.keyboard.type('Coppia di serraggio aggiornata')
      await dialog.getByRole('button', { name: s.release, exact: true }).click()
      await expect(dialog).toBeHidden()
      await expect(badge).toHaveText(s.releasedRev(2))

      // The product home names the released revision, who released it and why.
      await page.getByRole('tab', { name: s.home }).first().click()
      const card = page.getByTestId('released-revision')
      await expect(card).toContainText('Rev 2')
      await expect(card).toContainText('Lia Bruni')
      await expect(card).toContainText('Coppia di serraggio aggiornata')
      await shot(page, `revisions-home-${lang}`)

      // The compare view: rev 1 against rev 2, the reworded step with its old and new text.
      await page.getByRole('tab', { name: s.revisions }).click()
      await expect(page.getByTestId('revision-list').getByRole('row')).toHaveCount(3)
      const step = page.getByTestId('revision-compare').getByTestId('step-change')
      await expect(step).toHaveCount(1)
      await expect(step.getByTestId('step-text-old')).toHaveText('Stringi le viti a 5 Nm.')
      await expect(step.getByTestId('step-text-new')).toHaveText('Stringi le viti M4 a 6 Nm.')
      await expect(step.getByTestId('step-text-new').locator('mark')).toHaveText([/M4/, '6'])
      await shot(page, `revisions-compare-${lang}`)
    })

    test('a draft edit is discarded: the process reads as released again', async ({ page, baseURL }) => {
      const { api, productKey, operationKey, steps } = await releasedProduct(baseURL!)
      const process = (await (await api.get(`/api/product/${productKey}/process`)).json()).detail as { phases: { _key: string; steps: { _key: string }[] }[] }
      const [phase] = process.phases
      const reworded = steps.map((step, i) => ({ ...step, _key: phase!.steps[i]!._key, ...(i === 0 ? { text: 'Bozza da scartare.' } : {}) }))
      const put = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ _key: phase!._key, operation_key: operationKey, name: 'Montaggio', steps: reworded }] } })
      expect(put.status(), await put.text()).toBe(200)

      const user = await createReadyUser(baseURL!, 'library')
      const path = `/app/library/product/${productKey}/process`
      await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
      await fillLogin(page, user.username, user.password)
      const badge = page.getByTestId('revision-badge')
      await expect(badge).toHaveText(s.draft)
      await page.getByRole('button', { name: s.discard }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: s.discard }).click()
      await expect(dialog).toBeHidden()
      await expect(badge).toHaveText(s.releasedRev(1))
      await expect(page.getByRole('button', { name: s.discard })).toHaveCount(0)
      const after = (await (await api.get(`/api/product/${productKey}/process`)).json()).detail as { phases: { steps: { text: string }[] }[] }
      expect(after.phases[0]!.steps[0]!.text).toBe('Stringi le viti a 5 Nm.')
    })
  })
}


for (const lang of ['it', 'en'] as const) {
  const s = TEXTS[lang]
  test.describe(lang, () => {
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test('production moves a work order not yet started to the newer revision after seeing the diff; the operator works on it', async ({ page, browser, baseURL }) => {
      const { api, productKey, operationKey, steps } = await releasedProduct(baseURL!)
      const operator = await createReadyUser(baseURL!, 'operator')
      const made = await api.post('/api/work-order', { data: { product_key: productKey, quantity: 2, operator_key: operator.key } })
      expect(made.status(), await made.text()).toBe(201)
      const woKey = (await made.json()).detail._key as string
      const process = (await (await api.get(`/api/product/${productKey}/process`)).json()).detail as { phases: { _key: string; steps: { _key: string }[] }[] }
      const [phase] = process.phases
      const reworded = steps.map((step, i) => ({ ...step, _key: phase!.steps[i]!._key, ...(i === 1 ? { text: 'Controlla la tenuta a 2 bar.' } : {}) }))
      const put = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ _key: phase!._key, operation_key: operationKey, name: 'Montaggio', steps: reworded }] } })
      expect(put.status(), await put.text()).toBe(200)
      await releaseProduct(api, productKey, 'Pressione di prova')

      const path = `/app/production/workorder/${woKey}`
      await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
      await fillLogin(page, 'produzione', DEMO_PASSWORD)
      await expect(page.getByTestId('wo-revision')).toHaveText(s.rev(1))
      await page.getByRole('button', { name: s.update }).click()
      const dialog = page.getByRole('dialog')
      await expect(dialog.getByTestId('step-text-new')).toHaveText('Controlla la tenuta a 2 bar.')
      await shot(page, `revisions-workorder-update-${lang}`)
      await dialog.getByRole('button', { name: s.update }).click()
      await expect(dialog).toBeHidden()
      await expect(page.getByTestId('wo-revision')).toHaveText(s.rev(2))
      await expect(page.getByRole('button', { name: s.update })).toHaveCount(0)

      // The operator's work session names the revision its steps come from.
      const job = (await (await api.get(`/api/work-order/${woKey}`)).json()).detail.phases[0].jobs[0]._key as string
      const floor = await operatorStartsJob(browser, s.locale, operator, job)
      await expect(floor.getByTestId('ws-context')).toContainText('(rev 2)')
      await floor.getByText('Controllo', { exact: true }).click()
      await expect(floor.getByText('Controlla la tenuta a 2 bar.')).toBeVisible()
      await shot(floor, `revisions-operator-${lang}`)
      await floor.close()
    })

    test('a release while a job runs changes nothing of it: the open session keeps the rev 1 wording and completes the batch; a new work order takes rev 2', async ({ page, browser, baseURL }) => {
      test.setTimeout(120_000)
      const { api, productKey, operationKey, steps } = await releasedProduct(baseURL!)
      const operator = await createReadyUser(baseURL!, 'operator')
      const made = await api.post('/api/work-order', { data: { product_key: productKey, quantity: 2, operator_key: operator.key } })
      expect(made.status(), await made.text()).toBe(201)
      const job = (await made.json()).detail.phases[0].jobs[0]._key as string

      const floor = await operatorStartsJob(browser, s.locale, operator, job)
      await floor.getByTestId('confirm-step').click()
      await expect(floor.getByTestId('step-1')).toHaveAttribute('data-done', 'true')

      // Meanwhile the library rewords step 2 and releases rev 2.
      const process = (await (await api.get(`/api/product/${productKey}/process`)).json()).detail as { phases: { _key: string; steps: { _key: string }[] }[] }
      const [phase] = process.phases
      const reworded = steps.map((step, i) => ({ ...step, _key: phase!.steps[i]!._key, ...(i === 1 ? { text: 'Controlla la tenuta a 3 bar.' } : {}) }))
      const put = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ _key: phase!._key, operation_key: operationKey, name: 'Montaggio', steps: reworded }] } })
      expect(put.status(), await put.text()).toBe(200)
      await releaseProduct(api, productKey, 'Pressione di prova a 3 bar')

      // The open session reads rev 1 (the server's answer too) and completes its batch from the steps it shows.
      const session = (await (await api.get(`/api/job/${job}/work-session`)).json()).detail as { steps: { text: string }[] }
      expect(session.steps.map((step) => step.text)).toEqual(['Stringi le viti a 5 Nm.', 'Controlla la tenuta.'])
      await expect(floor.getByTestId('ws-context')).toContainText('(rev 1)')
      await expect(floor.getByTestId('step-panel')).toContainText('Controlla la tenuta.')
      await expect(floor.getByText('Controlla la tenuta a 3 bar.')).toHaveCount(0)
      await floor.getByTestId('confirm-step').click()
      await expect
        .poll(async () => ((await (await api.get(`/api/job/${job}`)).json()).detail as { completed_qt: number }).completed_qt)
        .toBeGreaterThan(0)
      await floor.close()

      // A new work order takes rev 2.
      const next = await api.post('/api/work-order', { data: { product_key: productKey, quantity: 1 } })
      expect(next.status(), await next.text()).toBe(201)
      const path = `/app/production/workorder/${(await next.json()).detail._key}`
      await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
      await fillLogin(page, 'produzione', DEMO_PASSWORD)
      await expect(page.getByTestId('wo-revision')).toHaveText(s.rev(2))
    })
  })
}
