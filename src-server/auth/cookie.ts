import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { SESSION_ABSOLUTE_MS } from './sessions'

/** SPEC: the auth token is kept in a cookie named Authorization. */
export const AUTH_COOKIE = 'Authorization'

/**
 * The session cookie: HttpOnly (page scripts never read it), SameSite=Lax (not sent with
 * cross-site posts), Path=/, and Secure when the request came over HTTPS, directly or through a
 * trusted proxy (`https` is RequestCtx.client.https, see client-address.ts). Over plain HTTP
 * (a workshop LAN) a Secure cookie would never come back, so it is left off there.
 */
export function setAuthCookie(c: Context, token: string, https: boolean) {
  setCookie(c, AUTH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: https,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  })
}

export function clearAuthCookie(c: Context, https: boolean) {
  deleteCookie(c, AUTH_COOKIE, { path: '/', secure: https, httpOnly: true, sameSite: 'Lax' })
}

export const readAuthCookie = (c: Context) => getCookie(c, AUTH_COOKIE)
