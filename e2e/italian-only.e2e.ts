import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { adminApi, createReadyUser, fillLogin } from './helpers'

/**
 * The Italian UI holds no English: every area's main screens, visited with an Italian browser,
 * show no text (visible, or aria-label/title/placeholder/alt) that is one of the English catalog's
 * translations, nor one of the component kit's English defaults.
 */
test.use({ locale: 'it-IT', viewport: { width: 1280, height: 800 } })

/** Mantine's own English words, shown unless the app passes its own (Italian) text. */
const KIT_DEFAULTS = ['Toggle password visibility', 'Close', 'Clear', 'Loading...', 'Nothing found', 'Previous month', 'Next month', 'Previous year', 'Next year']

type PoEntry = { msgid: string; msgstr: string }

function readPo(path: string): PoEntry[] {
  const entries: PoEntry[] = []
  let current: Partial<Record<'msgid' | 'msgstr', string>> = {}
  let field: 'msgid' | 'msgstr' | null = null
  const unquote = (s: string) => JSON.parse(s) as string
  const flush = () => {
    if (current.msgid) entries.push({ msgid: current.msgid, msgstr: current.msgstr ?? '' })
    current = {}
    field = null
  }
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = line.match(/^(msgid|msgstr) (".*")$/)
    if (m) {
      if (m[1] === 'msgid' && current.msgid !== undefined) flush()
      field = m[1] as 'msgid' | 'msgstr'
      current[field] = unquote(m[2]!)
    } else if (field && line.startsWith('"')) current[field] += unquote(line)
    else if (line.trim() === '') flush()
  }
  flush()
  return entries
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim()
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** English catalog strings that can only be English: differ from their Italian and are no Italian source text. */
function englishMatchers() {
  const catalog = readPo('src-client/locales/en/messages.po')
  const italian = new Set(catalog.map((e) => squash(e.msgid)))
  const exact = new Set<string>(KIT_DEFAULTS)
  const patterns: { text: string; re: RegExp }[] = []
  for (const { msgid, msgstr } of catalog) {
    const en = squash(msgstr)
    if (!en || en === squash(msgid) || italian.has(en)) continue
    if (/\{\w+, (plural|select|selectordinal),/.test(en)) continue
    const plain = en.replace(/<\/?\d+>/g, '')
    // Too little of its own to tell a language ("{0}", "{name}:", "OK").
    if (plain.replace(/\{\w+\}/g, '').replace(/[^\p{L}]/gu, '').length < 3) continue
    if (!/\{\w+\}/.test(plain)) exact.add(plain)
    else patterns.push({ text: en, re: new RegExp(`^${plain.split(/\{\w+\}/).map(escape).join('.+?')}$`) })
  }
  return (s: string) => (exact.has(s) ? s : patterns.find((p) => p.re.test(s))?.text)
}
const englishOf = englishMatchers()

/** Visible texts (each element's own rendering) and the words given to assistive technology. */
function screenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>([document.title])
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const v = el.getAttribute(attr)
        if (v) out.add(v)
      }
      if (el.checkVisibility?.() === false) continue
      const text = el.innerText
      if (text && text.length <= 300) out.add(text)
      for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE && node.textContent) out.add(node.textContent)
    }
    return [...out]
  })
}

/** What the screen shows in English, with where. */
async function englishOn(page: Page, where: string): Promise<string[]> {
  const found = new Set<string>()
  for (const raw of await screenTexts(page)) {
    const text = raw.replace(/\s+/g, ' ').trim()
    if (!text) continue
    const en = englishOf(text)
    if (en) found.add(`${where}: "${text}"${en !== text ? ` (catalog: "${en}")` : ''}`)
  }
  return [...found]
}

/** In-app navigation (a reload would lock the session), then a moment for the data to arrive. */
async function visit(page: Page, path: string) {
  await page.evaluate((p) => history.pushState(null, '', p), path)
  await expect(page).toHaveURL(new RegExp(`${escape(path)}([/?#].*)?$`))
  await expect(page.getByTestId('screen-title')).not.toHaveText('')
  await settle(page)
}

async function settle(page: Page) {
  await expect(page.locator('.mantine-Loader-root:visible')).toHaveCount(0, { timeout: 15_000 })
  await page.waitForTimeout(250)
}

const keyOf = (row: Record<string, unknown>) => String(row._key ?? row.key ?? row.id)
/** The first row of a list answer (a page with rows, or a plain array). */
const firstOf = (list: { rows?: Record<string, unknown>[] } | Record<string, unknown>[]) => (Array.isArray(list) ? list : list.rows ?? [])[0]!

test('every area reads in Italian: no English text or label on the main screens', async ({ page, baseURL }) => {
  test.setTimeout(240_000)
  const api = await adminApi(baseURL!)
  const get = async (path: string) => {
    const res = await api.get(path)
    expect(res.status(), path).toBe(200)
    return (await res.json()).detail
  }
  const product = keyOf(firstOf(await get('/api/product?search=PMP-100')))
  const workOrder = keyOf(await get('/api/work-order/WO000001'))
  const issue = keyOf(await get('/api/issue/ISS-000001'))
  const job = keyOf(firstOf(await get(`/api/job?work_order_key=${workOrder}`)))
  const operation = keyOf(firstOf(await get('/api/operation')))
  const user = await createReadyUser(baseURL!, 'admin library production quality operator traceability', { name: 'Anna', surname: 'Verdi' })

  const leaks: string[] = []
  // Signed out: the login screen.
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible()
  leaks.push(...(await englishOn(page, '/login')))

  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(/\/app\//)
  await settle(page)

  const screens = [
    '/app/admin/users',
    `/app/admin/users/${user.key}`,
    '/app/admin/users/new',
    '/app/admin/general/company',
    '/app/admin/general/default-phase',
    '/app/admin/general/departments',
    '/app/admin/general/api-token',
    '/app/admin/general/other',
    '/app/admin/operations',
    `/app/admin/operations/${operation}`,
    '/app/admin/issue-types',
    '/app/admin/field',
    '/app/library/product',
    `/app/library/product/${product}/home`,
    `/app/library/product/${product}/process`,
    `/app/library/product/${product}/bom`,
    '/app/production/overview/workorder',
    '/app/production/overview/job',
    '/app/production/overview/queues',
    '/app/production/overview/workorder/archive',
    `/app/production/workorder/${workOrder}/job-list`,
    `/app/production/workorder/${workOrder}/bom`,
    `/app/production/workorder/${workOrder}/history`,
    `/app/production/workorder/${workOrder}/issues`,
    `/app/production/workorder/${workOrder}/notes`,
    `/app/production/workorder/${workOrder}/messages`,
    '/app/operator/select-job',
    '/app/operator/select-job/all',
    `/app/operator/job/${job}/steps`,
    `/app/operator/job/${job}/docs`,
    `/app/operator/job/${job}/bom`,
    `/app/operator/job/${job}/notes`,
    `/app/operator/job/${job}/issues`,
    `/app/operator/job/${job}/process`,
    '/app/quality/issues',
    `/app/quality/issues/${issue}`,
  ]
  for (const path of screens) {
    await visit(page, path)
    leaks.push(...(await englishOn(page, path)))
  }

  // Traceability: the serials overview and a serial's detail with its genealogy (demo serials).
  await visit(page, '/app/traceability')
  leaks.push(...(await englishOn(page, '/app/traceability')))
  // Found by its code: other specs add serials to the shared overview.
  await page.getByTestId('serials-search').pressSequentially('SN-PMP-0001')
  // On the serial's own cell: the row's middle holds a link to its work order's traceability.
  await page.getByTestId('serials-table').locator('tbody tr', { hasText: 'SN-PMP-0001' }).locator('td').first().click()
  await expect(page.getByTestId('serial-code')).toHaveText('SN-PMP-0001')
  await settle(page)
  leaks.push(...(await englishOn(page, 'serial detail')))
  await page.getByRole('tab', { name: 'Genealogia: componenti' }).click()
  await expect(page.getByTestId('genealogy-backward')).toBeVisible()
  leaks.push(...(await englishOn(page, 'serial genealogy')))

  // A date field's calendar (on the issues overview, the last screen visited).
  await visit(page, '/app/quality/issues')
  await page.getByRole('textbox', { name: 'Aperte dal' }).click()
  await expect(page.getByRole('button', { name: 'Scegli il mese' })).toBeVisible()
  leaks.push(...(await englishOn(page, 'calendar')))
  await page.keyboard.press('Escape')

  // The header's menus: the user menu and the area navigation.
  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menu')).toBeVisible()
  leaks.push(...(await englishOn(page, 'user menu')))
  await page.keyboard.press('Escape')
  await page.getByTestId('nav-toggle').click()
  leaks.push(...(await englishOn(page, 'navigation')))

  // A reload locks the session: the lock screen.
  await page.reload()
  const lock = page.getByRole('dialog', { name: 'Sessione bloccata' })
  await expect(lock).toBeVisible()
  await settle(page)
  leaks.push(...(await englishOn(page, 'lock screen')))
  // Closing it: the login screen with its notice, then an address that does not exist.
  await lock.getByRole('button', { name: 'Chiudi la sessione e avviane un\'altra' }).click()
  await expect(page).toHaveURL(/\/login/)
  await settle(page)
  leaks.push(...(await englishOn(page, 'login after the lock screen')))
  await page.goto('/nowhere')
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
  leaks.push(...(await englishOn(page, 'not found')))

  expect(leaks, 'English text in the Italian UI').toEqual([])
})
