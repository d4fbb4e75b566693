import { expect, type Page, test } from '@playwright/test'
import { ADMIN_PASSWORD, openArea, signIn, uniqueName } from './helpers'

test.use({ viewport: { width: 1280, height: 800 } })

const SHOTS = '/tmp/shots-counters'
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` })
const notice = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text })
const two = (n: number) => String(n).padStart(2, '0')
/** The year and month parts of a code made today (browser and test share the machine's time zone). */
const yymm = () => {
  const now = new Date()
  return `${two(now.getFullYear() % 100)}${two(now.getMonth() + 1)}`
}

async function openCounters(page: Page, area: string, tab: string) {
  await openArea(page, area)
  await page.getByRole('tab', { name: tab }).click()
}

test('counter: typed template with a live preview, edited, copied, the copy deleted', async ({ page }) => {
  const name = uniqueName('Motor serials')
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await openCounters(page, 'Settings', 'Counters')
  await expect(page.getByRole('heading', { name: 'Counters' })).toBeVisible()
  await page.getByRole('link', { name: 'New counter' }).click()
  await page.getByRole('textbox', { name: 'Name' }).pressSequentially(name)
  const template = page.getByRole('textbox', { name: 'Template' })
  const preview = page.getByTestId('counter-preview')

  // A part the grammar does not know is named as it is typed.
  await template.pressSequentially('SN{HH}')
  await expect(page.getByText('Invalid template: unknown part in braces')).toBeVisible()
  await expect(preview).toHaveText('—')
  for (let i = 0; i < 4; i++) await template.press('Backspace')
  await template.pressSequentially('{YY}{MM}-{#####')
  await expect(page.getByText('Invalid template: every opening brace must be closed')).toBeVisible()
  await template.pressSequentially('}')
  await expect(preview).toHaveText(`SN${yymm()}-00001`)

  // Monthly reset: the template shows the month, so the codes never repeat.
  await page.getByRole('combobox', { name: 'Reset' }).click()
  await page.getByRole('option', { name: 'Every month' }).click()
  await expect(page.getByText('Last reset')).toBeVisible()
  await shot(page, 'counter-new-1280')
  await page.setViewportSize({ width: 1024, height: 768 })
  await shot(page, 'counter-new-1024')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.getByRole('button', { name: 'Create counter' }).click()
  await expect(notice(page, 'Counter created')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/counter\/[0-9a-f-]{36}$/)
  await expect(page.getByText('Next reset')).toBeVisible()

  // Edit: the next value moves the preview; saved with its toast.
  const next = page.getByRole('textbox', { name: 'Next value' })
  await next.press('ControlOrMeta+a')
  await next.pressSequentially('42')
  await expect(preview).toHaveText(`SN${yymm()}-00042`)
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(notice(page, 'Counter updated')).toBeVisible()
  await shot(page, 'counter-detail')

  // Mass copy from the list: the copy numbers from 1.
  await page.getByRole('link', { name: 'Counters' }).first().click()
  await page.getByRole('searchbox', { name: 'Search' }).pressSequentially(name)
  // Counters of earlier runs share the template: the search leaves this one only.
  await expect(page.getByRole('row')).toHaveCount(2)
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
  await expect(row.getByRole('cell', { name: `SN${yymm()}-00042` })).toBeVisible()
  await page.getByRole('checkbox', { name: `Select ${name}` }).check()
  await page.getByRole('button', { name: /Copy selected/ }).click()
  await expect(notice(page, 'Counter copied')).toBeVisible()
  await expect(page.getByRole('cell', { name: `${name} (2)`, exact: true })).toBeVisible()
  await shot(page, 'counter-list')

  // Delete the copy (unused) after confirming.
  await page.getByRole('cell', { name: `${name} (2)`, exact: true }).click()
  await expect(preview).toHaveText(`SN${yymm()}-00001`)
  await page.getByRole('button', { name: 'Delete counter' }).click()
  await expect(page.getByRole('dialog')).toContainText(`Delete the counter «${name} (2)»?`)
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(notice(page, 'Counter deleted')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/counter$/)
  await expect(page.getByRole('cell', { name: `${name} (2)`, exact: true })).toHaveCount(0)
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible()
})

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' })

  test('contatore: creato con il modello digitato, anteprima, eliminato', async ({ page }) => {
    const name = uniqueName('Lotti')
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await openCounters(page, 'Impostazioni', 'Contatori')
    await page.getByRole('link', { name: 'Nuovo contatore' }).click()
    await page.getByRole('button', { name: 'Crea contatore' }).click()
    await expect(page.getByText('Il nome è obbligatorio')).toBeVisible()
    await page.getByRole('textbox', { name: 'Nome' }).pressSequentially(name)
    await page.getByRole('textbox', { name: 'Modello' }).pressSequentially('L-{###}')
    await expect(page.getByTestId('counter-preview')).toHaveText('L-001')
    await page.getByRole('combobox', { name: 'Azzeramento' }).click()
    await page.getByRole('option', { name: 'Ogni anno' }).click()
    await expect(page.getByText("Il modello deve mostrare il periodo dell'azzeramento")).toBeVisible()
    await page.getByRole('textbox', { name: 'Modello' }).press('Home')
    await page.getByRole('textbox', { name: 'Modello' }).pressSequentially('{YYYY}')
    await expect(page.getByTestId('counter-preview')).toHaveText(`${new Date().getFullYear()}L-001`)
    await shot(page, 'counter-new-it')
    await page.getByRole('button', { name: 'Crea contatore' }).click()
    await expect(notice(page, 'Contatore creato')).toBeVisible()
    await page.getByRole('button', { name: 'Elimina contatore' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Elimina' }).click()
    await expect(notice(page, 'Contatore eliminato')).toBeVisible()
  })
})
