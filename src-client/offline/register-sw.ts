/**
 * Registers the service worker (issue 24; scripts/vite-pwa.ts) once the page has loaded and the
 * browser has been idle a while: its script and the precache it fills never compete with the
 * first load of the operator's screens (bench/client.ts measures that load). Production builds
 * only: the dev server has no service worker.
 */
const AFTER_LOAD_MS = 4_000

export function registerServiceWorkerLater() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No service worker (plain http outside localhost, a private window): the app works online as before.
    })
  }
  const later = () =>
    setTimeout(() => {
      if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 10_000 })
      else register()
    }, AFTER_LOAD_MS)
  if (document.readyState === 'complete') later()
  else window.addEventListener('load', later, { once: true })
}
