import { expect, type Locator, type Page, test } from '@playwright/test'
import { adminApi, ok, releaseProduct, shot, signIn, uniqueName } from './helpers'

const VIEWPORT = { width: 1280, height: 800 }

type Plant = { productCode: string; late: string; later: string; phases: string[] }

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}`
}

// biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions that use them
/**
 * A product of its own with two phases (Assemblaggio, then Collaudo) and two work orders:
 * one late with phase 1 given to operatore1, one due next week with nobody assigned.
 */
async function makePlant(baseURL: string): Promise<Plant> {
  const api = await adminApi(baseURL)
  const departments: { _key: string; code: string }[] = await ok(await api.get('/api/department'))
  const dept = (code: string) => departments.find((d) => d.code === code)?._key ?? null
  const operations: { _key: string }[] = await ok(await api.get('/api/operation'))
  expect(operations.length).toBeGreaterThan(0)
  const users: { _key: string; username: string }[] = await ok(await api.get('/api/user?active_only=true'))
  const operatore1 = users.find((u) => u.username === 'operatore1')!._key
  const productCode = uniqueName('JOBS').toUpperCase()
  const product = await ok(await api.post('/api/product', { data: { code: productCode, description: 'Prodotto per i test dei job' } }))
  const process = await ok(
    await api.put(`/api/product/${product._key}/process`, {
      data: {
        phases: [
          { operation_key: operations[0]!._key, name: 'Assemblaggio E2E', department_key: dept('ASM') },
          { operation_key: operations[0]!._key, name: 'Collaudo E2E', department_key: dept('COL') },
        ],
      },
    }),
  )
  const phases: string[] = process.phases.map((p: { _key: string }) => p._key)
  await releaseProduct(api, product._key)
  const late = await ok(
    await api.post('/api/work-order', {
      data: { product_key: product._key, quantity: 10, due_by: day(-2), phase_operators: [{ phase_key: phases[0], operator_key: operatore1 }] },
    }),
  )
  await releaseProduct(api, product._key)
  const later = await ok(await api.post('/api/work-order', { data: { product_key: product._key, quantity: 6, due_by: day(7) } }))
  return { productCode, late: late.code, later: later.code, phases }
}

/** The job rows of one work order (matched by its code), in list order. */
const rowsOf = (page: Page, woCode: string) => page.getByRole('row').filter({ hasText: woCode })

async function openJobList(page: Page, productCode: string) {
  await signIn(page, 'produzione')
  await page.getByRole('tab', { name: /^Jobs?$/ }).click()
  await expect(page).toHaveURL(/\/app\/production\/overview\/job/)
  await page.getByRole('textbox', { name: 'Search' }).fill(productCode)
  await expect(page).toHaveURL(new RegExp(`q=${productCode}`))
}

async function chooseOperator(select: Locator, page: Page, name: string) {
  await select.click()
  await page.getByRole('option', { name, exact: true }).click()
}

test.describe('production: job list, assignment, rebalancing, corrections', () => {
  test.use({ viewport: VIEWPORT })
  let plant: Plant

  test.beforeAll(async ({ baseURL }) => {
    plant = await makePlant(baseURL!)
  })

  test('assign and rebalance a phase between two operators', async ({ page }) => {
    test.setTimeout(120_000)
    await openJobList(page, plant.productCode)
    const later = rowsOf(page, plant.later)
    await expect(later).toHaveCount(2)
    await shot(page, 'jobs-list-en')

    // Assign phase 1 of the later work order to Marco Rossi from the operator cell.
    const phase1 = later.filter({ hasText: 'Assemblaggio E2E' })
    const operatorCell = phase1.getByRole('combobox', { name: `Operator of ${plant.later} phase 1` })
    await chooseOperator(operatorCell, page, 'Marco Rossi')
    await expect(page.getByText('Job assigned')).toBeVisible()
    await expect(operatorCell).toHaveValue('Marco Rossi')

    // Rebalance: 4 stay with Marco, a new job of 2 goes to Giulia.
    await phase1.getByRole('button', { name: `Actions for ${plant.later} phase 1` }).click()
    await page.getByRole('menuitem', { name: 'Rebalance the phase…' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText(`Rebalance Assemblaggio E2E · ${plant.later}`)
    await dialog.getByRole('textbox', { name: 'Quantity of row 1' }).fill('4')
    await expect(dialog.getByTestId('rebalance-sum')).toHaveText('Total 4 / 6')
    await expect(dialog.getByText('Quantities mismatch the phase total')).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Save distribution' })).toBeDisabled()
    await dialog.getByRole('button', { name: 'Add job' }).click()
    await expect(dialog.getByTestId('rebalance-sum')).toHaveText('Total 6 / 6')
    // The new job needs its operator first.
    await expect(dialog.getByText('Assign an operator to the new jobs')).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Save distribution' })).toBeDisabled()
    await chooseOperator(dialog.getByRole('combobox', { name: 'Operator of row 2' }), page, 'Giulia Bianchi')
    await shot(page, 'jobs-rebalance-dialog-en')
    await dialog.getByRole('button', { name: 'Save distribution' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('Jobs rebalanced')).toBeVisible()

    const split = rowsOf(page, plant.later).filter({ hasText: 'Assemblaggio E2E' })
    await expect(split).toHaveCount(2)
    await expect(split.nth(0)).toContainText(/0 \/ [42] pcs/)
    const operators = await split.getByRole('combobox', { name: `Operator of ${plant.later} phase 1` }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).sort())
    expect(operators).toEqual(['Giulia Bianchi', 'Marco Rossi'])
    await shot(page, 'jobs-after-rebalance-en')
  })

  test('the job list in Italian', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'it-IT', viewport: VIEWPORT })
    const page = await context.newPage()
    await signIn(page, 'produzione')
    await page.getByRole('tab', { name: /^Job$/ }).click()
    await page.getByRole('textbox', { name: 'Cerca' }).fill(plant.productCode)
    await expect(rowsOf(page, plant.late)).toHaveCount(2)
    await expect(page.getByRole('group', { name: 'Filtri' })).toContainText('Non assegnati')
    await rowsOf(page, plant.late).first().getByRole('button', { name: /^Azioni per/ }).click()
    await expect(page.getByRole('menuitem', { name: /Azzera avanzamento/ })).toBeVisible()
    await shot(page, 'jobs-list-it')
    await context.close()
  })

  test('filter the job list: chips combine, opposites replace each other, departments narrow', async ({ page }) => {
    test.setTimeout(120_000)
    await openJobList(page, plant.productCode)
    const filters = page.getByRole('group', { name: 'Filters' })
    const chip = (name: string) => filters.getByRole('checkbox', { name, exact: true })
    const toggle = (name: string) => filters.getByText(name, { exact: true }).click()
    await toggle('Late')
    await expect(page).toHaveURL(/f=late/)
    await expect(rowsOf(page, plant.later)).toHaveCount(0)
    await expect(rowsOf(page, plant.late)).toHaveCount(2)
    await toggle('Assigned')
    await expect(rowsOf(page, plant.late)).toHaveCount(1)
    await expect(rowsOf(page, plant.late)).toContainText('Assemblaggio E2E')
    await toggle('Ready')
    await expect(rowsOf(page, plant.late)).toHaveCount(1)
    await expect(rowsOf(page, plant.late)).toContainText('Ready')
    // Not ready replaces Ready: nothing late, assigned and without material.
    await toggle('Not ready')
    await expect(chip('Ready')).not.toBeChecked()
    await expect(page.getByText('No job matches the filters')).toBeVisible()
    // Unassigned replaces Assigned: phase 2 of the late order, nothing released to it yet.
    await toggle('Unassigned')
    await expect(chip('Assigned')).not.toBeChecked()
    await expect(rowsOf(page, plant.late)).toHaveCount(1)
    await expect(rowsOf(page, plant.late)).toContainText('Collaudo E2E')
    await expect(rowsOf(page, plant.late)).toContainText('Not ready')
    await expect(page).toHaveURL(/f=unassigned%2Cnot_ready%2Clate|f=unassigned,not_ready,late/)
    await shot(page, 'jobs-filters-en')

    // A department tab keeps the filters and narrows to its phases.
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.getByRole('textbox', { name: 'Search' }).fill(plant.productCode)
    await expect(page).toHaveURL(new RegExp(`q=${plant.productCode}`))
    await page.getByRole('tab', { name: 'Collaudo' }).click()
    await expect(page).toHaveURL(new RegExp(`/overview/job/[0-9a-f-]{36}\\?q=${plant.productCode}`))
    await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue(plant.productCode)
    await expect(page.getByRole('row').filter({ hasText: 'Assemblaggio E2E' })).toHaveCount(0)
    await expect(page.getByRole('row').filter({ hasText: 'Collaudo E2E' })).toHaveCount(2)
    await shot(page, 'jobs-department-en')
  })

  test('corrections follow their guards: refused ones are disabled with the reason', async ({ page }) => {
    test.setTimeout(120_000)
    await openJobList(page, plant.productCode)
    const row = rowsOf(page, plant.late).filter({ hasText: 'Assemblaggio E2E' })
    const menu = row.getByRole('button', { name: `Actions for ${plant.late} phase 1` })
    await menu.click()
    // A queued job: nothing to reset, not running, not started.
    await expect(page.getByRole('menuitem', { name: /Reset progress/ })).toBeDisabled()
    await expect(page.getByRole('menuitem', { name: /Reset progress/ })).toContainText('No progress to reset')
    await expect(page.getByRole('menuitem', { name: /Pause job/ })).toBeDisabled()
    await expect(page.getByRole('menuitem', { name: /Cancel active pieces/ })).toBeDisabled()
    await expect(page.getByRole('menuitem', { name: /Update times/ })).toBeDisabled()
    await expect(page.getByRole('menuitem', { name: /Update progress/ })).toBeEnabled()
    await shot(page, 'jobs-corrections-menu-en')

    await page.getByRole('menuitem', { name: /Update progress/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox', { name: 'Pieces done' }).fill('3')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    await expect(row).toContainText('3 / 10 pcs')
    await expect(row).toContainText('Paused')
    // Phase 2 got the 3 pieces (continuous release): it is ready now.
    await expect(rowsOf(page, plant.late).filter({ hasText: 'Collaudo E2E' })).toContainText('Ready')

    await menu.click()
    await expect(page.getByRole('menuitem', { name: /Reset progress/ })).toBeEnabled()
    await expect(page.getByRole('menuitem', { name: /Update times/ })).toBeEnabled()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('menu')).toBeHidden()
    await shot(page, 'jobs-after-correction-en')
  })
})
