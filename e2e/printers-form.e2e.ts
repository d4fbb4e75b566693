import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD, openArea, signIn } from './helpers'

/** Issue 26, printers: the port field says the default it takes when left empty, per protocol (it and en). */

const TEXT = {
  it: { area: 'Impostazioni', general: 'Generale', printers: 'Stampanti', ipp: 'Vuota: 631', raw: 'Vuota: 9100', rawLabel: 'TCP diretto (9100)' },
  en: { area: 'Settings', general: 'General', printers: 'Printers', ipp: 'Empty: 631', raw: 'Empty: 9100', rawLabel: 'Raw TCP (9100)' },
} as const

for (const lang of ['it', 'en'] as const) {
  test(`the port shows its default (${lang})`, async ({ browser }) => {
    const s = TEXT[lang]
    const page = await (await browser.newContext({ locale: lang === 'it' ? 'it-IT' : 'en-US', viewport: { width: 1280, height: 800 } })).newPage()
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await openArea(page, s.area)
    await page.getByRole('tab', { name: s.general, exact: true }).click()
    await page.getByRole('tab', { name: s.printers, exact: true }).click()
    const port = page.getByTestId('printer-port')
    await expect(port).toHaveAccessibleDescription(s.ipp)
    await page.getByTestId('printer-protocol').click()
    await page.getByRole('option', { name: s.rawLabel }).click()
    await expect(port).toHaveAccessibleDescription(s.raw)
    await page.context().close()
  })
}
