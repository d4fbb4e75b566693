import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { adminApi, createReadyUser, operatorWithWorkOrder, shot, signIn, uniqueName } from './helpers'

/**
 * The audit trail (issue 22): an auditor (the `audit` permission alone) opens on the trail, finds
 * the events of one user account by its code typed like a person (Enter, and a click on "Cerca"),
 * exports them as CSV and XLSX and checks the event chain; in Italian and in English.
 */
test.use({ viewport: { width: 1280, height: 800 } })

for (const lang of [
  { locale: 'it-IT', record: 'Registro di produzione', product: 'Prodotto', code: 'Codice', search: 'Cerca', csv: 'Esporta CSV', xlsx: 'Esporta XLSX', check: 'Verifica la catena', intact: /Catena integra: [\d.]+ eventi/, header: 'N.;Data e ora;Utente' },
  { locale: 'en-US', record: 'Production record', product: 'Product', code: 'Code', search: 'Search', csv: 'Export CSV', xlsx: 'Export XLSX', check: 'Check the chain', intact: /Chain intact: [\d,]+ events/, header: 'No.;Date and time;User' },
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

    test('an auditor without the production screens downloads a work order’s production record from the trail', async ({ page, baseURL }) => {
      const world = await operatorWithWorkOrder(baseURL!, { prefix: 'AUDREC' })
      const auditor = await createReadyUser(baseURL!, 'audit')
      await signIn(page, auditor.username, auditor.password)
      await expect(page).toHaveURL(/\/app\/audit/)
      const code = page.getByRole('textbox', { name: lang.code, exact: true })
      await code.click()
      await page.keyboard.type(world.woCode)
      await page.keyboard.press('Enter')
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
