import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { adminApi, createReadyUser, fillLogin, operatorStartsJob, productionOpensHistory, releaseProduct, shot, uniqueName } from './helpers'

/**
 * Issue 22, electronic signatures: the library makes a step require "Verificato" with a quality
 * second signer and releases it; on one tablet the operator completes that step, a wrong
 * password is refused in the dialog, then the operator and a quality user sign it together;
 * production reads both signatures under the step in the work order history and in the production
 * record (the PDF, read with pdftotext); quality finds the signing in the audit trail by the work
 * order's code and exports it.
 */
const TEXTS = {
  it: {
    locale: 'it-IT',
    editProcess: 'Modifica processo',
    procedure: /Procedura/,
    phase: 'Fase 1: Montaggio',
    saveProcess: 'Salva processo',
    release: 'Rilascia',
    releasedRev: (n: number) => `Rilasciata rev ${n}`,
    revisions: 'Revisioni',
    reason: 'Motivo',
    signatureOf: 'Firma del passo 1',
    secondOf: 'Secondo firmatario del passo 1',
    verified: 'Verificato',
    quality: 'Con il permesso Qualità',
    signatureChange: 'Firma: nessuna → Verificato, secondo firmatario Qualità',
    password: 'La tua password',
    secondUser: 'Nome utente del secondo firmatario',
    secondPassword: 'Password del secondo firmatario',
    sign: 'Firma e completa',
    wrong: 'Password errata: il passo non è stato firmato né completato',
    signedBy: (name: string) => new RegExp(`^Firmato da ${name} · \\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2} · Verificato`),
    torque: '12,5',
    record: 'Registro di produzione',
    pdfSigned: 'Firmato da',
    code: 'Codice',
    csv: 'Esporta CSV',
  },
  en: {
    locale: 'en-US',
    editProcess: 'Edit process',
    procedure: /Procedure/,
    phase: 'Phase 1: Montaggio',
    saveProcess: 'Save process',
    release: 'Release',
    releasedRev: (n: number) => `Released rev ${n}`,
    revisions: 'Revisions',
    reason: 'Reason',
    signatureOf: 'Signature of step 1',
    secondOf: 'Second signer of step 1',
    verified: 'Verified',
    quality: 'With the Quality permission',
    signatureChange: 'Signature: none → Verified, second signer Quality',
    password: 'Your password',
    secondUser: "Second signer's username",
    secondPassword: "Second signer's password",
    sign: 'Sign and complete',
    wrong: 'Wrong password: the step was neither signed nor completed',
    signedBy: (name: string) => new RegExp(`^Signed by ${name} · \\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2} · Verified`),
    torque: '12.5',
    record: 'Production record',
    pdfSigned: 'Signed by',
    code: 'Code',
    csv: 'Export CSV',
  },
}

/** A released product: a form step (torque, a number) and an instruction, nothing signed yet. */
async function releasedProduct(baseURL: string) {
  const api = await adminApi(baseURL)
  const code = uniqueName('SIG').toUpperCase()
  const created = await api.post('/api/product', { data: { code, description: 'Prodotto firme e2e' } })
  expect(created.status(), await created.text()).toBe(201)
  const productKey = (await created.json()).detail._key as string
  const field = await api.post('/api/field', { data: { name: uniqueName('Coppia'), type: 'number', mandatory: true } })
  expect(field.status(), await field.text()).toBe(201)
  const fieldKey = (await field.json()).detail._key as string
  const operations = (await (await api.get('/api/operation')).json()).detail as { _key: string }[]
  const steps = [
    { type: 'form', title: 'Coppia di serraggio', text: 'Misura la coppia.', fields: [fieldKey] },
    { type: 'instruction', title: 'Chiusura', text: 'Chiudi il coperchio.' },
  ]
  const process = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ operation_key: operations[0]!._key, name: 'Montaggio', steps }] } })
  expect(process.status(), await process.text()).toBe(200)
  await releaseProduct(api, productKey, 'Prima emissione')
  return { api, productKey, fieldKey }
}

for (const lang of ['it', 'en'] as const) {
  const s = TEXTS[lang]
  test.describe(lang, () => {
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test('a step signed by the operator and a quality second signer on one tablet shows both signatures in the work order history', async ({
      page,
      browser,
      baseURL,
    }) => {
      test.setTimeout(180_000)
      const { api, productKey, fieldKey } = await releasedProduct(baseURL!)
      const [librarian, operator, quality] = await Promise.all([
        createReadyUser(baseURL!, 'library', { name: 'Lia', surname: 'Bruni' }),
        createReadyUser(baseURL!, 'operator', { name: 'Mario', surname: 'Rossi' }),
        createReadyUser(baseURL!, 'quality', { name: 'Giulia', surname: 'Verdi' }),
      ])

      // The library: step 1 requires Verified with a quality second signer; release rev 2.
      const path = `/app/library/product/${productKey}/process`
      await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
      await fillLogin(page, librarian.username, librarian.password)
      await expect(page.getByTestId('revision-badge')).toHaveText(s.releasedRev(1))
      await page.getByRole('button', { name: s.editProcess }).click()
      await page.getByRole('button', { name: s.phase }).click()
      await page.getByTestId('phase-detail').getByRole('tab', { name: s.procedure }).click()
      await page.getByRole('combobox', { name: s.signatureOf, exact: true }).click()
      await page.getByRole('option', { name: s.verified, exact: true }).click()
      await page.getByRole('combobox', { name: s.secondOf }).click()
      await page.getByRole('option', { name: s.quality }).click()
      await shot(page, `signatures-library-${lang}`)
      await page.getByRole('button', { name: s.saveProcess }).click()
      await page.getByRole('button', { name: s.release, exact: true }).click()
      const releaseDialog = page.getByRole('dialog')
      await releaseDialog.getByRole('textbox', { name: s.reason }).click()
      await page.keyboard.type('Verifica qualità della coppia')
      await releaseDialog.getByRole('button', { name: s.release, exact: true }).click()
      await expect(releaseDialog).toBeHidden()
      await expect(page.getByTestId('revision-badge')).toHaveText(s.releasedRev(2))
      await page.getByRole('tab', { name: s.revisions }).click()
      await expect(page.getByTestId('revision-compare').getByTestId('step-signature-change')).toHaveText(s.signatureChange)

      // A work order on rev 2 for the operator.
      const made = await api.post('/api/work-order', { data: { product_key: productKey, quantity: 1, operator_key: operator.key } })
      expect(made.status(), await made.text()).toBe(201)
      const woKey = (await made.json()).detail._key as string
      const job = (await (await api.get(`/api/work-order/${woKey}`)).json()).detail.phases[0].jobs[0]._key as string

      // The tablet: the operator fills the torque and confirms; the signature dialog opens.
      const floor = await operatorStartsJob(browser, s.locale, operator, job)
      await expect(floor.getByTestId('step-signature-badge')).toBeVisible()
      await floor.getByTestId(`field-${fieldKey}`).pressSequentially(s.torque, { delay: 40 })
      await floor.getByTestId('confirm-step').click()
      const dialog = floor.getByRole('dialog')
      await expect(dialog).toBeVisible()
      const manifest = dialog.getByTestId('signature-manifest')
      await expect(manifest).toContainText('Mario Rossi')
      await expect(manifest).toContainText(s.verified)
      await expect(manifest).toContainText('Coppia di serraggio')
      await expect(manifest).toContainText(s.torque)
      await expect(manifest).toContainText(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/)

      // A wrong password: refused in the dialog, the step stays to do.
      await dialog.getByLabel(s.password).pressSequentially('not-my-password', { delay: 20 })
      await dialog.getByLabel(s.secondUser).pressSequentially(quality.username, { delay: 20 })
      await dialog.getByLabel(s.secondPassword).pressSequentially(quality.password, { delay: 20 })
      await dialog.getByRole('button', { name: s.sign }).click()
      await expect(dialog.getByTestId('signature-error')).toHaveText(s.wrong)
      // The refusal shown, "Sign and complete" is still on screen, whole, with no scrolling.
      await expect(dialog.getByRole('button', { name: s.sign })).toBeInViewport({ ratio: 1 })
      await shot(floor, `signatures-dialog-error-${lang}`)
      await expect(floor.getByTestId('step-1')).not.toHaveAttribute('data-done', 'true')

      // Both sign: the operator's password, and the quality user's, typed on the same tablet.
      await dialog.getByLabel(s.password).pressSequentially(operator.password, { delay: 20 })
      await dialog.getByLabel(s.secondPassword).pressSequentially(quality.password, { delay: 20 })
      await dialog.getByRole('button', { name: s.sign }).click()
      await expect(dialog).toBeHidden()
      await expect(floor.getByTestId('step-1')).toHaveAttribute('data-done', 'true')
      // The operator is still the one signed in on the tablet.
      await expect(floor.getByTestId('step-panel')).toContainText('Chiusura')
      await floor.close()

      // Production reads both signatures under the completed step.
      const history = await productionOpensHistory(browser, s.locale, woKey)
      const lines = history.getByTestId('signature-line')
      await expect(lines).toHaveCount(2)
      await expect(lines.nth(0)).toHaveText(s.signedBy('Mario Rossi'))
      await expect(lines.nth(1)).toHaveText(s.signedBy('Giulia Verdi'))
      await expect(history.getByTestId('signature-invalid')).toHaveCount(0)
      await shot(history, `signatures-history-${lang}`)

      // The production record (PDF) names both signers under the step.
      const [pdf] = await Promise.all([history.waitForEvent('download'), history.getByRole('button', { name: s.record }).click()])
      const record = execFileSync('pdftotext', ['-layout', await pdf.path(), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
      expect(record).toContain(`${s.pdfSigned} Mario Rossi`)
      expect(record).toContain(`${s.pdfSigned} Giulia Verdi`)
      await history.close()

      // Quality reads the signing in the audit trail, found by the work order's code typed and sent with Enter, and exports it.
      const woCode = (await (await api.get(`/api/work-order/${woKey}`)).json()).detail.code as string
      const trailPage = await browser.newPage({ locale: s.locale, viewport: { width: 1280, height: 800 } })
      await trailPage.goto('/login?redirect_to=%2Fapp%2Faudit')
      await fillLogin(trailPage, quality.username, quality.password)
      const code = trailPage.getByRole('textbox', { name: s.code, exact: true })
      await code.click()
      await trailPage.keyboard.type(woCode)
      await trailPage.keyboard.press('Enter')
      // The filter applied first: the whole trail's newest page can also hold just these two.
      await expect(trailPage).toHaveURL(new RegExp(`code=${woCode}`))
      const signed = trailPage.getByTestId('audit-trail').locator('tbody tr', { hasText: 'STEP_SIGNED' })
      await expect(signed).toHaveCount(2)
      const [csv] = await Promise.all([trailPage.waitForEvent('download'), trailPage.getByRole('link', { name: s.csv }).click()])
      const signedRows = readFileSync(await csv.path(), 'utf8').split('\r\n').filter((l) => l.includes('STEP_SIGNED'))
      expect(signedRows).toHaveLength(2)
      expect(signedRows.join('\n')).toContain('Giulia Verdi')
      await trailPage.close()
    })
  })
}
