import { expect, test } from '@playwright/test'

test('a production user signs in and lands on the production area', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Username').fill('produzione')
  await page.getByRole('textbox', { name: 'Password' }).fill('demo1234')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/app\/production$/)
  await expect(page.getByTestId('screen-title')).toHaveText('Production')
})
