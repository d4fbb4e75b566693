import { expect, type Page, test } from '@playwright/test'
import { ADMIN_PASSWORD, shot, signIn } from './helpers'

const TABLETS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
]

/** Where the work starts: the left edge of the main area's content (inside the shell's padding). */
const mainLeft = (page: Page) => page.getByRole('main').evaluate((main) => (main.firstElementChild ?? main).getBoundingClientRect().left)

for (const viewport of TABLETS) {
  test.describe(`${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport })

    test('an operator (one area) has no side navigation: the work takes the whole width', async ({ page }) => {
      await signIn(page, 'operatore1')
      await expect(page).toHaveURL(/\/app\/operator\/select-job/)
      await expect(page.getByRole('navigation')).toHaveCount(0)
      await expect(page.getByTestId('nav-toggle')).toHaveCount(0)
      expect(await mainLeft(page)).toBeLessThan(24)
      await shot(page, `layout-operator-${viewport.width}`)
      // The area's title in the header is the way back to its first screen.
      await expect(page.getByTestId('area-home')).toHaveAttribute('href', '/app/operator')
    })

    test('a user of several areas: navigation closed below desktop widths, the burger button opens it to switch area', async ({ page }) => {
      await signIn(page, 'admin', ADMIN_PASSWORD)
      await expect(page).toHaveURL(/\/app\/operator/)
      await expect(page.getByRole('navigation')).toHaveCount(0)
      expect(await mainLeft(page)).toBeLessThan(24)
      const toggle = page.getByTestId('nav-toggle')
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(page.getByRole('navigation').getByRole('link')).toHaveCount(9)
      await shot(page, `layout-admin-nav-open-${viewport.width}`)
      await page.getByRole('navigation').getByRole('link', { name: 'Quality', exact: true }).click()
      await expect(page).toHaveURL(/\/app\/quality\/issues/)
      await expect(page.getByTestId('screen-title')).toHaveText('Quality')
      // Chosen an area, the navigation gives the width back.
      await expect(page.getByRole('navigation')).toHaveCount(0)
      expect(await mainLeft(page)).toBeLessThan(24)
    })
  })
}

test.describe('desktop 1440x900', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('a user of several areas finds the navigation open and can close it', async ({ page }) => {
    await signIn(page, 'capoturno')
    const nav = page.getByRole('navigation')
    await expect(nav.getByRole('link')).toHaveText(['Operator', 'Production', 'Quality', 'Audit trail'])
    expect(await mainLeft(page)).toBeGreaterThan(200)
    await nav.getByRole('link', { name: 'Production', exact: true }).click()
    await expect(page).toHaveURL(/\/app\/production/)
    await expect(nav).toBeVisible()
    await page.getByTestId('nav-toggle').click()
    await expect(nav).toHaveCount(0)
    // The shell slides the content back (a short transition); desktop widths keep a wider padding.
    await expect.poll(() => mainLeft(page)).toBeLessThan(40)
  })
})
