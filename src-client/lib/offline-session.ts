import type { SessionInfo } from '../../src/domains/session/schemas'

/**
 * Who is signed in on this browser, for a start without network only (issue 24, docs/offline.md):
 * the app opened by the service worker cannot ask the server, and the 5-minute snapshot of SPEC 4
 * may be gone (a browser restart). The session's public details (names, scope, preferences),
 * never a token or a password; removed on sign-out. The app then shows the lock screen, which
 * only the server can open.
 */
const KEY = 'mes.offline-session'

export function rememberSession(session: SessionInfo) {
  try {
    localStorage.setItem(KEY, JSON.stringify(session))
  } catch {
    // No storage (quota, private window): an offline start then shows the error as before.
  }
}

export function forgetSession() {
  localStorage.removeItem(KEY)
}

export function rememberedSession(): SessionInfo | null {
  try {
    const raw = localStorage.getItem(KEY)
    return raw ? (JSON.parse(raw) as SessionInfo) : null
  } catch {
    return null
  }
}
