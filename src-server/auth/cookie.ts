import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { SESSION_ABSOLUTE_MS } from './sessions'

/** SPEC: the auth token is kept in a cookie named Authorization. */
export const AUTH_COOKIE = 'Authorization'

const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https'

export function setAuthCookie(c: Context, token: string) {
  setCookie(c, AUTH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: isHttps(c),
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  })
}

export function clearAuthCookie(c: Context) {
  deleteCookie(c, AUTH_COOKIE, { path: '/', secure: isHttps(c) })
}

export const readAuthCookie = (c: Context) => getCookie(c, AUTH_COOKIE)
