import type { MiddlewareHandler } from 'hono'
import { getConnInfo } from 'hono/bun'
import type { Auth, RequestCtx, Services } from '../context'
import type { AppEnv } from '../http-env'
import { isApiToken, validateApiToken } from './api-tokens'
import { readAuthCookie } from './cookie'
import { validateSessionToken } from './sessions'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i)
  return match?.[1] ?? null
}

function clientIp(c: Parameters<MiddlewareHandler>[0]): string | null {
  try {
    return getConnInfo(c).remote.address ?? null
  } catch {
    return null // app.request() in tests has no socket
  }
}

/**
 * Resolves who is calling (session cookie, session bearer token or API token) into the
 * request's context. It refuses nothing itself: `authorize` decides per procedure or route.
 */
export function authenticate(svc: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const now = svc.clock.now()
    const bearer = bearerToken(c.req.header('authorization'))
    const cookie = bearer ? undefined : readAuthCookie(c)
    const token = bearer ?? cookie
    let auth: Auth | null = null
    if (token && isApiToken(token)) {
      const valid = await validateApiToken(svc.db, token, now)
      if (valid) auth = { via: 'token', user: valid.user, tokenId: valid.tokenId, scope: valid.scope }
    } else if (token) {
      const valid = await validateSessionToken(svc.db, token, now)
      if (valid) auth = { via: 'session', ...valid, cookie: Boolean(cookie) }
    }
    // CSRF: a cookie-authenticated unsafe request must come from the app's own origin.
    const origin = c.req.header('origin')
    const crossOrigin = Boolean(cookie) && !SAFE_METHODS.has(c.req.method) && origin !== new URL(c.req.url).origin
    const ctx: RequestCtx = {
      ...svc,
      auth,
      client: { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null },
      background: c.req.header('x-mes-background') === '1',
      method: c.req.method,
      crossOrigin,
    }
    c.set('ctx', ctx)
    await next()
  }
}
