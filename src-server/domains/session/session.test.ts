import { describe, expect, test } from 'bun:test'
import { ADMIN_PASSWORD, signIn, useHarness } from '../../test/harness'

describe('sign-in', () => {
  const h = useHarness()

  test('health names the database engine', async () => {
    const res = await h.request('GET', '/api/health')
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ status: 'ok', database: h.svc.dbKind })
  })

  test('login returns a token and sets an HttpOnly cookie', async () => {
    const res = await h.request('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
    expect(res.status).toBe(200)
    expect(res.body.detail.token).toMatch(/^[a-z0-9]+\.[a-z0-9]{52}$/)
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toContain(`Authorization=${res.body.detail.token}`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    const who = await h.request('GET', '/api/whoami', { token: res.body.detail.token })
    expect(who.body.detail.user_key).toBe(res.body.detail.user_key)
  })

  test('wrong password and unknown user get the same 401', async () => {
    const a = await h.request('POST', '/api/login', { body: { username: 'admin', password: 'nope-nope' } })
    const b = await h.request('POST', '/api/login', { body: { username: 'ghost', password: 'nope-nope' } })
    expect(a.status).toBe(401)
    expect(b.status).toBe(401)
    expect(a.body).toEqual(b.body)
    expect(a.body.detail.message).toBe('Incorrect username or password')
  })

  test('each sign-in gets a new token; logout ends only that one', async () => {
    const t1 = await signIn(h, 'admin', ADMIN_PASSWORD)
    const t2 = await signIn(h, 'admin', ADMIN_PASSWORD)
    expect(t1).not.toBe(t2)
    expect((await h.request('POST', '/api/logout', { token: t1 })).status).toBe(200)
    expect((await h.request('GET', '/api/whoami', { token: t1 })).status).toBe(401)
    expect((await h.request('GET', '/api/whoami', { token: t2 })).status).toBe(200)
  })
})
