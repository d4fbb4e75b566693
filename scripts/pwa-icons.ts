import { readFileSync } from 'node:fs'
import path from 'node:path'
import { chromium } from '@playwright/test'

/**
 * Draws the app's icons for the web app manifest (issue 24) from public/favicon.svg with the
 * machine's Chromium: 192 and 512 px, and a maskable 512 px one whose mark sits inside the safe
 * zone (the launcher may cut the corners to any shape). Run again after changing the favicon:
 * `bun scripts/pwa-icons.ts`.
 */
const PUBLIC = path.join(import.meta.dir, '..', 'public')
const svg = readFileSync(path.join(PUBLIC, 'favicon.svg'), 'utf8')
const TEAL = '#0b7285'

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
try {
  const page = await browser.newPage()
  const draw = async (file: string, size: number, maskable: boolean) => {
    await page.setViewportSize({ width: size, height: size })
    // Maskable: a full square of the brand colour, the mark at 80% (the safe zone's circle).
    const inner = maskable ? Math.round(size * 0.8) : size
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${maskable ? TEAL : 'transparent'}">` +
        `<div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`,
    )
    await page.screenshot({ path: path.join(PUBLIC, file), omitBackground: !maskable })
  }
  await draw('pwa-192.png', 192, false)
  await draw('pwa-512.png', 512, false)
  await draw('pwa-maskable-512.png', 512, true)
} finally {
  await browser.close()
}
