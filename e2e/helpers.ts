import { mkdirSync } from 'node:fs'
import { type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type BrowserContextOptions, expect, type Locator, type Page, request } from '@playwright/test'
import { DEFAULT_PHASE_PARAMETERS, type PhaseParameters } from '../src/domains/process/phase-parameters'

/** Shared by the browser tests: demo accounts, sign-in, users made through the admin API. */
export const DEMO_PASSWORD = 'demo1234'
export const ADMIN_PASSWORD = 'e2e-admin-password'
export const SHOTS_DIR = '/tmp/e2e-shots'
mkdirSync(SHOTS_DIR, { recursive: true })

export const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true })

/** Waits until a dialog has finished opening (nothing in its modal still animating, the dialog opaque), for a screenshot. */
export async function untilOpened(dialog: Locator) {
  await expect
    .poll(() =>
      dialog.evaluate((el) => {
        const modal = el.closest('.mantine-Modal-root') ?? el
        return modal.getAnimations({ subtree: true }).length === 0 && getComputedStyle(el).opacity === '1'
      }),
    )
    .toBe(true)
}

/** A 160x120 PNG of a scratched plate: what a tablet's camera would send. */
export const PHOTO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAKAAAAB4CAIAAAD6wG44AAACr0lEQVR42u3dx20dQRQEQIbDIBSnvPfeUN7lJgEEiD692YMAYZrV+BkU+vB3Z3pPrkauRa5HbkRuRm5FbkfuRO5G7kXuRx5EHkYeRR5HnkSeRp5FnkdeRF5GXkVeR95E3kbeRd5HPkTOIh8jnyKfI18iXyPfIt8jPyI/I78ivyMngAEDBgwYMGDAgAEDBgwYMGDAgAEDBgwYMGDAgAEDBgwYMGDAgAEDBgwYMGDAgAEDBgwYMGDAgAEDBgwY8L8GvnJ6Crgc+PwHuBw4jQF3Al8wA24GPv8BLge+MAa8/d+kwfjvD3DJ/+AjzIC3f9AxGwNueJI1VxlwyaPKJTPghmfRgzHgkpcNc5UBl7xNmpkBl7wuPGIMeO/3wcsqA2544T8zAy450bE0Brz9kZ25yoBLzmQdYQa8/aG72Rhww6nKucqAS47NLpkBN5yLHowBlxx8n6sMuORmw8wMuOTqyhFjwHvfTVpWGXDD5bOZGXDJ7cKlMeDtr4/OVQZccj/4CDPg7S+Az8aAG274z1UGXDLhsGQG3LDRMRgDLhlhmasMuGRlZ2YGXDKjdMQY8N47WcsqA24YQpuZAZcs3S2NAW8/ZThXGXDJVuURZsDbj5HOxoAb1mbnKgMuWZtdMgNuGCMdjAGXrM3OVQZcsjY7MwMuWZs9Ygx47zHSZZUBN6zNzsyAS9Zml8aAtx8jnasMuGRt9ggz4O3HSGdjwA1rs3OVAZeszS6ZATeMkQ7GgEvWZucqAy5Zm52ZAZeszR4xBrz3GOmyyoAb1mZnZsAla7NLY8Dbj5HOVQZcsjZ7hBnw9mOkszHghrXZucqAS9Zml8yAG8ZIB2PAJWuzgC/FNxsAX4pvNgDu/2YD4EvxzQbAvtkAGDBgwIABAwYMGDBgwIABAwYMGDBgwIAB/0/gP3mQHll19DXHAAAAAElFTkSuQmCC',
  'base64',
)

/**
 * The tag of a test (or describe) that changes what every other spec sees: a setting, the
 * server's clock, an active data flow. Such tests run alone, one after another, before the rest
 * (the "isolated" project of playwright.config.ts); every other test runs beside others.
 */
export const ISOLATED = { tag: '@isolated' }

let counter = 0
/** A username no other test (or earlier run against the same database) uses. */
export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}`

const devices: BrowserContext[] = []

/**
 * A page in a browser context of its own (another person on another device). Close them with
 * `test.afterEach(closeDevices)`: Playwright leaves such contexts open for the rest of the worker,
 * where their live screens keep running beside the next specs.
 */
export async function newDevice(browser: Browser, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options)
  devices.push(context)
  return context.newPage()
}

export async function closeDevices() {
  await Promise.all(devices.splice(0).map((c) => c.close()))
}

/** Signs in through the login form (the login screen must be showing). */
export async function fillLogin(page: Page, username: string, password: string) {
  await page.getByRole('textbox', { name: /^(Username)$/ }).fill(username)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: /^(Sign in|Accedi)$/ }).click()
}

/** Opens the login screen and signs in; waits until the app left /login. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await fillLogin(page, username, password)
  await expect(page).toHaveURL(/\/app(\/|$)/)
}

export async function signOut(page: Page) {
  await page.getByTestId('user-menu').click()
  await page.getByRole('menuitem', { name: /^(Sign out|Esci)$/ }).click()
  await expect(page).toHaveURL(/\/login/)
}

/**
 * Into an area the way a person gets there: the side navigation (behind the burger button below
 * desktop widths) or, for a user of one area (no navigation), the area's title in the header.
 */
export async function openArea(page: Page, label: string) {
  const toggle = page.getByTestId('nav-toggle')
  const areaHome = page.getByTestId('area-home')
  await expect(toggle.or(areaHome).first()).toBeVisible()
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click()
  } else {
    await expect(areaHome).toHaveText(label)
    await areaHome.click()
  }
}

/** Opens the user menu and clicks an entry (the current choice carries a check mark before its label). */
export async function chooseInUserMenu(page: Page, label: string) {
  await page.getByTestId('user-menu').click()
  await page.getByRole('menuitem', { name: new RegExp(`^(✓ )?${label}$`) }).click()
}

/** An API client signed in as admin by Bearer token (no cookie, so no CSRF origin needed). */
export function adminApi(baseURL: string): Promise<APIRequestContext> {
  adminApiCache ??= newAdminApi(baseURL)
  return adminApiCache
}
let adminApiCache: Promise<APIRequestContext> | undefined

async function newAdminApi(baseURL: string): Promise<APIRequestContext> {
  const anon = await request.newContext({ baseURL })
  const res = await anon.post('/api/login', { data: { username: 'admin', password: ADMIN_PASSWORD } })
  expect(res.status()).toBe(200)
  const { token } = (await res.json()).detail
  await anon.dispose()
  return request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } })
}

export type NewUser = { username: string; password: string; key: string }

/** Creates a user as admin; the password is the temporary one (must be changed at first sign-in). */
export async function createUser(baseURL: string, scope: string, opts: { name?: string; surname?: string } = {}): Promise<NewUser> {
  const api = await adminApi(baseURL)
  const username = uniqueName('e2e')
  const res = await api.post('/api/user', { data: { username, scope, name: opts.name ?? 'Ettore', surname: opts.surname ?? 'Zanetti' } })
  expect(res.status(), await res.text()).toBe(201)
  const { _key, temp_psw } = (await res.json()).detail
  return { username, password: temp_psw, key: _key }
}

/** Creates a user and replaces the temporary password through the API, so it can sign in straight away. */
export async function createReadyUser(baseURL: string, scope: string, opts: { name?: string; surname?: string } = {}): Promise<NewUser> {
  const user = await createUser(baseURL, scope, opts)
  const api = await request.newContext({ baseURL })
  const login = await api.post('/api/login', { data: { username: user.username, password: user.password } })
  expect(login.status()).toBe(200)
  const { token } = (await login.json()).detail
  const password = 'e2e-password-1'
  const change = await api.post('/api/password', {
    headers: { authorization: `Bearer ${token}` },
    data: { current_password: user.password, new_password: password },
  })
  expect(change.status(), await change.text()).toBeLessThan(300)
  await api.post('/api/logout', { headers: { authorization: `Bearer ${token}` } })
  await api.dispose()
  return { ...user, password }
}

/** The URL is in an area: its root or any screen below it (areas open on sub-screens as they grow). */
export const inArea = (areaPath: string) => new RegExp(`${areaPath.replace(/\//g, '\\/')}(\\/[^?#]*)?(\\?[^#]*)?$`)

/**
 * Releases the product's draft process and bom as its next revision (work orders are made from
 * released revisions); a draft equal to the latest revision is already released.
 */
export async function releaseProduct(api: APIRequestContext, productKey: string, reason = 'Rilascio e2e'): Promise<void> {
  const res = await api.post(`/api/product/${productKey}/revision`, { data: { reason } })
  if (res.status() === 409 && (await res.json()).detail.code === 'NOTHING_TO_RELEASE') return
  expect(res.status(), await res.text()).toBe(201)
}

/** The `detail` of a successful API answer (any 2xx); otherwise the test fails with the body. */
export async function ok<T = any>(res: APIResponse): Promise<T> {
  expect(res.status(), await res.text()).toBeLessThan(300)
  return ((await res.json()) as { detail: T }).detail
}

/** A phase of a product's process as the admin API takes it; unset parts take the defaults. */
export type PhaseSpec = {
  name: string
  parameters?: Partial<PhaseParameters>
  steps?: unknown[]
  operation_key?: string
  production_notes?: string
}

export type OperatorWorkOrder = {
  api: APIRequestContext
  operator: NewUser
  operationKey: string
  productKey: string
  productCode: string
  wo: string
  woCode: string
  /** The first job of each phase, in phase order. */
  jobs: string[]
  /** The first phase's job. */
  job: string
  phaseKeys: string[]
}

/**
 * The usual start of a floor test: a new operator (a unique surname), an operation, a product of
 * its own with the given phases (one instruction step by default), released, and a work order of
 * `quantity` given to the operator. Everything is named uniquely, so specs running side by side
 * (and a second run on the same server) never meet.
 */
export async function operatorWithWorkOrder(
  baseURL: string,
  opts: {
    prefix: string
    description?: string
    /** The operation's name before its unique suffix (the first phase's name by default). */
    operation?: string
    quantity?: number
    phases?: PhaseSpec[]
    operator?: { name?: string; surname?: string; scope?: string }
    /** An operator the test made already, instead of a new one. */
    assignee?: NewUser
    /** More fields of the work order (`line`, `due_by` ...). */
    workOrder?: Record<string, unknown>
  },
): Promise<OperatorWorkOrder> {
  const api = await adminApi(baseURL)
  const operator =
    opts.assignee ??
    (await createReadyUser(baseURL, opts.operator?.scope ?? 'operator', {
      name: opts.operator?.name ?? 'Op',
      surname: opts.operator?.surname ?? uniqueName(opts.prefix),
    }))
  const phases = opts.phases ?? [{ name: 'Montaggio' }]
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName(opts.operation ?? phases[0]!.name) } }))
  const productCode = uniqueName(opts.prefix).toUpperCase()
  const product = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: productCode, description: opts.description ?? `Prodotto ${opts.prefix}` } }))
  const process = await ok<{ phases: { _key: string }[] }>(
    await api.put(`/api/product/${product._key}/process`, {
      data: {
        phases: phases.map((p) => ({
          operation_key: p.operation_key ?? operation._key,
          name: p.name,
          parameters: { ...DEFAULT_PHASE_PARAMETERS, ...p.parameters },
          steps: p.steps ?? [{ type: 'instruction', title: p.name, text: '', fields: [] }],
          production_notes: p.production_notes ?? '',
        })),
      },
    }),
  )
  await releaseProduct(api, product._key)
  const wo = await ok<{ _key: string; code: string; phases: { jobs: { _key: string }[] }[] }>(
    await api.post('/api/work-order', { data: { product_key: product._key, quantity: opts.quantity ?? 1, operator_key: operator.key, ...opts.workOrder } }),
  )
  const jobs = wo.phases.map((p) => p.jobs[0]!._key)
  return {
    api,
    operator,
    operationKey: operation._key,
    productKey: product._key,
    productCode,
    wo: wo._key,
    woCode: wo.code,
    jobs,
    job: jobs[0]!,
    phaseKeys: process.phases.map((p) => p._key),
  }
}

/** On a new tablet page: the operator signs in and starts this job from their queue (selected, confirmed). */
export async function operatorStartsJob(browser: Browser, locale: string, operator: { username: string; password: string }, jobKey: string): Promise<Page> {
  const floor = await browser.newPage({ locale, viewport: { width: 1280, height: 800 } })
  await floor.goto('/login')
  await fillLogin(floor, operator.username, operator.password)
  const card = floor.locator(`[data-testid="job-card"][data-job-key="${jobKey}"]`)
  await expect(card).toBeVisible()
  if ((await card.getAttribute('data-selected')) === null) await card.click()
  await floor.getByTestId('to-confirm').click()
  await floor.getByTestId('start-jobs').click()
  await expect(floor).toHaveURL(new RegExp(`/app/operator/job/${jobKey}/steps`))
  return floor
}

/** A new page where the demo production user reads a work order's history (signatures, corrections). */
export async function productionOpensHistory(browser: Browser, locale: string, woKey: string): Promise<Page> {
  const history = await browser.newPage({ locale, viewport: { width: 1280, height: 800 } })
  const historyPath = `/app/production/workorder/${woKey}/history`
  await history.goto(`/login?redirect_to=${encodeURIComponent(historyPath)}`)
  await fillLogin(history, 'produzione', DEMO_PASSWORD)
  return history
}

/** A user sets their own signing PIN over the API (the plant's `pin_signing` must be on). */
export async function setPinByApi(baseURL: string, user: { username: string; password: string }, pin: string) {
  const api = await request.newContext({ baseURL })
  const login = await api.post('/api/login', { data: { username: user.username, password: user.password } })
  const { token } = (await login.json()).detail
  const res = await api.post('/api/pin', { headers: { authorization: `Bearer ${token}` }, data: { current_password: user.password, new_pin: pin } })
  expect(res.status(), await res.text()).toBe(200)
  await api.post('/api/logout', { headers: { authorization: `Bearer ${token}` } })
  await api.dispose()
}
