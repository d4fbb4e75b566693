import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { ADMIN_PASSWORD, adminApi, DEMO_PASSWORD, fillLogin, ISOLATED, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

const SHOTS = '/tmp/shots-serial-fields'

/** What a person reads, in each language of the app. */
const LANGUAGES = {
  en: {
    locale: 'en-US',
    serialFields: 'Serial fields',
    addField: 'Add field',
    field: 'Field',
    mandatory: 'Mandatory',
    add: 'Add',
    added: (name: string) => `Field ${name} added to serials`,
    save: 'Save',
    saved: 'Serial field saved',
    moveUp: (name: string) => `Move up ${name}`,
    orderSaved: 'Field order saved',
    editProcess: 'Edit process',
    parameters: 'Parameters',
    complete: 'Complete',
    counter: 'Serial counter',
    saveProcess: 'Save process',
    processSaved: 'Process saved',
    editBom: 'Edit bill of materials',
    declared: 'Declared serials, component 1 of phase 1',
    saveBom: 'Save bill of materials',
    bomSaved: 'Bill of materials saved',
    yes: 'Yes',
    locked: 'Session locked',
    unlock: 'Unlock',
    phase: (name: string) => `Phase 1: ${name}`,
  },
  it: {
    locale: 'it-IT',
    serialFields: 'Campi dei seriali',
    addField: 'Aggiungi campo',
    field: 'Campo',
    mandatory: 'Obbligatorio',
    add: 'Aggiungi',
    added: (name: string) => `Campo ${name} aggiunto ai seriali`,
    save: 'Salva',
    saved: 'Campo del seriale salvato',
    moveUp: (name: string) => `Sposta su ${name}`,
    orderSaved: 'Ordine dei campi salvato',
    editProcess: 'Modifica processo',
    parameters: 'Parametri',
    complete: 'Completa',
    counter: 'Contatore dei seriali',
    saveProcess: 'Salva processo',
    processSaved: 'Processo salvato',
    editBom: 'Modifica distinta',
    declared: 'Seriali dichiarati, componente 1 della fase 1',
    saveBom: 'Salva distinta',
    bomSaved: 'Distinta base salvata',
    yes: 'Sì',
    locked: 'Sessione bloccata',
    unlock: 'Sblocca',
    phase: (name: string) => `Fase 1: ${name}`,
  },
}

const notice = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).last()

async function created(res: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(res.status(), await res.text()).toBeLessThan(300)
  return ((await res.json()) as { detail: any }).detail
}

/** Signs in straight onto a path (the login screen's redirect). */
async function openAs(page: Page, path: string, username: string, password: string) {
  await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
  await fillLogin(page, username, password)
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
}

/** A reload locks the session (SPEC 4): unlock it with the password on the lock screen. */
async function reloadAndUnlock(page: Page, password: string, l: (typeof LANGUAGES)['en']) {
  await page.reload()
  const dialog = page.getByRole('dialog', { name: l.locked })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Password' }).fill(password)
  await dialog.getByRole('button', { name: l.unlock }).click()
  await expect(dialog).toHaveCount(0)
}

for (const [lang, l] of Object.entries(LANGUAGES)) {
  test.describe(`in ${lang}`, ISOLATED, () => {
    test.use({ locale: l.locale })

    test('admin makes a form field a mandatory serial field, moves it up and edits it', async ({ page, baseURL }) => {
      const api = await adminApi(baseURL!)
      const name = uniqueName('Lotto')
      await created(await api.post('/api/field', { data: { name, type: 'text' } }))
      // Another serial field already there, so the new one can move up.
      const first = uniqueName('Colore')
      const firstKey = (await created(await api.post('/api/field', { data: { name: first, type: 'text' } })))._key
      await created(await api.post('/api/serial-field', { data: { field_key: firstKey } }))

      await openAs(page, '/app/admin/general/serial-field', 'admin', ADMIN_PASSWORD)
      await expect(page.getByRole('tab', { name: l.serialFields })).toHaveAttribute('aria-selected', 'true')
      await page.getByRole('link', { name: l.addField }).click()
      const picker = page.getByRole('combobox', { name: l.field, exact: true })
      await picker.click()
      await picker.pressSequentially(name.slice(0, 8))
      await page.getByRole('option', { name: new RegExp(name) }).click()
      await page.getByRole('switch', { name: l.mandatory }).check()
      await page.screenshot({ path: `${SHOTS}/new-${lang}.png` })
      await page.getByRole('button', { name: l.add, exact: true }).click()
      await expect(notice(page, l.added(name))).toBeVisible()
      await expect(page).toHaveURL(/\/app\/admin\/general\/serial-field$/)

      const row = page.getByTestId(`serial-field-${name}`)
      await expect(row).toContainText(l.mandatory)
      await row.getByRole('button', { name: l.moveUp(name) }).click()
      await expect(notice(page, l.orderSaved)).toBeVisible()
      // Now just above the field that was before it.
      const rows = page.getByTestId('serial-fields-table').locator('tbody tr')
      await expect(async () => {
        const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-testid')))
        expect(ids.indexOf(`serial-field-${name}`)).toBe(ids.indexOf(`serial-field-${first}`) - 1)
      }).toPass()
      await page.screenshot({ path: `${SHOTS}/list-${lang}.png` })
      await page.setViewportSize({ width: 1024, height: 768 })
      await page.screenshot({ path: `${SHOTS}/list-${lang}-1024.png` })

      // The detail: mandatory switched off and saved.
      await page.getByRole('link', { name, exact: true }).click()
      await expect(page.getByRole('switch', { name: l.mandatory })).toBeChecked()
      await page.getByRole('switch', { name: l.mandatory }).uncheck()
      await page.getByRole('button', { name: l.save, exact: true }).click()
      await expect(notice(page, l.saved)).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/detail-${lang}.png` })
      const list = (await (await api.get('/api/serial-field')).json()).detail as { name: string; mandatory: boolean }[]
      expect(list.find((f) => f.name === name)?.mandatory).toBe(false)
    })

    test('library sets a phase to complete traceability with a counter and a bom line to declared serials; a reload shows them', async ({ page, baseURL }) => {
      const api = await adminApi(baseURL!)
      const counterName = uniqueName('Seriali')
      await created(await api.post('/api/counter', { data: { name: counterName, template: 'SN-{#####}' } }))
      const operation = await created(await api.post('/api/operation', { data: { name: uniqueName('Montaggio') } }))
      const tag = uniqueName('TR')
      const product = (await created(await api.post('/api/product', { data: { code: `${tag}-MAIN`, description: 'Motore' } })))._key
      const component = (await created(await api.post('/api/product', { data: { code: `${tag}-ROTOR`, description: 'Rotore' } })))._key
      const phases = (await created(await api.put(`/api/product/${product}/process`, { data: { phases: [{ operation_key: operation._key }] } }))).phases
      await created(await api.put(`/api/product/${product}/bom`, { data: { lines: [{ phase_key: phases[0]._key, item_key: component, quantity: 1, quantity_per: 'item' }] } }))

      await openAs(page, `/app/library/product/${product}/process`, 'libreria', DEMO_PASSWORD)
      await page.getByRole('button', { name: l.editProcess }).click()
      await page.getByTestId('phase-detail').getByRole('tab', { name: l.parameters }).click()
      const trace = page.getByTestId('phase-traceability')
      await trace.getByText(l.complete, { exact: true }).click()
      const counter = trace.getByRole('combobox', { name: l.counter })
      await counter.click()
      await counter.pressSequentially(counterName.slice(0, 10))
      await page.getByRole('option', { name: new RegExp(counterName) }).click()
      await page.screenshot({ path: `${SHOTS}/phase-edit-${lang}.png` })
      await page.getByRole('button', { name: l.saveProcess }).click()
      await expect(notice(page, l.processSaved)).toBeVisible()

      await page.goto(`/app/library/product/${product}/bom`)
      const dialog = page.getByRole('dialog', { name: l.locked })
      await dialog.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD)
      await dialog.getByRole('button', { name: l.unlock }).click()
      await page.getByRole('button', { name: l.editBom }).click()
      await page.getByRole('switch', { name: l.declared }).check()
      await page.getByRole('button', { name: l.saveBom }).click()
      await expect(notice(page, l.bomSaved)).toBeVisible()
      await expect(page.getByTestId('bom-declared-serials')).toHaveText(l.yes)

      await reloadAndUnlock(page, DEMO_PASSWORD, l)
      await expect(page.getByTestId('bom-declared-serials')).toHaveText(l.yes)
      await page.screenshot({ path: `${SHOTS}/bom-${lang}.png` })
      await page.goto(`/app/library/product/${product}/process`)
      await page.getByRole('dialog', { name: l.locked }).getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD)
      await page.getByRole('dialog', { name: l.locked }).getByRole('button', { name: l.unlock }).click()
      await page.getByTestId('phase-detail').getByRole('tab', { name: l.parameters }).click()
      await expect(page.getByTestId('phase-traceability-level')).toHaveText(l.complete)
      await expect(page.getByTestId('phase-counter')).toHaveText(counterName)
      await page.screenshot({ path: `${SHOTS}/phase-${lang}.png` })
    })
  })
}
