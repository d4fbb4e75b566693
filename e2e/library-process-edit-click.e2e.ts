import { expect, type Locator, test } from '@playwright/test'
import { openArea, signIn } from './helpers'

/** What lies over the middle of an element (null: the element itself or its content). */
const coveredBy = (target: Locator): Promise<string | null> =>
  target.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
    if (hit && (el === hit || el.contains(hit))) return null
    const chain: string[] = []
    for (let e = hit; e && chain.length < 4; e = e.parentElement) chain.push(`${e.tagName}.${e.className}`)
    return chain.join(' < ')
  })

// A plain click (no force) on "Modifica processo" of the demo products, at the page's top and with
// the edit bar stuck under the header after scrolling a long procedure, on both tablet sizes.
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
]) {
  test.describe(`${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport, locale: 'it-IT' })

    test('"Modifica processo" takes a plain click on the demo products, scrolled or not', async ({ page }) => {
      await signIn(page, 'libreria')
      for (const code of ['PMP-100', 'CTL-200']) {
        for (const scrolled of [false, true]) {
          await openArea(page, 'Libreria')
          await expect(page).toHaveURL(/\/app\/library\/product(\?.*)?$/)
          // Found by its code: other specs add products that may push it off the first page.
          const search = page.getByRole('searchbox', { name: 'Cerca' })
          await search.fill('')
          await search.pressSequentially(code)
          await page.getByRole('table').getByText(code, { exact: true }).click()
          await page.getByRole('tab', { name: 'Processo' }).click()
          const edit = page.getByRole('button', { name: 'Modifica processo' })
          await expect(edit).toBeEnabled()
          if (scrolled) await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
          // Nothing lies over it once the page has settled (a one-off probe could land mid-layout).
          await expect.poll(() => coveredBy(edit)).toBeNull()
          await edit.click()
          await expect(page.getByText('In modifica', { exact: true })).toBeVisible()
          await page.getByRole('button', { name: 'Annulla' }).first().click()
          await expect(edit).toBeVisible()
        }
      }
    })
  })
}
