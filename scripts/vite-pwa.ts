import type { VitePWAOptions } from 'vite-plugin-pwa'

/**
 * The installable app (issue 24, docs/offline.md): a Workbox service worker made at build time
 * (generateSW) that precaches the app shell and every hashed asset, and answers any navigation
 * with the cached index.html, so a tablet that reloads without network still opens the app (the
 * lock screen, then the work kept on the device). API and media calls are never cached or
 * answered by it: they go to the network (denylisted from the navigation fallback, no runtime
 * caching). The page registers it itself, late (src-client/offline/register-sw.ts), so it is no
 * part of the first load.
 */
export const pwaOptions: Partial<VitePWAOptions> = {
  registerType: 'autoUpdate',
  injectRegister: false,
  manifestFilename: 'manifest.webmanifest',
  manifest: {
    name: 'progress · produzione in reparto',
    short_name: 'progress',
    description: 'Esecuzione della produzione: ordini di lavoro, job, passi e tracciabilità',
    lang: 'it',
    start_url: '/app',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: '#0b7285',
    background_color: '#ffffff',
    icons: [
      { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // wasm: the camera scanner's decoder (zxing, docs/scanning.md), so the camera reads codes offline after the first visit.
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2,wasm}'],
    // The Excel export and pdf.js (its worker is .mjs, never matched) are office tools: loaded online, if ever.
    globIgnores: ['**/exceljs*'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
    runtimeCaching: [],
  },
}
