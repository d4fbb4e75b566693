import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, fillLogin, ISOLATED, ok, setPinByApi, shot, uniqueName } from './helpers'

/**
 * Issue 22, actions signed where the settings require it: with releases and critical-issue
 * closings required to be signed, the library releases a revision and quality closes a critical
 * issue, each typing the password under the manifest (a wrong one first: refused, nothing done),
 * and the signature line shows under the revision and under the issue; where the plant allows PIN
 * signing, a release is signed with the personal PIN instead (a wrong one first). Isolated: the
 * settings are the plant's, and every other spec releases without a signature.
 */
const TEXTS = {
  it: {
    locale: 'it-IT',
    release: 'Rilascia',
    reason: 'Motivo',
    wrongPassword: 'Password errata: nulla è stato firmato né modificato',
    ownPin: 'Il tuo PIN',
    wrongPin: 'PIN errato: nulla è stato firmato né modificato',
    approved: 'Approvato',
    verified: 'Verificato',
    signedBy: (name: string) => `Firmato da ${name}`,
  },
  en: {
    locale: 'en-US',
    release: 'Release',
    reason: 'Reason',
    wrongPassword: 'Wrong password: nothing was signed or changed',
    ownPin: 'Your PIN',
    wrongPin: 'Wrong PIN: nothing was signed or changed',
    approved: 'Approved',
    verified: 'Verified',
    signedBy: (name: string) => `Signed by ${name}`,
  },
}

async function requireSignatures(api: APIRequestContext, on: boolean) {
  await ok(
    await api.patch('/api/settings', {
      data: { signature_revision_release: on ? 'approved' : null, signature_critical_issue_close: on ? 'verified' : null },
    }),
  )
}

async function pinSigning(api: APIRequestContext, on: boolean) {
  await ok(await api.patch('/api/settings', { data: { pin_signing: on } }))
}

/** A product of its own with a draft process to release. */
async function productToRelease(api: APIRequestContext): Promise<{ productKey: string; code: string }> {
  const code = uniqueName('SIGREV').toUpperCase()
  const productKey = (await ok(await api.post('/api/product', { data: { code, description: 'Prodotto firmato e2e' } })))._key as string
  const operations = (await ok(await api.get('/api/operation'))) as { _key: string }[]
  await ok(
    await api.put(`/api/product/${productKey}/process`, {
      data: { phases: [{ operation_key: operations[0]!._key, name: 'Montaggio', steps: [{ type: 'instruction', title: 'Viti', text: 'Stringi a 5 Nm.' }] }] },
    }),
  )
  return { productKey, code }
}

async function signIn(page: Page, path: string, user: { username: string; password: string }) {
  await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(new RegExp(`${path}$`))
}

/** Types the password in the signature's field like a person, and confirms. */
async function sign(page: Page, password: string, confirm: string) {
  const field = page.getByTestId('signature-password')
  await field.fill('')
  await field.pressSequentially(password)
  await page.getByTestId(confirm).click()
}

test.describe('signed actions', ISOLATED, () => {
  test.afterAll(async ({ baseURL }) => {
    const api = await adminApi(baseURL!)
    await requireSignatures(api, false)
    await pinSigning(api, false)
  })

  for (const lang of ['it', 'en'] as const) {
    const s = TEXTS[lang]
    test.describe(lang, () => {
      test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

      test('the library releases a revision signed with its password; the signature shows under it', async ({ page, baseURL }) => {
        const api = await adminApi(baseURL!)
        await requireSignatures(api, true)
        const { productKey, code } = await productToRelease(api)
        const user = await createReadyUser(baseURL!, 'library', { name: 'Lia', surname: 'Bruni' })
        await signIn(page, `/app/library/product/${productKey}/process`, user)

        await page.getByRole('button', { name: s.release, exact: true }).click()
        const dialog = page.getByRole('dialog')
        await dialog.getByLabel(s.reason).pressSequentially('Prima emissione firmata')
        const manifest = dialog.getByTestId('signature-manifest')
        await expect(manifest).toContainText('Lia Bruni')
        await expect(manifest).toContainText(s.approved)
        await expect(manifest).toContainText(code)
        await shot(page, `signed-release-dialog-${lang}`)

        await sign(page, 'not-my-password', 'release-confirm')
        await expect(dialog.getByTestId('signature-error')).toHaveText(s.wrongPassword)
        expect((await ok(await api.get(`/api/product/${productKey}/revision`))).revisions).toEqual([])

        await sign(page, user.password, 'release-confirm')
        await expect(dialog).toBeHidden()
        await page.goto(`/app/library/product/${productKey}/revisions`)
        const line = page.getByTestId('signature-line')
        await expect(line).toHaveCount(1)
        await expect(line).toContainText(s.signedBy('Lia Bruni'))
        await expect(line).toContainText(s.approved)
        await expect(page.getByTestId('signature-invalid')).toHaveCount(0)
        await shot(page, `signed-release-list-${lang}`)
      })

      test('quality closes a critical issue signed with its password; the signature shows under the issue', async ({ page, baseURL }) => {
        const api = await adminApi(baseURL!)
        await requireSignatures(api, true)
        const type = await ok(await api.post('/api/issue-type', { data: { code: uniqueName('CR').toUpperCase(), name: 'Difetto critico', close_within: 0, critical: true } }))
        const issue = await ok(await api.post('/api/issue', { data: { type_key: type._key, title: 'Crepa sul carter' } }))
        expect(issue.critical).toBe(true)
        const user = await createReadyUser(baseURL!, 'quality', { name: 'Carla', surname: 'Neri' })
        await signIn(page, `/app/quality/issues/${issue._key}`, user)

        await page.getByTestId('issue-action-close').click()
        const dialog = page.getByRole('dialog')
        const manifest = dialog.getByTestId('signature-manifest')
        await expect(manifest).toContainText('Carla Neri')
        await expect(manifest).toContainText(s.verified)
        await expect(manifest).toContainText(issue.code)
        await expect(dialog.getByTestId('issue-action-confirm')).toBeDisabled()

        await sign(page, 'not-my-password', 'issue-action-confirm')
        await expect(dialog.getByTestId('signature-error')).toHaveText(s.wrongPassword)
        expect((await ok(await api.get(`/api/issue/${issue._key}`))).state).not.toBe('closed')

        await sign(page, user.password, 'issue-action-confirm')
        await expect(dialog).toBeHidden()
        const line = page.getByTestId('issue-detail').getByTestId('signature-line')
        await expect(line).toHaveCount(1)
        await expect(line).toContainText(s.signedBy('Carla Neri'))
        await expect(line).toContainText(s.verified)
        await shot(page, `signed-issue-close-${lang}`)
      })
    })
  }

  test.describe('PIN', () => {
    const s = TEXTS.it
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test('where the plant allows PIN signing, the library releases a revision signed with its personal PIN', async ({ page, baseURL }) => {
      const api = await adminApi(baseURL!)
      await requireSignatures(api, true)
      await pinSigning(api, true)
      const { productKey, code } = await productToRelease(api)
      const user = await createReadyUser(baseURL!, 'library', { name: 'Lia', surname: 'Bruni' })
      await setPinByApi(baseURL!, user, '605813')
      await signIn(page, `/app/library/product/${productKey}/process`, user)

      await page.getByRole('button', { name: s.release, exact: true }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByLabel(s.reason).pressSequentially('Prima emissione firmata con PIN')
      const manifest = dialog.getByTestId('signature-manifest')
      await expect(manifest).toContainText('Lia Bruni')
      await expect(manifest).toContainText(code)
      // The PIN is offered first (the password stays one switch away); digits typed like a person.
      const pin = dialog.getByRole('textbox', { name: s.ownPin, exact: true })
      await pin.pressSequentially('000001', { delay: 20 })
      await page.getByTestId('release-confirm').click()
      await expect(dialog.getByTestId('signature-error')).toHaveText(s.wrongPin)
      expect((await ok(await api.get(`/api/product/${productKey}/revision`))).revisions).toEqual([])
      await expect(pin).toHaveValue('')
      await shot(page, `signed-release-pin-dialog-it-IT`)

      await pin.pressSequentially('605813', { delay: 20 })
      await page.getByTestId('release-confirm').click()
      await expect(dialog).toBeHidden()
      await page.goto(`/app/library/product/${productKey}/revisions`)
      const line = page.getByTestId('signature-line')
      await expect(line).toHaveCount(1)
      await expect(line).toContainText(s.signedBy('Lia Bruni'))
      await expect(line).toContainText(s.approved)
    })
  })
})
