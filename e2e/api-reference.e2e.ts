import { expect, test } from '@playwright/test'
import { adminApi, SHOTS_DIR } from './helpers'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

test('the API reference comes from the app alone (nothing asked of another host); a token entered there calls GET whoami: 200', async ({ page, baseURL }) => {
  // A 4 MB renderer parsed on a busy 2-core machine can take a while: more room than the usual minute.
  test.setTimeout(150_000)
  // The page must work on a plant network with no way out: any request elsewhere is refused and noted.
  const outside: string[] = []
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue()
    outside.push(url.href)
    return route.abort('blockedbyclient')
  })
  const api = await adminApi(baseURL!)
  const created = await api.post('/api/api-token', { data: { description: 'API reference e2e', expiration: Date.now() + 3_600_000, scope: 'operator' } })
  expect(created.status(), await created.text()).toBe(201)
  const { token, created_by: owner } = (await created.json()).detail as { token: string; created_by: string }

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/api/docs')
  await expect(page.getByRole('heading', { name: 'MES REST API', level: 1 })).toBeVisible({ timeout: 60_000 })
  // The bearer token field comes from the OpenAPI security scheme; a token is pasted, not typed.
  await page.getByRole('textbox', { name: 'Bearer Token' }).click()
  await page.keyboard.insertText(token)
  await page.screenshot({ path: `${SHOTS_DIR}/api-reference-1280.png` })

  await page.getByRole('link', { name: /^The signed-in user/ }).first().click()
  await page.getByRole('button', { name: 'Test Request (get /whoami)' }).click()
  const client = page.getByRole('dialog', { name: 'API Client' })
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/whoami')
  await client.getByRole('button', { name: /^Send get request to http:\/\/localhost:\d+\/api\/whoami$/ }).click()
  const response = await answered
  expect(response.status()).toBe(200)
  expect(response.request().headers().authorization).toBe(`Bearer ${token}`)
  expect((await response.json()).detail.user_key).toBe(owner)
  // The client shows the answer.
  const answer = client.getByRole('region', { name: 'Response', exact: true })
  await expect(answer.getByRole('link', { name: '200 OK' })).toBeVisible()
  await expect(answer).toContainText(owner)
  await page.screenshot({ path: `${SHOTS_DIR}/api-reference-whoami-200.png` })
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.screenshot({ path: `${SHOTS_DIR}/api-reference-whoami-200-1024.png` })

  expect(outside).toEqual([])
})
