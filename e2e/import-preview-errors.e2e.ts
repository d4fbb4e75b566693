import { expect, test } from '@playwright/test'
import { openArea, signIn } from './helpers'

/**
 * Issue 26, import preview: each bad row shows the column, the value the file had and what is
 * wrong with it in the planner's language, not "quantity: Dati non validi". Nothing is imported.
 */

const TEXT = {
  it: {
    area: 'Produzione',
    tab: 'Ordini di lavoro',
    link: 'Importa da CSV',
    quantity: 'Quantità «2,5»: solo numeri interi',
    zero: 'Quantità «0»: deve essere almeno 1',
    product: 'Prodotto «NOPE-404»: Prodotto inesistente',
  },
  en: {
    area: 'Production',
    tab: 'Work orders',
    link: 'Import from CSV',
    quantity: 'Quantity «2,5»: whole numbers only',
    zero: 'Quantity «0»: must be at least 1',
    product: 'Product «NOPE-404»: Unknown product',
  },
} as const

for (const lang of ['it', 'en'] as const) {
  test(`import preview names the bad value and says what is wrong (${lang})`, async ({ browser }) => {
    const s = TEXT[lang]
    const page = await (await browser.newContext({ locale: lang === 'it' ? 'it-IT' : 'en-US', viewport: { width: 1280, height: 800 } })).newPage()
    await signIn(page, 'produzione')
    await openArea(page, s.area)
    await page.getByRole('tab', { name: s.tab }).click()
    await page.getByRole('link', { name: s.link }).click()
    const csv = 'product_code;quantity;due_by\nPMP-100;2,5;\nNOPE-404;2;\nPMP-100;0;\n'
    await page.locator('input[type=file]').setInputFiles({ name: 'ordini.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    const preview = page.getByTestId('import-preview')
    await expect(preview.locator('[data-row="1"]').getByTestId('import-row-error')).toHaveText(s.quantity)
    await expect(preview.locator('[data-row="2"]').getByTestId('import-row-error')).toHaveText(s.product)
    await expect(preview.locator('[data-row="3"]').getByTestId('import-row-error')).toHaveText(s.zero)
    await expect(page.getByTestId('import-run')).toBeDisabled()
    await page.screenshot({ path: `/tmp/e2e-shots/import-preview-${lang}.png`, fullPage: true })
    await page.context().close()
  })
}
