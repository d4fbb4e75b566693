import { beforeAll, describe, expect, test } from 'bun:test'
import { restRoutes } from '../rest/routes'
import { adminKey, adminToken, appCode, countOf, fillPath, trpcCall } from '../test/fixtures'
import { ADMIN_PASSWORD, signIn, useHarness } from '../test/harness'

describe('temporary passwords (must_change_password)', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await adminToken(h)
  })

  async function newUser(username: string, scope = 'operator') {
    const res = await h.request('POST', '/api/user', { token: admin, body: { username, name: 'New', surname: 'User', scope } })
    expect(res.status).toBe(201)
    const { _key, temp_psw } = res.body.detail as { _key: string; temp_psw: string }
    expect(temp_psw.length).toBeGreaterThanOrEqual(8)
    return { key: _key, temp: temp_psw }
  }

  test('a new user signs in with the temporary password and is told to change it', async () => {
    const u = await newUser('temp.one')
    const login = await h.request('POST', '/api/login', { body: { username: 'temp.one', password: u.temp } })
    expect(login.status).toBe(200)
    expect(login.body.detail).toMatchObject({ user_key: u.key, must_change_password: true })
    const token = login.body.detail.token
    const info = await h.request('POST', '/api/session', { token, body: { user_key: u.key } })
    expect(info.status).toBe(200)
    expect(info.body.detail.must_change_password).toBe(true)
  })

  test('until it is changed only whoami, session, password, logout and own preferences answer', async () => {
    const u = await newUser('temp.two')
    const token = await signIn(h, 'temp.two', u.temp)

    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(200)
    expect((await h.request('POST', '/api/session', { token, body: { user_key: u.key } })).status).toBe(200)
    const prefs = await h.request('PATCH', `/api/user/${u.key}`, { token, body: { preferences: { theme: 'dark', locale: 'en' } } })
    expect(prefs.status).toBe(200)
    expect((await trpcCall(h, 'session.whoami', 'query', undefined, { token })).status).toBe(200)

    const refused = async (method: string, path: string, body?: unknown) => {
      const res = await h.request(method, path, { token, body })
      expect({ path, status: res.status, code: appCode(res.body) }).toEqual({ path, status: 403, code: 'PASSWORD_CHANGE_REQUIRED' })
    }
    const events = await countOf(h, 'events')
    await refused('POST', '/api/event', { event_type: 'SHOULD_NOT_BE_WRITTEN' })
    await refused('GET', '/api/user')
    expect(await countOf(h, 'events')).toBe(events)
    const t = await trpcCall(h, 'events.record', 'mutation', { event_type: 'NOPE' }, { token })
    expect(t.status).toBe(403)
    expect(appCode(t.body)).toBe('PASSWORD_CHANGE_REQUIRED')

    // Every route that does not say otherwise refuses; the table grows with later issues.
    const allowed: string[] = []
    for (const r of restRoutes) {
      if (r.access.scope === 'public') continue
      const label = `${r.method.toUpperCase()} ${r.path}`
      if (r.access.beforePasswordChange) {
        allowed.push(label)
        continue
      }
      const res = await h.request(r.method.toUpperCase(), `/api${fillPath(r.path)}`, { token, body: r.body && !r.multipart ? {} : undefined })
      expect({ label, status: res.status, code: appCode(res.body) }).toEqual({ label, status: 403, code: 'PASSWORD_CHANGE_REQUIRED' })
    }
    for (const must of ['GET /whoami', 'POST /session', 'POST /password', 'POST /logout', 'PATCH /user/{key}']) {
      expect(allowed).toContain(must)
    }
    expect(allowed).not.toContain('POST /event')
    expect(allowed).not.toContain('POST /user')
  })

  test('before the change, PATCH user may only touch the own preferences', async () => {
    const u = await newUser('temp.admin', 'admin operator')
    const token = await signIn(h, 'temp.admin', u.temp)
    const other = await newUser('temp.victim')
    const own = await h.request('PATCH', `/api/user/${u.key}`, { token, body: { preferences: { theme: 'dark' } } })
    expect(own.status).toBe(200)
    for (const [key, body] of [
      [other.key, { name: 'Changed' }],
      [other.key, { preferences: { theme: 'dark' } }],
      [u.key, { name: 'Changed' }],
    ] as const) {
      const res = await h.request('PATCH', `/api/user/${key}`, { token, body })
      expect(res.status).toBe(403)
      expect(res.body.detail.code).toBe('PASSWORD_CHANGE_REQUIRED')
    }
    const row = await h.svc.db.selectFrom('users').select(['name']).where('id', '=', other.key).executeTakeFirstOrThrow()
    expect(row.name).toBe('New')
  })

  test('logout works before the change', async () => {
    const u = await newUser('temp.three')
    const token = await signIn(h, 'temp.three', u.temp)
    expect((await h.request('POST', '/api/logout', { token })).status).toBe(200)
    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(401)
  })

  test('changing the password: wrong current 400, same password refused, too short refused', async () => {
    const u = await newUser('temp.four')
    const token = await signIn(h, 'temp.four', u.temp)
    const wrong = await h.request('POST', '/api/password', { token, body: { current_password: 'not-the-temp', new_password: 'brand-new-pass' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.detail.code).toBe('WRONG_PASSWORD')
    const same = await h.request('POST', '/api/password', { token, body: { current_password: u.temp, new_password: u.temp } })
    expect(same.status).toBe(400)
    expect(same.body.detail.code).toBe('WEAK_PASSWORD')
    const short = await h.request('POST', '/api/password', { token, body: { current_password: u.temp, new_password: 'short' } })
    expect(short.status).toBe(400)
    expect(short.body.detail.code).toBe('INVALID_INPUT')
    expect(short.body.detail.message).toContain('new_password')
    const row = await h.svc.db.selectFrom('users').select(['must_change_password']).where('id', '=', u.key).executeTakeFirstOrThrow()
    expect(row.must_change_password).toBe(true)
    expect((await h.request('POST', '/api/event', { token, body: { event_type: 'X' } })).status).toBe(403)
  })

  test('the change lifts the restriction, ends the other sessions and replaces the old password', async () => {
    const u = await newUser('temp.five')
    const token = await signIn(h, 'temp.five', u.temp)
    const other = await signIn(h, 'temp.five', u.temp)
    const res = await h.request('POST', '/api/password', { token, body: { current_password: u.temp, new_password: 'brand-new-pass' } })
    expect(res.status).toBe(200)
    const row = await h.svc.db.selectFrom('users').select(['must_change_password', 'password_hash']).where('id', '=', u.key).executeTakeFirstOrThrow()
    expect(row.must_change_password).toBe(false)
    expect(row.password_hash).not.toContain('brand-new-pass')

    expect((await h.request('GET', '/api/whoami', { token: other })).status).toBe(401)
    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(200)
    expect((await h.request('POST', '/api/event', { token, body: { event_type: 'PAUSED_OFFLINE' } })).status).toBe(201)

    expect((await h.request('POST', '/api/login', { body: { username: 'temp.five', password: u.temp } })).status).toBe(401)
    const again = await h.request('POST', '/api/login', { body: { username: 'temp.five', password: 'brand-new-pass' } })
    expect(again.status).toBe(200)
    expect(again.body.detail.must_change_password).toBe(false)

    const ev = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'PASSWORD_CHANGED').where('subject_key', '=', u.key).execute()
    expect(ev).toHaveLength(1)
    expect(ev[0]!.user_id).toBe(u.key)
    expect(ev[0]!.session_id).toBe(token.split('.')[0]!)
  })

  test('a normal password change also ends the other sessions and needs the current password', async () => {
    const a = await signIn(h, 'admin', ADMIN_PASSWORD)
    const b = await signIn(h, 'admin', ADMIN_PASSWORD)
    const res = await trpcCall(h, 'session.changePassword', 'mutation', { current_password: ADMIN_PASSWORD, new_password: 'admin-password-2' }, { token: a })
    expect(res.status).toBe(200)
    expect((await h.request('GET', '/api/whoami', { token: b })).status).toBe(401)
    expect((await h.request('GET', '/api/whoami', { token: a })).status).toBe(200)
    expect((await h.request('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).status).toBe(401)
    const back = await h.request('POST', '/api/password', { token: a, body: { current_password: 'admin-password-2', new_password: ADMIN_PASSWORD } })
    expect(back.status).toBe(200)
    expect(await adminKey(h)).toBeString()
  })
})
