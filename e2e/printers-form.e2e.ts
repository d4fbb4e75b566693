import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD, openArea, shot, signIn, uniqueName } from './helpers'

/**
 * Issue 26, printers: a printer is added by its full URI (ipp://, ipps:// for a CUPS queue over TLS,
 * socket:// for raw TCP). As the URI is typed the field says what it will save, with the default
 * port filled; a URI naming no printer says why and cannot be added (it and en).
 */

const TEXT = {
  it: { area: 'Impostazioni', general: 'Generale', printers: 'Stampanti', ipps: 'IPP cifrato (TLS) · cups.local · porta 631 · /printers/Ufficio', raw: 'TCP diretto · 10.0.0.9 · porta 9100', bad: 'Inizia con ipp://, ipps:// o socket://', added: 'Stampante aggiunta' },
  en: { area: 'Settings', general: 'General', printers: 'Printers', ipps: 'Encrypted IPP (TLS) · cups.local · port 631 · /printers/Ufficio', raw: 'Raw TCP · 10.0.0.9 · port 9100', bad: 'Start with ipp://, ipps:// or socket://', added: 'Printer added' },
} as const

for (const lang of ['it', 'en'] as const) {
  test(`a printer is added by its URI; the field says what it will save (${lang})`, async ({ browser }) => {
    const s = TEXT[lang]
    const page = await (await browser.newContext({ locale: lang === 'it' ? 'it-IT' : 'en-US', viewport: { width: 1280, height: 800 } })).newPage()
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await openArea(page, s.area)
    await page.getByRole('tab', { name: s.general, exact: true }).click()
    await page.getByRole('tab', { name: s.printers, exact: true }).click()
    const uri = page.getByTestId('printer-uri')
    await uri.pressSequentially('lpd://printer/queue')
    await expect(uri).toHaveAccessibleDescription(s.bad)
    await expect(page.getByTestId('printer-add')).toBeDisabled()
    await uri.fill('')
    await uri.pressSequentially('socket://10.0.0.9')
    await expect(uri).toHaveAccessibleDescription(s.raw)
    await uri.fill('')
    await uri.pressSequentially('ipps://cups.local/printers/Ufficio')
    await expect(uri).toHaveAccessibleDescription(s.ipps)

    const name = uniqueName('Ufficio')
    await page.getByTestId('printer-name').pressSequentially(name)
    await page.getByTestId('printer-add').click()
    await expect(page.getByText(s.added)).toBeVisible()
    await expect(page.getByTestId(`printer-${name}`)).toContainText('ipps://cups.local:631/printers/Ufficio')
    await shot(page, `printers-uri-${lang}`)
    await page.context().close()
  })
}
