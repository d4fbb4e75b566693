import type { Browser, Page } from '@playwright/test'

/**
 * A repeat visit with the service worker (issue 24): one browser context loads the operator's
 * work session as a person arrives (sign-in, screen), waits until the service worker controls the
 * page (registered after load, its precache filled), then opens the same address again (a reload:
 * the lock screen of SPEC 4 over the screen). Every script of the second load is counted: served
 * by the service worker or fetched over the network, with the bytes that came over the wire
 * (CDP encodedDataLength of the responses not answered by the service worker).
 */
export type RepeatVisit = {
  /** From the first load's end until the service worker controlled the page. */
  controlledAfterMs: number
  scripts: number
  scriptsFromServiceWorker: number
  scriptBytesOverNetwork: number
}

export async function measureRepeatVisit(
  browser: Browser,
  baseURL: string,
  target: string,
  signIn: (page: Page) => Promise<void>,
  ready: string,
): Promise<RepeatVisit> {
  const context = await browser.newContext({ baseURL, locale: 'it-IT', viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' })
  try {
    const page = await context.newPage()
    await page.goto(`/login?redirect_to=${encodeURIComponent(target)}`)
    await signIn(page)
    await page.locator(ready).first().waitFor({ state: 'visible', timeout: 60_000 })
    const loaded = performance.now()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000, polling: 250 })
    const controlledAfterMs = performance.now() - loaded

    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    const scripts = new Map<string, { fromSw: boolean; bytes: number }>()
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') scripts.set(e.requestId, { fromSw: e.response.fromServiceWorker === true, bytes: 0 })
    })
    cdp.on('Network.loadingFinished', (e) => {
      const s = scripts.get(e.requestId)
      if (s) s.bytes = e.encodedDataLength
    })
    await page.goto(target)
    await page.getByTestId('lock-screen').waitFor({ state: 'visible', timeout: 60_000 })
    await page.waitForLoadState('networkidle')
    await cdp.detach()
    const all = [...scripts.values()]
    return {
      controlledAfterMs,
      scripts: all.length,
      scriptsFromServiceWorker: all.filter((s) => s.fromSw).length,
      scriptBytesOverNetwork: all.filter((s) => !s.fromSw).reduce((sum, s) => sum + s.bytes, 0),
    }
  } finally {
    await context.close()
  }
}
