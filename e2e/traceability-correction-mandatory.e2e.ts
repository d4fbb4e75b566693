import { expect, test } from '@playwright/test'
import { adminApi, ISOLATED, ok, SHOTS_DIR, signIn, uniqueName } from './helpers'

/**
 * "Correggi dati" on a piece declared in a batch (issue 26): a mandatory serial field emptied is
 * refused, its reason under the field and in the message naming it, and nothing is written.
 * Isolated: a mandatory serial field is asked of every serial declared while it exists.
 */

const TEXT = {
  it: {
    locale: 'it-IT',
    correct: 'Correggi dati',
    dialog: 'Correggi i dati del seriale',
    reason: 'Motivo',
    save: 'Salva',
    under: 'Obbligatorio: non può restare vuoto',
    toast: (f: string) => `Il campo ${f} è obbligatorio: non può restare vuoto`,
  },
  en: {
    locale: 'en-US',
    correct: 'Correct data',
    dialog: "Correct the serial's data",
    reason: 'Reason',
    save: 'Save',
    under: 'Mandatory: it cannot be left empty',
    toast: (f: string) => `The field ${f} is mandatory: it cannot be left empty`,
  },
} as const

type Serial = { _key: string; code: string; batch_key: string | null; data: Record<string, unknown> }

for (const lang of ['it', 'en'] as const) {
  test.describe(`serial data correction (${lang})`, ISOLATED, () => {
    const s = TEXT[lang]
    test.use({ locale: s.locale, viewport: { width: 1280, height: 800 } })

    test(`a mandatory serial field left empty is refused with the reason (${lang})`, async ({ page, baseURL }) => {
      test.setTimeout(120_000)
      const api = await adminApi(baseURL!)
      // A motor group of the demo, declared piece by piece in its batch (counter "Gruppi motore": GM{YY}-####).
      const prefix = `GM${String(new Date().getFullYear()).slice(2)}-`
      const serials = await ok<{ rows: Serial[] }>(await api.get(`/api/serial?search=${prefix}`))
      const serial = serials.rows.find((r) => r.batch_key !== null && r.code.startsWith(prefix))!
      expect(serial).toBeDefined()
      const name = uniqueName('Verifica finale')
      const field = await ok<{ _key: string }>(await api.post('/api/field', { data: { name, type: 'text' } }))
      await ok(await api.post('/api/serial-field', { data: { field_key: field._key, mandatory: true } }))
      try {
        await ok(await api.patch(`/api/serial/${serial._key}`, { data: { data: { ...serial.data, [field._key]: 'superata' }, reason: 'verifica registrata' } }))

        await signIn(page, 'tracciabilita')
        await page.getByTestId('serials-search').pressSequentially(serial.code)
        const rows = page.getByTestId('serials-table').locator('tbody tr')
        await expect(rows).toHaveCount(1)
        // On its code: the row's work order cell opens the order's traceability instead.
        await rows.first().getByRole('cell').first().click()
        await expect(page.getByTestId('serial-code')).toHaveText(serial.code)
        await page.getByRole('button', { name: s.correct }).click()
        const dialog = page.getByRole('dialog', { name: s.dialog })
        const input = dialog.getByRole('textbox', { name })
        await expect(input).toHaveValue('superata')
        await input.click()
        await input.press('ControlOrMeta+a')
        await input.press('Backspace')
        await dialog.getByRole('textbox', { name: s.reason }).pressSequentially('misura da rifare')
        await dialog.getByRole('button', { name: s.save }).click()

        await expect(page.getByTestId('error-toast')).toContainText(s.toast(name))
        await expect(dialog.getByText(s.under)).toBeVisible()
        await expect(input).toHaveAttribute('aria-invalid', 'true')
        await expect(dialog).toBeVisible()
        await page.screenshot({ path: `${SHOTS_DIR}/serial-correction-mandatory-${lang}.png` })
        const after = await ok<Serial>(await api.get(`/api/serial/${serial._key}`))
        expect(after.data[field._key]).toBe('superata')
        // Typed again: the mark goes, and the correction is saved.
        await input.pressSequentially('ripetuta')
        await expect(dialog.getByText(s.under)).toHaveCount(0)
        await dialog.getByRole('button', { name: s.save }).click()
        await expect(dialog).toHaveCount(0)
        expect((await ok<Serial>(await api.get(`/api/serial/${serial._key}`))).data[field._key]).toBe('ripetuta')
      } finally {
        await api.delete(`/api/serial-field/${field._key}`)
        await api.patch(`/api/serial/${serial._key}`, { data: { data: serial.data, reason: 'ripristino dati demo' } })
      }
    })
  })
}
