import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD, adminApi, chooseInUserMenu, createReadyUser, fillLogin, ISOLATED, operatorStartsJob, productionOpensHistory, releaseProduct, setPinByApi, shot, uniqueName } from './helpers'

/**
 * Issue 22, signing with a personal PIN: the admin allows PIN signing in the plant settings and
 * gives the quality user a badge; the operator sets a PIN from the user menu and signs a step
 * with it, and the quality second signer identifies on the same tablet by scanning the badge
 * (the scanner types fast and presses Enter) and typing their PIN; production reads both
 * signatures in the work order history. ISOLATED: the setting is plant-wide.
 */
const TEXTS = {
  it: {
    locale: 'it-IT',
    pinSigning: 'Firma con PIN personale',
    save: 'Salva',
    saved: 'Impostazioni salvate',
    badge: 'Badge',
    userSaved: 'Utente aggiornato',
    setPin: 'Imposta PIN di firma',
    currentPassword: 'Password attuale',
    newPin: 'Nuovo PIN',
    repeatPin: 'Ripeti il nuovo PIN',
    savePin: 'Salva il PIN',
    tooSimple: 'PIN troppo semplice: niente cifre tutte uguali né sequenze come 123456',
    pinSaved: 'PIN di firma salvato',
    ownPin: 'Il tuo PIN',
    secondBadge: 'Badge del secondo firmatario',
    secondPin: 'PIN del secondo firmatario',
    sign: 'Firma e completa',
    cancel: 'Annulla',
    wrongBadge: 'Badge o PIN del secondo firmatario errati: il passo non è stato completato',
    signedBy: (name: string) => new RegExp(`^Firmato da ${name} · \\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2} · Verificato`),
  },
  en: {
    locale: 'en-US',
    pinSigning: 'Signing with a personal PIN',
    save: 'Save',
    saved: 'Settings saved',
    badge: 'Badge',
    userSaved: 'User updated',
    setPin: 'Set signing PIN',
    currentPassword: 'Current password',
    newPin: 'New PIN',
    repeatPin: 'Repeat the new PIN',
    savePin: 'Save the PIN',
    tooSimple: 'PIN too simple: no repeated digit nor sequences like 123456',
    pinSaved: 'Signing PIN saved',
    ownPin: 'Your PIN',
    secondBadge: "Second signer's badge",
    secondPin: "Second signer's PIN",
    sign: 'Sign and complete',
    cancel: 'Cancel',
    wrongBadge: 'Wrong badge or PIN of the second signer: the step was not completed',
    signedBy: (name: string) => new RegExp(`^Signed by ${name} · \\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2} · Verified`),
  },
}

/** A released product whose only step must be signed "Verified" with a quality second signer. */
async function signedStepProduct(baseURL: string) {
  const api = await adminApi(baseURL)
  const code = uniqueName('PIN').toUpperCase()
  const created = await api.post('/api/product', { data: { code, description: 'Prodotto firma con PIN e2e' } })
  expect(created.status(), await created.text()).toBe(201)
  const productKey = (await created.json()).detail._key as string
  const operations = (await (await api.get('/api/operation')).json()).detail as { _key: string }[]
  const steps = [
    { type: 'instruction', title: 'Controllo tenuta', text: 'Verifica la tenuta.', signature: { meaning: 'verified', second_signer: 'quality' } },
    { type: 'instruction', title: 'Chiusura', text: 'Chiudi il coperchio.' },
  ]
  const process = await api.put(`/api/product/${productKey}/process`, { data: { phases: [{ operation_key: operations[0]!._key, name: 'Montaggio', steps }] } })
  expect(process.status(), await process.text()).toBe(200)
  await releaseProduct(api, productKey, 'Prima emissione')
  return { api, productKey }
}

/** Each test starts from the default (PIN signing off) and leaves it so for the tests after. */
async function pinSigningOff(baseURL: string) {
  const api = await adminApi(baseURL)
  const res = await api.patch('/api/settings', { data: { pin_signing: false } })
  expect(res.status(), await res.text()).toBe(200)
}
test.beforeEach(({ baseURL }) => pinSigningOff(baseURL!))
test.afterAll(({ baseURL }) => pinSigningOff(baseURL!))

for (const lang of ['it', 'en'] as const) {
  const s = TEXTS[lang]
  test.describe(lang, () => {
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test('the operator signs with a PIN and the quality second signer with badge scan + PIN on one tablet', ISOLATED, async ({ page, browser, baseURL }) => {
      test.setTimeout(300_000)
      const { api, productKey } = await signedStepProduct(baseURL!)
      const [operator, quality] = await Promise.all([
        createReadyUser(baseURL!, 'operator', { name: 'Mario', surname: 'Rossi' }),
        createReadyUser(baseURL!, 'quality', { name: 'Giulia', surname: 'Verdi' }),
      ])
      const badge = `QA${Date.now().toString().slice(-8)}`
      const [opPin, qaPin] = ['482915', '730264']

      // The admin allows PIN signing (plant settings) and gives the quality user a badge.
      await page.goto(`/login?redirect_to=${encodeURIComponent('/app/admin/general/other')}`)
      await fillLogin(page, 'admin', ADMIN_PASSWORD)
      const toggle = page.getByRole('switch', { name: s.pinSigning })
      await expect(toggle).not.toBeChecked({ timeout: 30_000 })
      await toggle.click({ force: true })
      await page.getByRole('button', { name: s.save, exact: true }).click()
      await expect(page.getByText(s.saved)).toBeVisible()
      await shot(page, `signatures-pin-settings-${lang}`)
      // A reload would lock the session: the users admin opens in its own browser context.
      const users = await browser.newPage({ locale: s.locale, viewport: { width: 1280, height: 800 } })
      await users.goto(`/login?redirect_to=${encodeURIComponent(`/app/admin/users/${quality.key}`)}`)
      await fillLogin(users, 'admin', ADMIN_PASSWORD)
      await users.getByRole('textbox', { name: s.badge, exact: true }).pressSequentially(badge, { delay: 5 })
      await users.getByRole('button', { name: s.save, exact: true }).click()
      await expect(users.getByText(s.userSaved)).toBeVisible()
      await shot(users, `signatures-pin-user-${lang}`)
      await users.close()
      await setPinByApi(baseURL!, quality, qaPin)

      const made = await api.post('/api/work-order', { data: { product_key: productKey, quantity: 1, operator_key: operator.key } })
      expect(made.status(), await made.text()).toBe(201)
      const woKey = (await made.json()).detail._key as string
      const job = (await (await api.get(`/api/work-order/${woKey}`)).json()).detail.phases[0].jobs[0]._key as string

      // The operator sets a PIN from the user menu: a too simple one is refused first.
      const floor = await operatorStartsJob(browser, s.locale, operator, job)
      await chooseInUserMenu(floor, s.setPin)
      const pinDialog = floor.getByRole('dialog')
      await pinDialog.getByRole('textbox', { name: s.currentPassword, exact: true }).pressSequentially(operator.password, { delay: 10 })
      await pinDialog.getByRole('textbox', { name: s.newPin, exact: true }).pressSequentially('123456', { delay: 20 })
      await pinDialog.getByRole('textbox', { name: s.repeatPin, exact: true }).pressSequentially('123456', { delay: 20 })
      await pinDialog.getByRole('button', { name: s.savePin }).click()
      await expect(pinDialog.getByRole('alert')).toHaveText(s.tooSimple)
      await pinDialog.getByRole('textbox', { name: s.newPin, exact: true }).fill('')
      await pinDialog.getByRole('textbox', { name: s.newPin, exact: true }).pressSequentially(opPin, { delay: 20 })
      await pinDialog.getByRole('textbox', { name: s.repeatPin, exact: true }).fill('')
      await pinDialog.getByRole('textbox', { name: s.repeatPin, exact: true }).pressSequentially(opPin, { delay: 20 })
      await shot(floor, `signatures-pin-set-${lang}`)
      await pinDialog.getByRole('button', { name: s.savePin }).click()
      await expect(floor.getByText(s.pinSaved)).toBeVisible()
      await expect(pinDialog).toBeHidden()

      // The signature dialog asks for the operator's PIN and the second signer's badge and PIN.
      await floor.getByTestId('confirm-step').click()
      const dialog = floor.getByTestId('signature-dialog')
      await expect(dialog.getByTestId('signature-manifest')).toContainText('Mario Rossi')
      await dialog.getByRole('textbox', { name: s.ownPin, exact: true }).pressSequentially(opPin, { delay: 20 })
      const badgeField = dialog.getByRole('textbox', { name: s.secondBadge })
      const secondPin = dialog.getByRole('textbox', { name: s.secondPin, exact: true })

      // A badge nobody holds: the scanner types it and Enter, the PIN follows; refused, nothing done.
      await badgeField.pressSequentially('NOBODY-0001', { delay: 5 })
      await badgeField.press('Enter')
      await expect(secondPin).toBeFocused()
      await floor.keyboard.type(qaPin, { delay: 20 })
      await dialog.getByRole('button', { name: s.sign }).click()
      await expect(dialog.getByTestId('signature-error')).toHaveText(s.wrongBadge)
      await expect(floor.getByTestId('step-1')).not.toHaveAttribute('data-done', 'true')

      // The quality user scans their badge and types their PIN; the operator types theirs again.
      await dialog.getByRole('textbox', { name: s.ownPin, exact: true }).pressSequentially(opPin, { delay: 20 })
      await badgeField.fill('')
      await badgeField.pressSequentially(badge, { delay: 5 })
      await badgeField.press('Enter')
      await expect(secondPin).toBeFocused()
      await floor.keyboard.type(qaPin, { delay: 20 })
      // Everything typed and the last refusal still shown: "Sign and complete" is on screen, whole, with no scrolling, at 1280x800 and at 1024x768.
      const signButton = dialog.getByRole('button', { name: s.sign })
      await expect(dialog.getByTestId('signature-error')).toBeVisible()
      await expect(signButton).toBeInViewport({ ratio: 1 })
      await shot(floor, `signatures-pin-dialog-${lang}`)
      await floor.setViewportSize({ width: 1024, height: 768 })
      await expect(signButton).toBeInViewport({ ratio: 1 })
      await expect(dialog.getByRole('button', { name: s.cancel })).toBeInViewport({ ratio: 1 })
      await shot(floor, `signatures-pin-dialog-1024-${lang}`)
      await signButton.click()
      await expect(dialog).toBeHidden()
      await expect(floor.getByTestId('step-1')).toHaveAttribute('data-done', 'true')
      await expect(floor.getByTestId('step-panel')).toContainText('Chiusura')
      await floor.close()

      // Production reads both signatures under the completed step.
      const history = await productionOpensHistory(browser, s.locale, woKey)
      const lines = history.getByTestId('signature-line')
      await expect(lines).toHaveCount(2)
      await expect(lines.nth(0)).toHaveText(s.signedBy('Mario Rossi'))
      await expect(lines.nth(1)).toHaveText(s.signedBy('Giulia Verdi'))
      await history.close()
    })
  })
}
