import { expect, test } from '@playwright/test'
import { adminApi, createReadyUser, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * A label designed in the app (issue 26): the admin starts a print template from a blank label of
 * a size typed in millimetres (decimal comma in Italian, point in English; a size out of bounds is
 * refused under its field), the server makes the blank base PDF and the fields editor opens on it.
 */

const TEXT = {
  it: { locale: 'it-IT', general: 'Generale', templates: 'Modelli di stampa', blank: 'Etichetta vuota', tooSmall: 'Deve essere almeno 10', width: '62,5', saved: 'Campi salvati' },
  en: { locale: 'en-US', general: 'General', templates: 'Print templates', blank: 'Blank label', tooSmall: 'Must be at least 10', width: '62.5', saved: 'Fields saved' },
} as const

const mm = (points: number) => (points * 25.4) / 72

for (const lang of ['it', 'en'] as const) {
  test.describe(`blank label (${lang})`, () => {
    const s = TEXT[lang]
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test(`a template from a blank label of 62.5 x 29 mm opens in the fields editor (${lang})`, async ({ page, baseURL }) => {
      test.setTimeout(120_000)
      const admin = await createReadyUser(baseURL!, 'admin', { name: 'Bianca', surname: uniqueName('Etichette') })
      await signIn(page, admin.username, admin.password)
      await page.getByRole('tab', { name: s.general }).click()
      await page.getByRole('tab', { name: s.templates }).click()
      await page.getByTestId('template-source').getByText(s.blank).click()

      const name = uniqueName('Etichetta vuota')
      await page.getByTestId('template-name').pressSequentially(name)
      const width = page.getByTestId('blank-width')
      const height = page.getByTestId('blank-height')
      // Too small: said under the field once it is left, and the button stays off.
      await width.pressSequentially('5')
      await height.click()
      await expect(page.locator('.mantine-InputWrapper-root', { has: width })).toContainText(s.tooSmall)
      await expect(page.getByTestId('template-upload')).toBeDisabled()
      await width.press('ControlOrMeta+a')
      await width.pressSequentially(s.width)
      await height.pressSequentially('29')
      await page.screenshot({ path: `${SHOTS_DIR}/printing-blank-label-${lang}.png` })
      await page.getByTestId('template-upload').click()

      // The editor of the new template, its blank page drawn at the size asked.
      await expect(page).toHaveURL(/\/app\/admin\/general\/print-templates\/[0-9a-f-]{36}$/)
      const canvas = page.getByTestId('page-canvas')
      // The editor's chunk and pdf.js load first (slow on a busy machine).
      await expect(canvas).toBeVisible({ timeout: 30_000 })
      const key = page.url().split('/').pop()!
      const api = await adminApi(baseURL!)
      const tpl = await ok<{ name: string; page_width: number; page_height: number; base_pdf_name: string; fields: unknown[] }>(await api.get(`/api/print-template/${key}`))
      expect(tpl.name).toBe(name)
      expect(tpl.base_pdf_name).toBe('blank-62.5x29mm.pdf')
      expect(mm(tpl.page_width)).toBeCloseTo(62.5, 3)
      expect(mm(tpl.page_height)).toBeCloseTo(29, 3)
      const box = (await canvas.boundingBox())!
      expect(box.width / box.height).toBeCloseTo(62.5 / 29, 1)

      // A field placed on it and saved, as on an uploaded PDF.
      await page.getByTestId('field-place').click()
      await canvas.click({ position: { x: 10, y: 10 } })
      await page.getByTestId('editor-save').click()
      await expect(page.getByText(s.saved)).toBeVisible()
      await page.screenshot({ path: `${SHOTS_DIR}/printing-blank-label-editor-${lang}.png` })
      const saved = await ok<{ fields: { link: string }[] }>(await api.get(`/api/print-template/${key}`))
      expect(saved.fields.map((f) => f.link)).toEqual(['product_code'])
    })
  })
}
