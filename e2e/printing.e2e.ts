import { expect, test } from '@playwright/test'
import { type IppPrinter, makeBasePdf, pdfText, startIppPrinter } from '../src-server/domains/printers/test-printers'
import { adminApi, chooseInUserMenu, createReadyUser, ok, operatorWithWorkOrder, SHOTS_DIR, signIn, signOut, uniqueName } from './helpers'

/**
 * Printing (issue 15) with a real IPP printer: ippeveprinter (cups-ipp-utils) started here on a
 * free port with its own spool directory. The admin uploads a base PDF, places a text field and a
 * QR code on it by clicking on the rendered page, assigns the template to a phase; an operator
 * prints from the work session's phase prints to the IPP printer; the spooled PDF holds the
 * product code. Admin screens in English (the browser's language) at 1280x800, "Salva e anteprima"
 * in Italian too; the operator's in Italian at 1024x768, where the hint of a phase with no template
 * names the menu as it is labelled (Impostazioni, Settings) in both languages.
 */

let ipp: IppPrinter
test.beforeAll(async () => {
  ipp = await startIppPrinter('MES E2E Printer')
})
test.afterAll(async () => {
  await ipp?.stop()
})

test('admin places a text and a QR field on a base PDF, assigns it to a phase; the operator prints it to the IPP printer', async ({ page, baseURL, browser }) => {
  test.setTimeout(180_000)
  const api = await adminApi(baseURL!)
  const phaseName = uniqueName('Imballo')
  const { operator, productCode, job: jobKey } = await operatorWithWorkOrder(baseURL!, {
    prefix: 'LBL',
    description: 'Valvola etichettata',
    operation: 'Etichettatura',
    operator: { name: 'Lucia', surname: uniqueName('Stampa') },
    quantity: 4,
    phases: [{ name: phaseName, steps: [{ type: 'instruction', title: 'Imballa', text: '', fields: [] }] }],
  })
  const printerName = uniqueName('Ufficio IPP')
  await ok(await api.post('/api/printer', { data: { name: printerName, host: '127.0.0.1', port: ipp.port, protocol: 'ipp' } }))

  // --- operator, before any template is assigned to the phase: the hint names the menu as it is
  // labelled (Impostazioni / Settings), in English (the browser's language) then in Italian.
  const ctx = await browser.newContext({ viewport: { width: 1024, height: 768 } })
  const op = await ctx.newPage()
  await signIn(op, operator.username, operator.password)
  const card = op.locator(`[data-testid="job-card"][data-job-key="${jobKey}"]`)
  await expect(card).toBeVisible()
  if ((await card.getAttribute('data-selected')) === null) await card.click()
  await op.getByTestId('to-confirm').click()
  await op.getByTestId('start-jobs').click()
  await expect(op).toHaveURL(new RegExp(`/app/operator/job/${jobKey}/steps`))
  for (const [lang, hint] of [
    ['en', 'No print template is assigned here. The administrator assigns them in Settings › General › Print templates.'],
    ['it', "Nessun modello di stampa assegnato qui. L'amministratore li assegna in Impostazioni › Generale › Modelli di stampa."],
  ] as const) {
    if (lang === 'it') await chooseInUserMenu(op, 'Italiano')
    await op.getByTestId('phase-prints').click()
    await expect(op.getByTestId('print-no-templates')).toHaveText(hint)
    await op.keyboard.press('Escape')
    await expect(op.getByRole('dialog')).toBeHidden()
  }

  // --- admin, English (browser language), 1280x800 ----------------------------------------
  await page.setViewportSize({ width: 1280, height: 800 })
  const admin = await createReadyUser(baseURL!, 'admin', { name: 'Paola', surname: uniqueName('Modelli') })
  await signIn(page, admin.username, admin.password)
  // In-app navigation only: a page load locks the session (auth-store: a reload asks for the password).
  await page.getByRole('tab', { name: 'General' }).click()
  await page.getByRole('tab', { name: 'Print templates' }).click()
  await expect(page.getByRole('tab', { name: 'Print templates' })).toHaveAttribute('aria-selected', 'true')
  const templateName = uniqueName('Etichetta imballo')
  await page.getByTestId('template-name').pressSequentially(templateName)
  const pdfPath = `${SHOTS_DIR}/printing-base.pdf`
  await Bun.write(pdfPath, await makeBasePdf({ width: 300, height: 200, text: 'ACME ETICHETTA' }))
  await page.locator('input[type="file"]').setInputFiles(pdfPath)
  await page.getByTestId('template-upload').click()
  const row = page.getByTestId(`print-template-row-${templateName}`)
  await expect(row).toBeVisible()
  await page.screenshot({ path: `${SHOTS_DIR}/printing-templates-en.png`, fullPage: true })

  // Field editor: the base page rendered by pdf.js; a text (product code) and a QR (work order code).
  await row.getByTestId('edit-fields').click()
  const canvas = page.getByTestId('page-canvas')
  await expect(canvas).toBeVisible()
  await page.getByTestId('field-place').click()
  await canvas.click({ position: { x: 30, y: 60 } })
  await expect(page.getByTestId('placed-Product code')).toBeVisible()
  await page.getByTestId('field-kind').click()
  await page.getByRole('option', { name: 'QR' }).click()
  await page.getByTestId('field-link').click()
  // A position label has the position's description and path to print, beside its code.
  for (const preset of ['Position code', 'Position description', 'Position path (e.g. MAG / A / A-01)']) {
    await expect(page.getByRole('option', { name: preset, exact: true })).toHaveCount(1)
  }
  await page.getByRole('option', { name: 'Work order code' }).click()
  await page.getByTestId('field-place').click()
  await canvas.click({ position: { x: 330, y: 60 } })
  await expect(page.getByTestId('placed-Work order code')).toBeVisible()
  await page.screenshot({ path: `${SHOTS_DIR}/printing-editor-en.png`, fullPage: true })
  await page.getByTestId('editor-save').click()
  await expect(page.getByText('Fields saved')).toBeVisible()
  const saved = (await ok<{ name: string; fields: { kind: string; link: string }[] }[]>(await api.get('/api/print-template'))).find((t) => t.name === templateName)!
  expect(saved.fields.map((f) => [f.kind, f.link])).toEqual([
    ['text', 'product_code'],
    ['qrcode', 'work_order_code'],
  ])
  // "Save and preview": the template filled with sample values, drawn in the page (no PDF viewer
  // needed); in English, then "Salva e anteprima" in Italian.
  for (const [lang, t] of [
    ['en', { button: 'Save and preview', title: `Preview of ${templateName} (sample values)`, close: 'Close' }],
    ['it', { button: 'Salva e anteprima', title: `Anteprima di ${templateName} (valori di esempio)`, close: 'Chiudi' }],
  ] as const) {
    if (lang === 'it') await chooseInUserMenu(page, 'Italiano')
    await expect(page.getByTestId('editor-preview')).toHaveText(t.button)
    await page.getByTestId('editor-preview').click()
    const preview = page.getByRole('dialog', { name: t.title })
    await expect(preview.getByTestId('preview-canvas')).toBeVisible()
    await expect
      .poll(() =>
        preview.getByTestId('preview-canvas').evaluate((c: HTMLCanvasElement) => {
          const pixels = c.width > 0 ? c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data : []
          let dark = 0
          for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 128) dark++
          return dark
        }),
      )
      .toBeGreaterThan(100)
    await page.screenshot({ path: `${SHOTS_DIR}/printing-preview-${lang}.png`, fullPage: true })
    await preview.getByRole('button', { name: t.close, exact: true }).last().click()
    await expect(preview).toBeHidden()
  }
  await chooseInUserMenu(page, 'English')
  await expect(page.getByTestId('editor-preview')).toHaveText('Save and preview')

  // Assign to the phase: find the product by code, choose the phase.
  await page.getByRole('link', { name: 'Back to templates' }).click()
  await page.getByTestId(`print-template-row-${templateName}`).getByTestId('assign').click()
  await page.getByTestId('assign-product-search').pressSequentially(productCode)
  await page.getByTestId('assign-product').click()
  await page.getByRole('option', { name: productCode }).click()
  await page.getByTestId('assign-phase').click()
  await page.getByRole('option', { name: phaseName }).click()
  await page.getByTestId('assign-add').click()
  await expect(page.getByTestId('assignments-table')).toContainText(`${productCode} / ${phaseName}`)
  await page.screenshot({ path: `${SHOTS_DIR}/printing-assign-en.png` })
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(page.getByText('Template assigned')).toBeHidden()
  await signOut(page)

  // --- operator, Italian, 1024x768 (the job started above) -----------------------------------
  // The phase's templates as read before the assignment may still be cached: opened again until the new one shows.
  await expect(async () => {
    if (await op.getByRole('dialog').isVisible()) {
      await op.keyboard.press('Escape')
      await expect(op.getByRole('dialog')).toBeHidden()
    }
    await op.getByTestId('phase-prints').click()
    await expect(op.getByTestId('print-template')).toHaveValue(templateName, { timeout: 3000 })
  }).toPass({ timeout: 30_000 })
  await expect(op.getByRole('dialog')).toContainText('Modello')
  await op.getByTestId('print-printer').click()
  await op.getByRole('option', { name: printerName }).click()
  await op.getByText('Usa come mia stampante predefinita').click()
  await op.getByTestId('print-send').click()
  await expect(op.getByTestId('print-sent')).toContainText(`Inviato a ${printerName}`)
  await op.screenshot({ path: `${SHOTS_DIR}/printing-operator-it.png` })
  const [spooled] = await ipp.waitForDocuments(1)
  const text = await pdfText(spooled!)
  expect(text).toContain(productCode)
  expect(text).toContain('ACME ETICHETTA')
  // The default printer is remembered for the next print.
  await op.keyboard.press('Escape')
  await op.getByTestId('phase-prints').click()
  await expect(op.getByTestId('print-printer')).toHaveValue(printerName)
  await ctx.close()

  const log = await ok<{ template_name: string; printer_name: string; status: string }[]>(await api.get(`/api/print?limit=5`))
  expect(log[0]).toMatchObject({ template_name: templateName, printer_name: printerName, status: 'accepted' })
})
