import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { pngBytes } from '../src-server/test/png'
import { adminApi, fillLogin, SHOTS_DIR, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

/** What the user sees at 1280x800. */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/${name}.png` })
const notice = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).last()

async function created(res: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(res.status(), await res.text()).toBeLessThan(300)
  return ((await res.json()) as { detail: any }).detail
}

/** The library data one test needs, made through the admin API (field, operations, products). */
async function setup(baseURL: string) {
  const api = await adminApi(baseURL)
  const fieldName = uniqueName('Matricola rotore')
  const field = await created(await api.post('/api/field', { data: { name: fieldName, type: 'text', mandatory: true } }))
  const assembly = await created(
    await api.post('/api/operation', {
      data: { name: uniqueName('Assemblaggio'), default_phase_steps: [{ type: 'instruction', title: 'Prepare the parts', text: 'Take the parts from the cart.' }] },
    }),
  )
  const testing = await created(await api.post('/api/operation', { data: { name: uniqueName('Collaudo') } }))
  const tag = uniqueName('E2E')
  const product = async (suffix: string, description: string) =>
    (await created(await api.post('/api/product', { data: { code: `${tag}-${suffix}`, description } })))._key as string
  return {
    api,
    tag,
    fieldName,
    field: field._key as string,
    assembly: assembly as { _key: string; name: string },
    testing: testing as { _key: string; name: string },
    main: await product('MOTOR', 'Electric motor'),
    rotor: await product('ROTOR', 'Rotor'),
    screw: await product('SCREW', 'Screw M4'),
    product,
  }
}

/** Signs in as the demo library user straight onto a path (no reload later: a reload locks the session). */
async function openAs(page: Page, path: string, username = 'libreria') {
  await page.goto(`/login?redirect_to=${encodeURIComponent(path)}`)
  await fillLogin(page, username, 'demo1234')
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
}

async function choose(page: Page, combobox: ReturnType<Page['getByRole']>, option: string | RegExp) {
  await combobox.click()
  await page.getByRole('option', { name: option }).click()
}

test('process: two phases from operations, an instruction with an image, a form step with a mandatory field; reorder; unsaved changes', async ({ page, baseURL }) => {
  const s = await setup(baseURL!)
  await openAs(page, `/app/library/product/${s.main}/process`)
  await expect(page.getByRole('heading', { name: 'Production process' })).toBeVisible()
  await expect(page.getByText('No phases', { exact: true })).toBeVisible()
  await shot(page, 'process-empty')

  // Two phases from operations: the first in a department, copying the operation's default step.
  await page.getByRole('button', { name: 'Edit process' }).click()
  const add = page.getByTestId('add-phase')
  await choose(page, add.getByRole('combobox', { name: 'Operation' }), s.assembly.name)
  await expect(add.getByText('1 default step will be copied.')).toBeVisible()
  await choose(page, add.getByRole('combobox', { name: 'Department' }), /^ASM/)
  await add.getByRole('button', { name: 'Add phase' }).click()
  await choose(page, add.getByRole('combobox', { name: 'Operation' }), s.testing.name)
  await add.getByRole('button', { name: 'Add phase' }).click()
  await expect(page.getByTestId('phase-list').getByRole('button', { name: /^Phase \d/ })).toHaveCount(2)

  // Phase 1's procedure: the copied step, then an instruction with an image and a form step.
  await page.getByRole('button', { name: `Phase 1: ${s.assembly.name}` }).click()
  await page.getByTestId('phase-detail').getByRole('tab', { name: /Procedure/ }).click()
  await expect(page.getByRole('textbox', { name: 'Title of step 1' })).toHaveValue('Prepare the parts')
  await page.getByRole('button', { name: 'Add instruction' }).click()
  await page.getByRole('textbox', { name: 'Title of step 2' }).fill('Fit the rotor')
  await page.getByTestId('step-1').getByRole('textbox', { name: 'Text' }).fill('Slide the rotor into the stator.\nDo not force it.')
  await page
    .getByTestId('step-1')
    .locator('input[type=file]')
    .setInputFiles({ name: 'rotor.png', mimeType: 'image/png', buffer: Buffer.from(pngBytes(240, 160, [200, 120, 30])) })
  await expect(page.getByTestId('step-1').getByRole('img', { name: 'rotor.png' })).toBeVisible()
  await page.getByRole('button', { name: 'Add form' }).click()
  await page.getByRole('textbox', { name: 'Title of step 3' }).fill('Record the rotor serial')
  // A form step without fields is not saved: the phase and the tab turn red.
  await page.getByRole('button', { name: 'Save process' }).click()
  await expect(page.getByText('Choose at least one field')).toBeVisible()
  await page.getByTestId('step-2').getByRole('combobox', { name: 'Form fields' }).click()
  await expect(page.getByRole('option', { name: new RegExp(s.fieldName) })).toContainText('mandatory')
  await page.getByRole('option', { name: new RegExp(s.fieldName) }).click()
  await page.keyboard.press('Escape')
  await page.getByTestId('step-2').scrollIntoViewIfNeeded()
  await shot(page, 'process-edit-procedure')

  // Phase 2's parameters: release batch needs a release batch quantity.
  await page.getByRole('button', { name: `Phase 2: ${s.testing.name}` }).click()
  await page.getByTestId('phase-detail').getByRole('tab', { name: 'Parameters' }).click()
  await page.getByTestId('phase-parameters').getByText('Release batch', { exact: true }).click()
  await expect(page.getByText('With the "release batch" release style the quantity must be greater than 0')).toBeVisible()
  await shot(page, 'process-edit-parameters')
  await page.getByRole('textbox', { name: 'Release batch quantity' }).fill('5')
  await expect(page.getByText('With the "release batch" release style the quantity must be greater than 0')).toHaveCount(0)
  await page.getByTestId('phase-detail').getByRole('tab', { name: 'Production notes' }).click()
  await page.getByRole('textbox', { name: 'Production notes' }).fill('Use test bench 2.')

  await page.getByRole('button', { name: 'Save process' }).click()
  await expect(notice(page, 'Process saved')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Edit process' })).toBeVisible()
  await expect(page.getByText('2 phases')).toBeVisible()
  await shot(page, 'process-saved-notes')

  // What was saved comes back: parameters, the image served as an image, the field chosen.
  await page.getByTestId('phase-detail').getByRole('tab', { name: 'Parameters' }).click()
  await expect(page.getByTestId('phase-parameters').getByRole('row', { name: /Release style/ })).toContainText('Release batch: 5 pcs')
  await shot(page, 'process-saved-parameters')
  await page.getByRole('button', { name: `Phase 1: ${s.assembly.name}` }).click()
  await page.getByTestId('phase-detail').getByRole('tab', { name: /Procedure/ }).click()
  const thumb = page.getByTestId('step-1').getByRole('img', { name: 'rotor.png' })
  await expect(thumb).toBeVisible()
  const served = await thumb.evaluate(async (img: HTMLImageElement) => {
    const res = await fetch(img.src)
    return { status: res.status, type: res.headers.get('content-type'), width: img.naturalWidth }
  })
  expect(served).toEqual({ status: 200, type: 'image/png', width: 240 })
  await expect(page.getByTestId('step-2').getByText(s.fieldName)).toBeVisible()
  await shot(page, 'process-saved-procedure')

  // The step media are reachable by step key and name too (REST).
  const process = await (await s.api.get(`/api/product/${s.main}/process`)).json()
  const [phase1, phase2] = process.detail.phases
  expect(phase1.department_key).toBeTruthy()
  expect(phase2.parameters).toMatchObject({ release_style: 'release_batch', release_batch_qt: 5 })
  const imageStep = phase1.steps[1]
  const media = await (await s.api.get(`/api/step/${imageStep._key}/media`)).json()
  expect(media.detail.map((m: { filename: string }) => m.filename)).toEqual(['rotor.png'])

  // Reorder: phase 2 goes first.
  await page.getByRole('button', { name: 'Edit process' }).click()
  await page.getByRole('button', { name: 'Move phase 2 up' }).click()
  await expect(page.getByRole('button', { name: `Phase 1: ${s.testing.name}` })).toBeVisible()
  await shot(page, 'process-reorder')
  await page.getByRole('button', { name: 'Save process' }).click()
  // The first save's notice may still be on screen: the saved order is read until it shows.
  const savedOrder = async () => ((await (await s.api.get(`/api/product/${s.main}/process`)).json()).detail.phases as { _key: string }[]).map((p) => p._key)
  await expect.poll(savedOrder).toEqual([phase2._key, phase1._key])
  await expect(notice(page, 'Process saved')).toBeVisible()

  // Leaving with unsaved changes asks first; staying keeps the draft.
  await page.getByRole('button', { name: `Phase 1: ${s.testing.name}` }).click()
  await page.getByRole('button', { name: 'Edit process' }).click()
  await page.getByTestId('phase-detail').getByRole('tab', { name: 'Production notes' }).click()
  await page.getByRole('textbox', { name: 'Production notes' }).fill('Changed, not saved')
  await page.getByRole('tab', { name: 'Bill of materials' }).click()
  await expect(page.getByRole('dialog', { name: 'Unsaved changes' })).toBeVisible()
  await shot(page, 'process-unsaved')
  await page.getByRole('button', { name: 'Stay here' }).click()
  await expect(page.getByRole('textbox', { name: 'Production notes' })).toHaveValue('Changed, not saved')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('textbox', { name: 'Production notes' })).toHaveValue('Use test bench 2.')
  await page.getByRole('tab', { name: 'Bill of materials' }).click()
  await expect(page).toHaveURL(/\/bom$/)
})

test('bom: lines per phase, duplicate item and non-positive quantity next to the line, a cycle refused by the server; a phase with components cannot go', async ({ page, baseURL }) => {
  const s = await setup(baseURL!)
  const put = async (key: string, path: string, data: unknown) => created(await s.api.put(`/api/product/${key}/${path}`, { data }))
  const phases = (await put(s.main, 'process', { phases: [{ operation_key: s.assembly._key }, { operation_key: s.testing._key }] })).phases
  // A product that already contains the main one: adding it as a component would close a cycle.
  const kit = await s.product('KIT', 'Spare motor kit')
  const kitPhase = (await put(kit, 'process', { phases: [{ operation_key: s.assembly._key }] })).phases[0]._key
  await put(kit, 'bom', { lines: [{ phase_key: kitPhase, item_key: s.main, quantity: 1, quantity_per: 'item' }] })

  await openAs(page, `/app/library/product/${s.main}/bom`)
  await expect(page.getByRole('heading', { name: 'Bill of materials', level: 3 })).toBeVisible()
  await expect(page.getByText('No components in this phase.')).toHaveCount(2)
  await page.getByRole('button', { name: 'Edit bill of materials' }).click()

  const phase1 = page.getByTestId('bom-phase-0')
  await phase1.getByRole('button', { name: 'Add component' }).click()
  const item1 = page.getByRole('combobox', { name: 'Component 1 of phase 1', exact: true })
  await item1.fill(s.tag.slice(0, 2))
  await expect(page.getByText('Type at least 3 characters')).toBeVisible()
  await item1.fill(`${s.tag}-ROT`)
  await page.getByRole('option', { name: new RegExp(`${s.tag}-ROTOR`) }).click()
  await page.getByRole('textbox', { name: 'Quantity of component 1 of phase 1' }).fill('2')

  // The same item again in the same phase, and a zero quantity: both shown next to the line.
  await phase1.getByRole('button', { name: 'Add component' }).click()
  await page.getByRole('combobox', { name: 'Component 2 of phase 1', exact: true }).fill(`${s.tag}-ROT`)
  await page.getByRole('option', { name: new RegExp(`${s.tag}-ROTOR`) }).click()
  await page.getByRole('textbox', { name: 'Quantity of component 2 of phase 1' }).fill('0')
  const line2 = page.getByTestId('bom-line-0-1')
  await expect(line2.getByText('An item cannot repeat in a phase')).toBeVisible()
  await expect(line2.getByText('Quantity must be positive')).toBeVisible()
  await page.getByRole('textbox', { name: 'Quantity of component 1 of phase 1' }).fill('-1')
  await expect(page.getByTestId('bom-line-0-0').getByText('Quantity must be positive')).toBeVisible()
  await shot(page, 'bom-line-errors')
  await page.getByRole('button', { name: 'Save bill of materials' }).click()
  await expect(page.getByText('Fix the highlighted lines before saving.')).toBeVisible()

  // Fixed: another item, positive quantities; per batch with complete traceability.
  await page.getByRole('textbox', { name: 'Quantity of component 1 of phase 1' }).fill('2')
  await page.getByRole('combobox', { name: 'Component 2 of phase 1', exact: true }).fill(`${s.tag}-SCR`)
  await page.getByRole('option', { name: new RegExp(`${s.tag}-SCREW`) }).click()
  await page.getByRole('textbox', { name: 'Quantity of component 2 of phase 1' }).fill('4.5')
  await choose(page, page.getByRole('combobox', { name: 'Quantity per, component 2 of phase 1' }), 'per batch')
  await choose(page, page.getByRole('combobox', { name: 'Traceability, component 2 of phase 1' }), 'Complete')
  await expect(line2.getByText('An item cannot repeat in a phase')).toHaveCount(0)
  // The same screw in phase 2 is fine.
  await page.getByTestId('bom-phase-1').getByRole('button', { name: 'Add component' }).click()
  await page.getByRole('combobox', { name: 'Component 1 of phase 2', exact: true }).fill(`${s.tag}-SCR`)
  await page.getByRole('option', { name: new RegExp(`${s.tag}-SCREW`) }).click()
  await shot(page, 'bom-edit')

  // The server refuses a component that contains this product: the message is next to its line.
  await page.getByTestId('bom-phase-1').getByRole('button', { name: 'Add component' }).click()
  await page.getByRole('combobox', { name: 'Component 2 of phase 2', exact: true }).fill(`${s.tag}-KIT`)
  await page.getByRole('option', { name: new RegExp(`${s.tag}-KIT`) }).click()
  await page.getByRole('button', { name: 'Save bill of materials' }).click()
  await expect(page.getByTestId('bom-line-1-1').getByText('The product would contain itself through its components')).toBeVisible()
  await shot(page, 'bom-server-cycle')
  await page.getByRole('button', { name: 'Remove component 2 of phase 2' }).click()
  await page.getByRole('button', { name: 'Save bill of materials' }).click()
  await expect(notice(page, 'Bill of materials saved')).toBeVisible()
  await expect(page.getByRole('cell', { name: `${s.tag}-ROTOR` })).toBeVisible()
  await expect(page.getByRole('cell', { name: '4.5' })).toBeVisible()
  await shot(page, 'bom-saved')
  const bom = await (await s.api.get(`/api/product/${s.main}/bom`)).json()
  expect(bom.detail.lines.map((l: { phase_key: string; quantity: number; quantity_per: string }) => [l.phase_key, l.quantity, l.quantity_per])).toEqual([
    [phases[0]._key, 2, 'item'],
    [phases[0]._key, 4.5, 'batch'],
    [phases[1]._key, 1, 'item'],
  ])

  // Leaving the bom with unsaved changes asks first.
  await page.getByRole('button', { name: 'Edit bill of materials' }).click()
  await page.getByRole('button', { name: 'Remove component 1 of phase 2' }).click()
  await page.getByRole('tab', { name: 'Process' }).click()
  await expect(page.getByRole('dialog', { name: 'Unsaved changes' })).toBeVisible()
  await page.getByRole('button', { name: 'Leave without saving' }).click()
  await expect(page).toHaveURL(/\/process$/)

  // A phase with components cannot be deleted: the server's refusal is shown.
  await page.getByRole('button', { name: 'Edit process' }).click()
  await page.getByRole('button', { name: 'Remove phase 1' }).click()
  await page.getByRole('button', { name: 'Save process' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'A phase with components cannot be deleted' })).toBeVisible()
  await expect(page.getByText(`Phases with components: ${s.assembly.name}`)).toBeVisible()
  await shot(page, 'process-phase-with-components')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('phase-list').getByRole('button', { name: /^Phase \d/ })).toHaveCount(2)
})

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' })

  test('copia del processo da un altro prodotto e distinta base', async ({ page, baseURL }) => {
    const s = await setup(baseURL!)
    await s.api.put(`/api/product/${s.rotor}/process`, {
      data: { phases: [{ operation_key: s.assembly._key, name: 'Avvolgimento' }, { operation_key: s.testing._key, name: 'Prova isolamento' }, { operation_key: s.testing._key, name: 'Imballo' }] },
    })
    await openAs(page, `/app/library/product/${s.main}/process`)
    await expect(page.getByRole('heading', { name: 'Processo di produzione' })).toBeVisible()
    await page.getByRole('button', { name: 'Copia da un altro prodotto' }).click()
    const dialog = page.getByRole('dialog', { name: 'Copia il processo di un altro prodotto' })
    await dialog.getByRole('combobox', { name: 'Prodotto da cui copiare' }).fill(`${s.tag}-ROT`)
    await page.getByRole('option', { name: new RegExp(`${s.tag}-ROTOR`) }).click()
    await dialog.getByRole('radio', { name: 'Solo le fasi scelte' }).click()
    await dialog.getByRole('checkbox', { name: /Avvolgimento/ }).check()
    await dialog.getByRole('checkbox', { name: /Imballo/ }).check()
    await shot(page, 'process-copy-it')
    await dialog.getByRole('button', { name: 'Copia fasi' }).click()
    await expect(notice(page, 'Processo copiato: 2 fasi aggiunte')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Fase 1: Avvolgimento' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Fase 2: Imballo' })).toBeVisible()
    await page.getByTestId('phase-detail').getByRole('tab', { name: 'Parametri' }).click()
    await shot(page, 'process-copied-it')

    // The bom in Italian: the rules next to the line.
    await page.getByRole('tab', { name: 'Distinta base' }).click()
    await page.getByRole('button', { name: 'Modifica distinta' }).click()
    await page.getByTestId('bom-phase-0').getByRole('button', { name: 'Aggiungi componente' }).click()
    await page.getByRole('textbox', { name: 'Quantità del componente 1 della fase 1' }).fill('0')
    await expect(page.getByText('La quantità deve essere positiva')).toBeVisible()
    await page.getByRole('button', { name: 'Salva distinta' }).click()
    await expect(page.getByText('Scegli il componente')).toBeVisible()
    await shot(page, 'bom-errors-it')
    await page.getByRole('tab', { name: 'Processo' }).click()
    await expect(page.getByRole('dialog', { name: 'Modifiche non salvate' })).toBeVisible()
    await page.getByRole('button', { name: 'Esci senza salvare' }).click()
    await expect(page).toHaveURL(/\/process$/)
  })
})

test('the demo pump shows its seeded process with step media and its bom', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!)
  const list = (await (await api.get('/api/product?search=PMP-100')).json()) as { detail: { rows: { _key: string; code: string }[] } }
  const pump = list.detail.rows.find((r) => r.code === 'PMP-100')!
  await openAs(page, `/app/library/product/${pump._key}/process`)
  await page.getByRole('button', { name: 'Phase 1: Montaggio pompa' }).click()
  await page.getByTestId('phase-detail').getByRole('tab', { name: /Procedure/ }).click()
  await expect(page.getByTestId('step-0').getByRole('img', { name: 'Schema PMP-100.png' })).toBeVisible()
  await expect(page.getByTestId('step-0').getByText('Istruzioni PMP-100.pdf')).toBeVisible()
  await shot(page, 'process-demo-pump')
  await page.getByRole('tab', { name: 'Bill of materials' }).click()
  await expect(page.getByRole('cell', { name: 'CMP-MOT-01' })).toBeVisible()
  await shot(page, 'bom-demo-pump')
})
