import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, request, test } from '@playwright/test'
import { adminApi, createReadyUser, fillLogin, ok, operatorWithWorkOrder, shot, signIn, uniqueName } from './helpers'

/**
 * The audit trail (issue 22): an auditor (the `audit` permission alone) opens on the trail, finds
 * the events of one user account by its code typed like a person (Enter, and a click on "Cerca"),
 * exports them as CSV and XLSX and checks the event chain; a step signed by an operator and a
 * quality second signer shows each signature under its signer with the meaning, and the entity
 * links to its screen for a reader who may open it (plain text for the auditor); in Italian and
 * in English.
 */

/**
 * A work order whose only step the operator signs "Verified" with a quality second signer, through
 * the API as the tablet would; and a quality issue of its own.
 */
async function signedWorkOrder(baseURL: string) {
  const api = await adminApi(baseURL)
  const tag = uniqueName('Aud')
  const [quality, issueType] = await Promise.all([
    createReadyUser(baseURL, 'quality', { name: 'Giulia', surname: `Verdi ${tag}` }),
    ok<{ _key: string }>(await api.post('/api/issue-type', { data: { code: uniqueName('AUD').toUpperCase(), name: 'Difetto', close_within: 0 } })),
  ])
  const world = await operatorWithWorkOrder(baseURL, {
    prefix: 'AUDSIG',
    operator: { name: 'Mario', surname: `Rossi ${tag}` },
    phases: [{ name: 'Collaudo', steps: [{ type: 'instruction', title: 'Tenuta', text: '', fields: [], signature: { meaning: 'verified', second_signer: 'quality' } }] }],
  })
  const issue = await ok<{ _key: string; code: string }>(await api.post('/api/issue', { data: { type_key: issueType._key, title: `Perdita ${tag}` } }))
  const anon = await request.newContext({ baseURL })
  const { token } = await ok<{ token: string }>(await anon.post('/api/login', { data: { username: world.operator.username, password: world.operator.password } }))
  const as = { authorization: `Bearer ${token}` }
  type Batch = { _key: string; step_data: { _key: string }[] }
  const started = await ok<{ jobs: { batch: Batch }[] }>(await anon.post('/api/job/start', { headers: as, data: { job_keys: [world.job], idempotency_key: crypto.randomUUID() } }))
  const batch = started.jobs[0]!.batch
  const signature = { password: world.operator.password, second_signer: { username: quality.username, password: quality.password } }
  await ok(await anon.post(`/api/batch/${batch._key}/steps/${batch.step_data[0]!._key}/complete`, { headers: as, data: { signature, idempotency_key: crypto.randomUUID() } }))
  await anon.post('/api/logout', { headers: as })
  await anon.dispose()
  return { world, tag, quality, issue }
}
test.use({ viewport: { width: 1280, height: 800 } })

for (const lang of [
  { locale: 'it-IT', record: 'Registro di produzione', product: 'Prodotto', code: 'Codice', search: 'Cerca', csv: 'Esporta CSV', xlsx: 'Esporta XLSX', check: 'Verifica la catena', intact: /Catena integra: [\d.]+ eventi/, header: 'N.;Data e ora;Utente', signedBy: (name: string, second: boolean) => `Firmato da ${name} · Verificato${second ? ' · secondo firmatario' : ''}` },
  { locale: 'en-US', record: 'Production record', product: 'Product', code: 'Code', search: 'Search', csv: 'Export CSV', xlsx: 'Export XLSX', check: 'Check the chain', intact: /Chain intact: [\d,]+ events/, header: 'No.;Date and time;User', signedBy: (name: string, second: boolean) => `Signed by ${name} · Verified${second ? ' · second signer' : ''}` },
]) {
  test.describe(lang.locale, () => {
    test.use({ locale: lang.locale })

    test('an auditor finds a user account’s events by its code, exports them and checks the chain', async ({ page, baseURL }) => {
      const api = await adminApi(baseURL!)
      const subject = uniqueName('audited')
      const made = await api.post('/api/user', { data: { username: subject, scope: 'operator', name: 'Maria', surname: 'Verdi' } })
      expect(made.status()).toBe(201)
      const key = (await made.json()).detail._key
      expect((await api.patch(`/api/user/${key}`, { data: { scope: 'operator quality' } })).status()).toBe(200)

      const auditor = await createReadyUser(baseURL!, 'audit')
      await signIn(page, auditor.username, auditor.password)
      await expect(page).toHaveURL(/\/app\/audit/)
      const trail = page.getByTestId('audit-trail')
      await expect(trail).toBeVisible()

      // Typed and sent with Enter, as a keyboard (or a scanner) does.
      const code = page.getByRole('textbox', { name: lang.code, exact: true })
      await code.click()
      await page.keyboard.type(subject)
      await page.keyboard.press('Enter')
      await expect(trail.locator('tbody tr')).toHaveCount(2)
      await expect(trail.locator('tbody tr').first()).toContainText('USER_UPDATED')
      await expect(trail.locator('tbody tr').last()).toContainText('USER_CREATED')
      await expect(trail.locator('tbody tr').first()).toContainText('admin')
      await shot(page, `audit-trail-${lang.locale}`)

      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: lang.csv }).click()])
      const text = readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '')
      expect(text.split('\r\n')[0]!.startsWith(lang.header)).toBe(true)
      expect(text.trim().split('\r\n')).toHaveLength(3)
      expect(text).toContain(subject)
      const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: lang.xlsx }).click()])
      expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/)
      // An XLSX file is a zip: it starts with PK.
      expect(readFileSync(await xlsx.path()).subarray(0, 2).toString()).toBe('PK')

      // Cleared, then a click on the button without Enter: the typed code still counts.
      await code.fill('')
      await page.keyboard.type(`${subject}-nobody`)
      await page.getByRole('button', { name: lang.search, exact: true }).click()
      await expect(trail).toBeHidden()

      await page.getByRole('button', { name: lang.check }).click()
      await expect(page.getByTestId('chain-verdict')).toHaveText(lang.intact)
    })

    test('signatures in the trail under their signers with the meaning; entities link where the reader may open them', async ({ page, browser, baseURL }) => {
      const { world, tag, quality, issue } = await signedWorkOrder(baseURL!)
      // A reader of the trail who also plans production (quality and production).
      const reader = await createReadyUser(baseURL!, 'quality production')
      await page.goto('/login?redirect_to=%2Fapp%2Faudit')
      await fillLogin(page, reader.username, reader.password)
      await expect(page).toHaveURL(/\/app\/audit/)
      const code = page.getByRole('textbox', { name: lang.code, exact: true })
      await code.click()
      await page.keyboard.type(world.woCode)
      await page.keyboard.press('Enter')
      // The filter applied first (the whole trail's newest page can hold rows that look the same).
      await expect(page).toHaveURL(new RegExp(`code=${world.woCode}`))
      const trail = page.getByTestId('audit-trail')
      const signed = trail.locator('tbody tr', { hasText: 'STEP_SIGNED' })
      await expect(signed).toHaveCount(2)
      // Newest first: the second signer's row is theirs (not the operator's), then the operator's.
      await expect(signed.nth(0)).toContainText(quality.username)
      await expect(signed.nth(0).getByTestId('audit-signature')).toHaveText(lang.signedBy(`Giulia Verdi ${tag}`, true))
      await expect(signed.nth(1)).toContainText(world.operator.username)
      await expect(signed.nth(1).getByTestId('audit-signature')).toHaveText(lang.signedBy(`Mario Rossi ${tag}`, false))
      await shot(page, `audit-trail-signatures-${lang.locale}`)
      // The job's events open its work order's history.
      await signed.nth(0).getByRole('link', { name: world.woCode }).click()
      await expect(page).toHaveURL(new RegExp(`/app/production/workorder/${world.wo}/history`))

      // Back on the trail (no reload: it would lock the session), an issue opens in quality.
      await page.goBack()
      await expect(signed).toHaveCount(2)
      await code.fill('')
      await code.pressSequentially(issue.code)
      await expect(code).toHaveValue(issue.code)
      await code.press('Enter')
      await expect(page).toHaveURL(new RegExp(`code=${issue.code}`))
      const created = trail.locator('tbody tr', { hasText: 'ISSUE_OPENED' })
      await expect(created).toHaveCount(1)
      await created.getByRole('link', { name: issue.code }).click()
      await expect(page).toHaveURL(new RegExp(`/app/quality/issues/${issue._key}`))

      // The auditor (the audit permission alone) reads the same, with plain text where it cannot go.
      const auditor = await createReadyUser(baseURL!, 'audit')
      const other = await browser.newPage({ locale: lang.locale, viewport: { width: 1280, height: 800 } })
      await signIn(other, auditor.username, auditor.password)
      await expect(other).toHaveURL(/\/app\/audit/)
      await other.getByRole('textbox', { name: lang.code, exact: true }).click()
      await other.keyboard.type(world.woCode)
      await other.keyboard.press('Enter')
      await expect(other).toHaveURL(new RegExp(`code=${world.woCode}`))
      const theirs = other.getByTestId('audit-trail').locator('tbody tr', { hasText: 'STEP_SIGNED' })
      await expect(theirs).toHaveCount(2)
      await expect(theirs.nth(0).getByTestId('audit-entity')).toContainText(world.woCode)
      await expect(theirs.nth(0).getByRole('link')).toHaveCount(0)
      await other.close()
    })

    test('an auditor without the production screens downloads a work order’s production record from the trail', async ({ page, baseURL }) => {
      const world = await operatorWithWorkOrder(baseURL!, { prefix: 'AUDREC' })
      const auditor = await createReadyUser(baseURL!, 'audit')
      await signIn(page, auditor.username, auditor.password)
      await expect(page).toHaveURL(/\/app\/audit/)
      const code = page.getByRole('textbox', { name: lang.code, exact: true })
      await code.click()
      await page.keyboard.type(world.woCode)
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(new RegExp(`code=${world.woCode}`))
      const row = page.getByTestId('audit-trail').locator('tbody tr', { hasText: 'WORK_ORDER_CREATED' })
      await expect(row).toHaveCount(1)
      // No production screen for an auditor: the code is plain text, the record is one click away.
      await expect(row.getByRole('link', { name: world.woCode })).toHaveCount(0)
      const [pdf] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: lang.record }).click()])
      expect(pdf.suggestedFilename()).toMatch(/\.pdf$/)
      const text = execFileSync('pdftotext', ['-layout', await pdf.path(), '-'], { encoding: 'utf8' })
      expect(text).toContain(world.woCode)
      expect(text).toContain(world.productCode)
      expect(text).toContain(lang.record)
    })
  })
}
