import { writeFileSync } from 'node:fs'
import { type APIRequestContext, type Browser, chromium, expect, type Page, test } from '@playwright/test'
import bwipjs from 'bwip-js/node'
import QRCode from 'qrcode'
import { DEFAULT_PHASE_PARAMETERS } from '../src/domains/process/phase-parameters'
import config from '../playwright.config'
import { adminApi, createReadyUser, fillLogin, releaseProduct, SHOTS_DIR, uniqueName, untilOpened } from './helpers'

/**
 * Issue 24, camera scanning and scan to open. Chromium plays a y4m file as its camera (the test
 * draws the code into it): the traveller's QR, as the print stack encodes it (`job_url`:
 * `{app_url}/app/operator/job/{key}`), opens the job; a serial label's DataMatrix opens the serial.
 * Debian's Chromium has no BarcodeDetector, so this is the WebAssembly decoder at work, its .wasm
 * served by the app. Then scan to open typed like a scanner (fast keys and Enter), it and en.
 */

const W = 640
const H = 480
/** A grid of dark (true) and light modules. */
type Matrix = { cols: number; rows: number; dark: (x: number, y: number) => boolean }

const qrMatrix = (text: string): Matrix => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  return { cols: modules.size, rows: modules.size, dark: (x, y) => Boolean(modules.get(y, x)) }
}
type BwipRaw = { raw: (bcid: string, text: string, opts: object) => { pixs: number[]; pixx: number; sbs: number[] }[] }
/** A DataMatrix as the labels print it (bwip-js is the printing stack's barcode library). */
const dataMatrix = (text: string): Matrix => {
  const [sym] = (bwipjs as unknown as BwipRaw).raw('datamatrix', text, {})
  return { cols: sym!.pixx, rows: sym!.pixx, dark: (x, y) => sym!.pixs[y * sym!.pixx + x] === 1 }
}
/** A Code 128 as position labels print it: bars and spaces from bwip-js, a quarter as tall as wide. */
const code128 = (text: string): Matrix => {
  const [sym] = (bwipjs as unknown as BwipRaw).raw('code128', text, {})
  const bars = sym!.sbs.flatMap((width, i) => Array.from({ length: width }, () => i % 2 === 0))
  return { cols: bars.length, rows: Math.round(bars.length / 4), dark: (x) => bars[x]! }
}

/**
 * A YUV4MPEG2 video of the code, black on white with a quiet zone, centred: the Y plane carries the
 * picture (16 black, 235 white), U and V stay at 128 (grey). Chromium loops the file; `blank`
 * white frames first keep the dialog on screen a moment (10 frames a second).
 */
function writeY4m(path: string, m: Matrix, { frames = 10, blank = 0 } = {}) {
  const px = Math.floor(Math.min(W / (m.cols + 20), H / (m.rows + 8)))
  const left = Math.floor((W - m.cols * px) / 2)
  const top = Math.floor((H - m.rows * px) / 2)
  const y = Buffer.alloc(W * H, 235)
  for (let row = 0; row < H; row++) {
    for (let col = 0; col < W; col++) {
      const mx = Math.floor((col - left) / px)
      const my = Math.floor((row - top) / px)
      if (col >= left && row >= top && mx < m.cols && my < m.rows && m.dark(mx, my)) y[row * W + col] = 16
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128)
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma])
  const white = Buffer.concat([Buffer.from('FRAME\n'), Buffer.alloc(W * H, 235), chroma])
  const video = [...Array.from({ length: blank }, () => white), ...Array.from({ length: frames }, () => frame)]
  writeFileSync(path, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...video]))
}

/**
 * A browser whose camera plays `video`: launched here, since the file is a launch argument. It
 * allows the camera when asked, unless `refuse` (then headless Chromium dismisses the question).
 */
function cameraBrowser(video: string, { refuse = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      ...(refuse ? [] : ['--use-fake-ui-for-media-stream']),
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  })
}

async function ok<T = unknown>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.status(), await res.text()).toBeLessThan(300)
  return ((await res.json()) as { detail: T }).detail
}

/** A released product of one phase and a work order for `operatorKey`: its code and its job. */
async function workOrderFor(api: APIRequestContext, operatorKey: string) {
  const operation = await ok<{ _key: string }>(await api.post('/api/operation', { data: { name: uniqueName('Scansione') } }))
  const product = await ok<{ _key: string }>(await api.post('/api/product', { data: { code: uniqueName('CAM').toUpperCase(), description: 'Valvola da scansionare' } }))
  await ok(
    await api.put(`/api/product/${product._key}/process`, {
      data: { phases: [{ operation_key: operation._key, name: 'Montaggio', parameters: DEFAULT_PHASE_PARAMETERS, steps: [{ type: 'instruction', title: 'Monta', text: '', fields: [] }] }] },
    }),
  )
  await releaseProduct(api, product._key)
  const wo = await ok<{ _key: string; code: string; phases: { jobs: { _key: string }[] }[] }>(
    await api.post('/api/work-order', { data: { product_key: product._key, quantity: 2, operator_key: operatorKey } }),
  )
  return { woKey: wo._key, woCode: wo.code, jobKey: wo.phases[0]!.jobs[0]!._key }
}

/** Signs in (the page is fresh) and waits for the app. */
async function signInOn(page: Page, username: string, password: string) {
  await page.goto('/login')
  await fillLogin(page, username, password)
  await expect(page).toHaveURL(/\/app(\/|$)/)
}

/** A scanner: the code as fast keys, then Enter. */
async function scanInto(page: Page, code: string) {
  const field = page.getByTestId('scan-to-open')
  await field.click()
  await field.pressSequentially(code, { delay: 5 })
  await field.press('Enter')
}

test("the camera reads the traveller's QR and opens the job (Italian, 1024x768)", async ({ baseURL }) => {
  test.setTimeout(120_000)
  const api = await adminApi(baseURL!)
  const operator = await createReadyUser(baseURL!, 'operator', { name: 'Sara', surname: uniqueName('Camera') })
  const { jobKey } = await workOrderFor(api, operator.key)
  const video = `${SHOTS_DIR}/camera-traveller.y4m`
  writeY4m(video, qrMatrix(`${baseURL}/app/operator/job/${jobKey}`))

  const browser = await cameraBrowser(video)
  try {
    const context = await browser.newContext({ baseURL, locale: 'it-IT', viewport: { width: 1024, height: 768 }, permissions: ['camera'] })
    const page = await context.newPage()
    const requested: string[] = []
    page.on('request', (r) => requested.push(r.url()))
    await signInOn(page, operator.username, operator.password)
    await expect(page.getByTestId('scan-to-open')).toHaveAttribute('placeholder', 'Apri codice  ( / )')
    // The first load carries no decoder: it comes with the first press.
    expect(requested.filter((u) => /zxing|ponyfill|CameraScanDialog/.test(u))).toEqual([])
    await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-topbar-it-1024.png` })
    await page.getByTestId('scan-to-open-camera').click()
    // The dialog shows the picture until the code is read; then the job's work session opens.
    await expect(page).toHaveURL(new RegExp(`/app/operator/job/${jobKey}`), { timeout: 30_000 })
    await expect(page.getByRole('dialog', { name: 'Leggi un codice con la fotocamera' })).toHaveCount(0)
    await expect(page.getByTestId('screen-title')).toHaveText('Operatore')
    await expect(page.getByTestId('work-session-header')).toBeVisible()
    await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-job-opened-it-1024.png` })
    // The WebAssembly decoder ran (this Chromium has no BarcodeDetector), its file from the app itself, nothing from elsewhere.
    expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false)
    expect(requested.some((u) => u.startsWith(`${baseURL}/assets/zxing_reader-`) && u.endsWith('.wasm'))).toBe(true)
    expect(requested.filter((u) => !u.startsWith(`${baseURL}/`))).toEqual([])
  } finally {
    await browser.close()
  }
})

test("a serial label's DataMatrix read by the camera opens the serial (English)", async ({ baseURL }) => {
  test.setTimeout(120_000)
  const user = await createReadyUser(baseURL!, 'traceability', { name: 'Elena', surname: uniqueName('Camera') })
  const video = `${SHOTS_DIR}/camera-serial.y4m`
  // A demo serial (read only here).
  writeY4m(video, dataMatrix('SN-MOT-0101'), { blank: 60 })

  const browser = await cameraBrowser(video)
  try {
    const context = await browser.newContext({ baseURL, locale: 'en-GB', viewport: { width: 1024, height: 768 }, permissions: ['camera'] })
    const page = await context.newPage()
    await signInOn(page, user.username, user.password)
    await page.getByTestId('scan-to-open-camera').click()
    // The white frames before the label: the dialog shows the camera's picture and waits.
    const dialog = page.getByRole('dialog', { name: 'Read a code with the camera' })
    await expect(dialog.getByTestId('camera-status')).toHaveText('Point the camera at the code: it reads by itself (QR, Code 128, DataMatrix, EAN-13).')
    await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-dialog-en-1024.png` })
    await expect(page).toHaveURL(/\/app\/traceability\/serials\/[0-9a-f-]{36}$/, { timeout: 30_000 })
    await expect(page.getByTestId('serial-code')).toHaveText('SN-MOT-0101')
    await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-serial-opened-en-1024.png` })
  } finally {
    await browser.close()
  }
})

test("in a code field the camera types a position label's Code 128 like a scanner: the field reads it (Italian)", async ({ baseURL }) => {
  test.setTimeout(120_000)
  const api = await adminApi(baseURL!)
  const rack = uniqueName('SC').toUpperCase()
  const shelf = uniqueName('RP').toUpperCase()
  const parent = await ok<{ _key: string }>(await api.post('/api/position', { data: { code: rack } }))
  await ok(await api.post('/api/position', { data: { code: shelf, parent_key: parent._key } }))
  const user = await createReadyUser(baseURL!, 'warehouse', { name: 'Andrea', surname: uniqueName('Camera') })
  const video = `${SHOTS_DIR}/camera-position.y4m`
  writeY4m(video, code128(shelf))

  const browser = await cameraBrowser(video)
  try {
    const context = await browser.newContext({ baseURL, locale: 'it-IT', viewport: { width: 1024, height: 768 }, permissions: ['camera'] })
    const page = await context.newPage()
    await signInOn(page, user.username, user.password)
    await page.getByRole('tab', { name: 'Inventario' }).click()
    const field = page.getByTestId('inventory-position')
    await page.locator('.mantine-Input-wrapper', { has: field }).getByRole('button', { name: 'Leggi con la fotocamera' }).click()
    // Read on its Enter, as a scanner's: the position found shows its place under the field.
    await expect(field).toHaveValue(shelf, { timeout: 30_000 })
    await expect(page.getByText(`${rack} / ${shelf}`)).toBeVisible()
    await expect(page.getByTestId('inventory-unknown-filter')).toHaveCount(0)
    await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-inventory-position-it-1024.png` })
  } finally {
    await browser.close()
  }
})

test.describe('scan to open, typed like a scanner', () => {
  test.use({ locale: 'it-IT', viewport: { width: 1024, height: 768 } })

  test('Italian: a work order code, a job code, a code of a kind the user may not open, an unknown code', async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!)
    const operator = await createReadyUser(baseURL!, 'operator')
    const { woKey, woCode } = await workOrderFor(api, operator.key)
    const planner = await createReadyUser(baseURL!, 'production', { name: 'Luca', surname: uniqueName('Apri') })
    await signInOn(page, planner.username, planner.password)

    await scanInto(page, woCode)
    // The work order opens on its first tab (the page may show it at once or after its redirect).
    await expect(page).toHaveURL(new RegExp(`/app/production/workorder/${woKey}(/job-list)?$`))
    await expect(page.getByTestId('scan-to-open')).toHaveValue('')

    await scanInto(page, `${woCode}/1`)
    // Opened: the field empties once the code is resolved (the URL may already read job-list from the first scan).
    await expect(page.getByTestId('scan-to-open')).toHaveValue('')
    await expect(page).toHaveURL(new RegExp(`/app/production/workorder/${woKey}/job-list$`))

    // A serial is traceability's: production is told so, and stays where it is.
    await scanInto(page, 'SN-MOT-0101')
    await expect(page.getByTestId('scan-to-open-message')).toHaveText('Non hai i permessi per aprire il seriale SN-MOT-0101')
    await expect(page).toHaveURL(new RegExp(`/app/production/workorder/${woKey}/job-list$`))

    const unknown = uniqueName('NON-ESISTE').toUpperCase()
    await page.getByTestId('scan-to-open').fill('')
    await page.getByTestId('scan-to-open').pressSequentially(unknown, { delay: 5 })
    await page.getByTestId('scan-to-open').press('Enter')
    await expect(page.getByTestId('scan-to-open-message')).toHaveText(`Codice non trovato: ${unknown}`)
    await page.screenshot({ path: `${SHOTS_DIR}/scan-to-open-unknown-it-1024.png` })
    // The tooltip documents the shortcut.
    await page.getByTestId('scan-to-open').press('Escape')
    await page.getByTestId('scan-to-open').hover()
    await expect(page.getByRole('tooltip')).toContainText('Scorciatoia: / oppure Ctrl+K')
  })

  test('English: "/" puts the cursor in the field; a position label opens the position; an unknown code says so', async ({ browser, baseURL }) => {
    const api = await adminApi(baseURL!)
    const code = uniqueName('SCAF').toUpperCase()
    const position = await ok<{ _key: string }>(await api.post('/api/position', { data: { code, description: 'Scaffale da scansionare' } }))
    const user = await createReadyUser(baseURL!, 'warehouse', { name: 'Andrea', surname: uniqueName('Apri') })
    const context = await browser.newContext({ baseURL, locale: 'en-GB', viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await signInOn(page, user.username, user.password)

    await page.getByTestId('screen-title').click()
    // The shortcut works once the screen has settled after sign-in (under load that takes a moment).
    await expect(async () => {
      await page.keyboard.press('/')
      await expect(page.getByTestId('scan-to-open')).toBeFocused({ timeout: 1000 })
    }).toPass({ timeout: 15_000 })
    // A scanner types into whatever has the focus: here, the field the shortcut chose.
    await page.keyboard.type(code.toLowerCase(), { delay: 5 })
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/app/warehouse/positions/${position._key}$`))
    await expect(page.getByTestId('position-title')).toHaveText(code)

    await page.keyboard.press('Control+k')
    await expect(page.getByTestId('scan-to-open')).toBeFocused()
    await page.keyboard.type('NO-SUCH-CODE-42', { delay: 5 })
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('scan-to-open-message')).toHaveText('Code not found: NO-SUCH-CODE-42')
    await page.screenshot({ path: `${SHOTS_DIR}/scan-to-open-unknown-en-1280.png` })
    await context.close()
  })

  test('two codes scanned back to back: the second, typed while the first resolves, arrives whole', async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!)
    const operator = await createReadyUser(baseURL!, 'operator')
    const { woKey, woCode } = await workOrderFor(api, operator.key)
    const planner = await createReadyUser(baseURL!, 'production', { name: 'Luca', surname: uniqueName('Doppia') })
    await signInOn(page, planner.username, planner.password)
    // The first lookup answers 1.5 s late: the second scan is typed and sent while it is out.
    let held = false
    await page.route('**/api/trpc/codes.resolve**', async (route) => {
      if (!held) {
        held = true
        await new Promise((r) => setTimeout(r, 1_500))
      }
      await route.continue()
    })
    const unknown = uniqueName('NON-ESISTE').toUpperCase()
    const field = page.getByTestId('scan-to-open')
    await field.click()
    await page.keyboard.type(woCode, { delay: 5 })
    await page.keyboard.press('Enter')
    await page.keyboard.type(unknown, { delay: 5 })
    await page.keyboard.press('Enter')
    // Both were read: the work order opened, and the second code, whole, was looked up after it.
    await expect(page).toHaveURL(new RegExp(`/app/production/workorder/${woKey}(/job-list)?$`))
    await expect(page.getByTestId('scan-to-open-message')).toHaveText(`Codice non trovato: ${unknown}`)
    await expect(field).toHaveValue(unknown)
  })

  test('no camera, or the permission refused: said in words (it, en)', async ({ browser, baseURL }) => {
    test.setTimeout(90_000)
    const user = await createReadyUser(baseURL!, 'warehouse')
    // This browser has no camera; granting the permission leaves "no camera found".
    const granted = await browser.newContext({ baseURL, locale: 'it-IT', viewport: { width: 1024, height: 768 }, permissions: ['camera'] })
    let page = await granted.newPage()
    await signInOn(page, user.username, user.password)
    await page.getByTestId('scan-to-open-camera').click()
    await expect(page.getByTestId('camera-problem')).toHaveText('Nessuna fotocamera trovata su questo dispositivo. Scrivi il codice o usa lo scanner.')
    await untilOpened(page.getByRole('dialog', { name: 'Leggi un codice con la fotocamera' }))
    await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-no-camera-it-1024.png` })
    await granted.close()

    // A camera, but the question "allow the camera?" answered no.
    const video = `${SHOTS_DIR}/camera-blank.y4m`
    writeY4m(video, qrMatrix('-'), { frames: 0, blank: 10 })
    const cameraRefused = await cameraBrowser(video, { refuse: true })
    try {
      page = await (await cameraRefused.newContext({ baseURL, locale: 'en-GB', viewport: { width: 1024, height: 768 } })).newPage()
      await signInOn(page, user.username, user.password)
      await page.getByTestId('scan-to-open-camera').click()
      await expect(page.getByTestId('camera-problem')).toHaveText("Camera access denied. Allow it in the browser's settings for this site, or type the code.")
      await page.screenshot({ path: `${SHOTS_DIR}/camera-scan-refused-en-1024.png` })
    } finally {
      await cameraRefused.close()
    }
  })
})
