import { homePagePath } from '../../src/auth/scopes'
import type { SessionInfo } from '../../src/domains/session/schemas'

/** Where a signed-in user lands: a safe `redirect_to` first, then their homepage. */
export function landingPath(session: SessionInfo, redirectTo?: string): string | null {
  if (redirectTo && isSafeRedirect(redirectTo)) return redirectTo
  return homePagePath(session.scope, session.preferences.home_page)
}

/** Only paths inside this app: no scheme, no protocol-relative `//host`. */
export const isSafeRedirect = (target: string) => target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login')
