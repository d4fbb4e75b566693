import { describe, expect, test } from 'bun:test'
import { createApp } from '../app'
import { ADMIN_PASSWORD, type Harness, useHarness } from '../test/harness'

/** The socket address Bun would report for a request (Hono's getConnInfo reads it from the env). */
const fromAddress = (address: string) => ({ requestIP: () => ({ address, family: address.includes(':') ? 'IPv6' : 'IPv4', port: 51000 }) })

const PROXY = '10.0.0.2'
const withTrustedProxy = (h: Harness) =>
  createApp({ ...h.svc, config: { ...h.svc.config, trustedProxies: [PROXY], proxyClientHeader: 'x-forwarded-for' } })

/** Signs in as admin at `url` from the socket address `peer`; returns the Set-Cookie line and the session token. */
async function signIn(app: ReturnType<typeof createApp>, url: string, peer: string, headers: Record<string, string> = {}) {
  const res = await app.request(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) },
    fromAddress(peer),
  )
  expect(res.status).toBe(200)
  const { token } = ((await res.json()) as { detail: { token: string } }).detail
  return { cookie: res.headers.get('set-cookie') ?? '', token }
}

const flags = (cookie: string) =>
  cookie
    .split(';')
    .slice(1)
    .map((part) => part.trim().split('=')[0]!.toLowerCase())
    .sort()

describe('the session cookie', () => {
  const h = useHarness()

  test('over plain HTTP: HttpOnly, SameSite=Lax, Path=/, a max age, and not Secure (it would never come back)', async () => {
    const { cookie, token } = await signIn(h.app, 'http://mes.test/api/login', '192.0.2.10')
    expect(cookie).toStartWith(`Authorization=${token};`)
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
    expect(flags(cookie)).toEqual(['httponly', 'max-age', 'path', 'samesite'])
  })

  test('served over HTTPS directly: Secure', async () => {
    const { cookie } = await signIn(h.app, 'https://mes.test/api/login', '192.0.2.10')
    expect(flags(cookie)).toEqual(['httponly', 'max-age', 'path', 'samesite', 'secure'])
  })

  test('X-Forwarded-Proto: https from a trusted proxy: Secure; the client address comes from X-Forwarded-For', async () => {
    const app = withTrustedProxy(h)
    const { cookie, token } = await signIn(app, 'http://mes.test/api/login', PROXY, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.23' })
    expect(flags(cookie)).toContain('secure')
    const session = await h.svc.db.selectFrom('auth_sessions').select('ip').where('id', '=', token.split('.')[0]!).executeTakeFirstOrThrow()
    expect(session.ip).toBe('198.51.100.23')
  })

  test('X-Forwarded-Proto from a client that is not a trusted proxy is ignored (no proxy configured, or another address)', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.23' }
    const untrusted = await signIn(h.app, 'http://mes.test/api/login', PROXY, headers)
    expect(flags(untrusted.cookie)).not.toContain('secure')
    const bypass = await signIn(withTrustedProxy(h), 'http://mes.test/api/login', '192.0.2.77', headers)
    expect(flags(bypass.cookie)).not.toContain('secure')
    const session = await h.svc.db.selectFrom('auth_sessions').select('ip').where('id', '=', bypass.token.split('.')[0]!).executeTakeFirstOrThrow()
    expect(session.ip).toBe('192.0.2.77')
  })

  test('the trusted proxy saying http: not Secure (its own right-most word counts, not what the client sent before it)', async () => {
    const { cookie } = await signIn(withTrustedProxy(h), 'http://mes.test/api/login', PROXY, { 'x-forwarded-proto': 'https, http' })
    expect(flags(cookie)).not.toContain('secure')
  })

  test('behind a trusted https proxy the app origin is https (CSRF check); logout clears the cookie with the same flags', async () => {
    const app = withTrustedProxy(h)
    const headers = { 'x-forwarded-proto': 'https' }
    const { token } = await signIn(app, 'http://mes.test/api/login', PROXY, headers)
    const logout = (origin: string) =>
      app.request('http://mes.test/api/logout', { method: 'POST', headers: { ...headers, cookie: `Authorization=${token}`, origin } }, fromAddress(PROXY))
    // The browser's origin is the https one the proxy serves: the plain one the proxy spoke is foreign.
    expect((await logout('http://mes.test')).status).toBe(403)
    const res = await logout('https://mes.test')
    expect(res.status).toBe(200)
    const cleared = res.headers.get('set-cookie') ?? ''
    expect(cleared).toMatch(/^Authorization=;/)
    expect(cleared).toContain('Max-Age=0')
    expect(flags(cleared)).toEqual(['httponly', 'max-age', 'path', 'samesite', 'secure'])
  })
})
