import { describe, expect, test } from 'bun:test'
import { adminToken, quickUser, sessionFor } from '../../test/fixtures'
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

  test('the login answer carries the same session details as POST session (no whoami, no POST session after it)', async () => {
    const login = await h.request('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
    expect(login.status).toBe(200)
    const { token, user_key, session } = login.body.detail
    expect(session).toMatchObject({ user_key, session_key: token.split('.')[0], username: 'admin', must_change_password: false })
    expect(session.idle_lock_minutes).toBeGreaterThan(0)
    const info = await h.request('POST', '/api/session', { token, body: { user_key } })
    expect(session).toEqual(info.body.detail)
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

describe('POST session and DELETE session/{session_key}', () => {
  const h = useHarness()

  test('POST session with the own key returns the session details', async () => {
    const login = await h.request('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
    const { token, user_key } = login.body.detail
    const res = await h.request('POST', '/api/session', { token, body: { user_key } })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({
      user_key,
      session_key: token.split('.')[0],
      name: 'Admin',
      surname: '',
      scope: 'admin library operator production quality traceability reporting warehouse audit',
      preferences: { locale: null, home_page: null, theme: 'light' },
    })
  })

  test("another user's key is 403 WRONG_USER_ID 'wrong user ID'; a missing key is 400 naming the field", async () => {
    const token = await adminToken(h)
    const other = await quickUser(h, 'someone', 'operator')
    const res = await h.request('POST', '/api/session', { token, body: { user_key: other.key } })
    expect(res.status).toBe(403)
    expect(res.body.detail).toMatchObject({ code: 'WRONG_USER_ID', message: 'wrong user ID' })
    const bogus = await h.request('POST', '/api/session', { token, body: { user_key: 'not-a-key' } })
    expect(bogus.status).toBe(403)
    expect(bogus.body.detail.code).toBe('WRONG_USER_ID')
    const missing = await h.request('POST', '/api/session', { token, body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.detail.code).toBe('INVALID_INPUT')
    expect(missing.body.detail.message).toContain('user_key')
  })

  test('preferences saved with PATCH user come back in POST session', async () => {
    const u = await quickUser(h, 'prefs.user', 'operator quality')
    const patch = await h.request('PATCH', `/api/user/${u.key}`, {
      token: u.token,
      body: { preferences: { locale: 'en', theme: 'dark', home_page: 'qualityRoot' } },
    })
    expect(patch.status).toBe(200)
    const res = await h.request('POST', '/api/session', { token: u.token, body: { user_key: u.key } })
    expect(res.body.detail).toMatchObject({ user_key: u.key, scope: 'operator quality', preferences: { locale: 'en', theme: 'dark', home_page: 'qualityRoot' } })
  })

  test('a user ends their own session by its key', async () => {
    const u = await quickUser(h, 'ends.own', 'operator')
    const second = await sessionFor(h, u.key)
    const res = await h.request('DELETE', `/api/session/${second.split('.')[0]}`, { token: u.token })
    expect(res.status).toBe(200)
    expect((await h.request('GET', '/api/whoami', { token: second })).status).toBe(401)
    expect((await h.request('GET', '/api/whoami', { token: u.token })).status).toBe(200)
    const self = await h.request('DELETE', `/api/session/${u.token.split('.')[0]}`, { token: u.token })
    expect(self.status).toBe(200)
    expect((await h.request('GET', '/api/whoami', { token: u.token })).status).toBe(401)
  })

  test("another user's session is 404 (it is not revealed) unless the caller is an admin", async () => {
    const a = await quickUser(h, 'user.a', 'operator production')
    const b = await quickUser(h, 'user.b', 'operator')
    const bKey = b.token.split('.')[0]
    const refused = await h.request('DELETE', `/api/session/${bKey}`, { token: a.token })
    expect(refused.status).toBe(404)
    expect(refused.body.detail.code).toBe('NOT_FOUND')
    expect((await h.request('GET', '/api/whoami', { token: b.token })).status).toBe(200)
    expect((await h.request('DELETE', '/api/session/no-such-session', { token: a.token })).status).toBe(404)

    const admin = await adminToken(h)
    const ok = await h.request('DELETE', `/api/session/${bKey}`, { token: admin })
    expect(ok.status).toBe(200)
    expect((await h.request('GET', '/api/whoami', { token: b.token })).status).toBe(401)
    const ev = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'SESSION_DELETED').where('subject_key', '=', bKey!).execute()
    expect(ev).toHaveLength(1)
    expect(ev[0]!.session_id).toBe(admin.split('.')[0]!)
  })
})
