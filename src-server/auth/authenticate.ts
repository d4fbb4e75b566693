import type { MiddlewareHandler } from 'hono'
import type { Auth, RequestCtx, Services } from '../context'
import { isDatabaseUnavailable } from '../db/unavailable'
import { databaseUnavailable } from '../errors'
import type { AppEnv } from '../http-env'
import { isApiToken, validateApiToken } from './api-tokens'
import { requestSourceReader } from './client-address'
import { readAuthCookie } from './cookie'
import { validateSessionToken } from './sessions'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i)
  return match?.[1] ?? null
}

/**
 * Resolves who is calling (session cookie, session bearer token or API token) into the
 * request's context. It refuses nothing itself: `authorize` decides per procedure or route.
 */
export function authenticate(svc: Services): MiddlewareHandler<AppEnv> {
  const sourceOf = requestSourceReader(svc.config)
  return async (c, next) => {
    const now = svc.clock.now()
    const bearer = bearerToken(c.req.header('authorization'))
    const cookie = bearer ? undefined : readAuthCookie(c)
    const token = bearer ?? cookie
    let auth: Auth | null = null
    try {
      if (token && isApiToken(token)) {
        const valid = await validateApiToken(svc.db, token, now)
        if (valid) auth = { via: 'token', user: valid.user, tokenId: valid.tokenId, scope: valid.scope }
      } else if (token) {
        const valid = await validateSessionToken(svc.db, token, now)
        if (valid) auth = { via: 'session', ...valid, cookie: Boolean(cookie) }
      }
    } catch (e) {
      // A session that cannot be read is not a missing one: 503 (retry), never 401 (which signs the user out).
      throw isDatabaseUnavailable(e) ? databaseUnavailable() : e
    }
    const source = sourceOf(c)
    // CSRF: a cookie-authenticated unsafe request must come from the app's own origin (https
    // when a trusted proxy says the browser came over https, though the proxy spoke http to us).
    // Only such a request pays for parsing its URL.
    const crossOrigin = Boolean(cookie) && !SAFE_METHODS.has(c.req.method) && c.req.header('origin') !== `${source.https ? 'https' : 'http'}://${new URL(c.req.url).host}`
    const ctx: RequestCtx = {
      ...svc,
      auth,
      client: { ...source, userAgent: c.req.header('user-agent') ?? null },
      background: c.req.header('x-mes-background') === '1',
      method: c.req.method,
      crossOrigin,
    }
    c.set('ctx', ctx)
    await next()
  }
}
