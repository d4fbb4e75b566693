import { beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { adminToken, countOf, MISSING_UUID, quickUser, TINY_PNG } from '../../test/fixtures'
import { type Harness, useHarness } from '../../test/harness'

/** Users and events counts, which a refused request must leave alone. */
const counts = async (h: Harness) => ({ users: await countOf(h, 'users'), events: await countOf(h, 'events') })

describe('POST user: SPEC messages and nothing written on failure', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await adminToken(h)
  })

  const create = (body: unknown) => h.request('POST', '/api/user', { token: admin, body })

  test('a valid user is created with a temporary password (201) and an event', async () => {
    const before = await counts(h)
    const res = await create({ username: 'Mario', name: 'Mario', surname: 'Rossi', scope: 'operator', hourly_cost: 20 })
    expect(res.status).toBe(201)
    expect(res.body.detail._key).toBeString()
    expect(res.body.detail.temp_psw).toBeString()
    expect(await counts(h)).toEqual({ users: before.users + 1, events: before.events + 1 })
  })

  const refusals: [string, unknown, number, string, string][] = [
    ['empty username', { username: '', scope: 'operator' }, 400, 'USERNAME_REQUIRED', 'username required'],
    ['blank username', { username: '   ', scope: 'operator' }, 400, 'USERNAME_REQUIRED', 'username required'],
    ['taken username', { username: 'Mario', scope: 'operator' }, 409, 'USERNAME_TAKEN', 'username already in use'],
    ['taken username, other case', { username: 'mARIO', scope: 'operator' }, 409, 'USERNAME_TAKEN', 'username already in use'],
    ['taken username with spaces', { username: ' mario ', scope: 'operator' }, 409, 'USERNAME_TAKEN', 'username already in use'],
    ['no permission', { username: 'nobody', scope: '' }, 400, 'PERMISSION_REQUIRED', 'check at least a permission'],
    ['unknown permission', { username: 'nobody', scope: 'superuser' }, 400, 'UNKNOWN_PERMISSION', '"superuser" is not a permission: the permissions (SPEC 6 scopes) are admin, library, operator, production, quality, traceability, reporting, warehouse, audit'],
  ]
  for (const [what, body, status, code, message] of refusals) {
    test(`${what}: ${status} ${code}`, async () => {
      const before = await counts(h)
      const res = await create(body)
      expect(res.status).toBe(status)
      expect(res.body.detail).toMatchObject({ code, message })
      expect(await counts(h)).toEqual(before)
    })
  }

  test('hourly cost below 0 is 400 and writes nothing', async () => {
    const before = await counts(h)
    const res = await create({ username: 'cheap', scope: 'operator', hourly_cost: -0.01 })
    expect(res.status).toBe(400)
    expect(res.body.detail.message).toContain('hourly cost must be >= 0')
    expect(await counts(h)).toEqual(before)
  })

  test('a missing field is 400 INVALID_INPUT naming it', async () => {
    const before = await counts(h)
    const res = await create({ username: 'noscope' })
    expect(res.status).toBe(400)
    expect(res.body.detail.code).toBe('INVALID_INPUT')
    expect(res.body.detail.message).toContain('scope')
    expect(await counts(h)).toEqual(before)
  })

  test('only admins create users', async () => {
    const prod = await quickUser(h, 'prod.user', 'production operator')
    const before = await counts(h)
    const res = await h.request('POST', '/api/user', { token: prod.token, body: { username: 'sneaky', scope: 'admin' } })
    expect(res.status).toBe(403)
    expect(res.body.detail.code).toBe('NOT_AUTHORISED')
    expect(await counts(h)).toEqual(before)
  })
})

describe('PATCH user/{key} preferences', () => {
  const h = useHarness()
  let admin: string
  let op: { key: string; token: string }
  let other: { key: string; token: string }
  beforeAll(async () => {
    admin = await adminToken(h)
    op = await quickUser(h, 'pref.op', 'operator')
    other = await quickUser(h, 'pref.other', 'operator')
  })

  const prefsOf = async (key: string) =>
    (await h.svc.db.selectFrom('users').select('preferences').where('id', '=', key).executeTakeFirstOrThrow()).preferences

  test('a user changes their own preferences; unchanged ones stay', async () => {
    const res = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { preferences: { theme: 'dark', locale: 'en' } } })
    expect(res.status).toBe(200)
    expect(res.body.detail._key).toBe(op.key)
    expect(await prefsOf(op.key)).toEqual({ theme: 'dark', locale: 'en', home_page: null })
    const again = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { preferences: { locale: 'it' } } })
    expect(again.status).toBe(200)
    expect(await prefsOf(op.key)).toEqual({ theme: 'dark', locale: 'it', home_page: null })
  })

  test("another user's preferences are refused for a non-admin (403), allowed for an admin", async () => {
    const before = await prefsOf(other.key)
    const events = await countOf(h, 'events')
    const res = await h.request('PATCH', `/api/user/${other.key}`, { token: op.token, body: { preferences: { theme: 'dark' } } })
    expect(res.status).toBe(403)
    expect(res.body.detail.code).toBe('NOT_AUTHORISED')
    expect(await prefsOf(other.key)).toEqual(before)
    expect(await countOf(h, 'events')).toBe(events)

    const ok = await h.request('PATCH', `/api/user/${other.key}`, { token: admin, body: { preferences: { theme: 'dark' } } })
    expect(ok.status).toBe(200)
    expect(await prefsOf(other.key)).toMatchObject({ theme: 'dark' })
  })

  test('a non-admin cannot change their own other fields', async () => {
    const res = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { scope: 'admin operator' } })
    expect(res.status).toBe(403)
    const row = await h.svc.db.selectFrom('users').select('scope').where('id', '=', op.key).executeTakeFirstOrThrow()
    expect(row.scope).toBe('operator')
  })

  test('a home page the scope does not allow is 422 NO_HOMEPAGE; an allowed one is saved', async () => {
    const refused = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { preferences: { home_page: 'adminPanel' } } })
    expect(refused.status).toBe(422)
    expect(refused.body.detail.code).toBe('NO_HOMEPAGE')
    expect(await prefsOf(op.key)).toMatchObject({ home_page: null })
    const ok = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { preferences: { home_page: 'operatorRoot' } } })
    expect(ok.status).toBe(200)
    expect(await prefsOf(op.key)).toMatchObject({ home_page: 'operatorRoot' })
    const reset = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { preferences: { home_page: null } } })
    expect(reset.status).toBe(200)
    expect(await prefsOf(op.key)).toMatchObject({ home_page: null })
  })

  test('bad preference values are 400 naming the field', async () => {
    for (const preferences of [{ theme: 'blue' }, { locale: 'fr' }, { home_page: 'nowhere' }]) {
      const res = await h.request('PATCH', `/api/user/${op.key}`, { token: op.token, body: { preferences } })
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('INVALID_INPUT')
      expect(res.body.detail.message).toContain(`preferences.${Object.keys(preferences)[0]}`)
    }
  })

  test('an unknown key is 404 WRONG_USER_ID', async () => {
    for (const key of [MISSING_UUID, 'not-a-user-key']) {
      const res = await h.request('PATCH', `/api/user/${key}`, { token: admin, body: { preferences: { theme: 'dark' } } })
      expect(res.status).toBe(404)
      expect(res.body.detail).toMatchObject({ code: 'WRONG_USER_ID', message: 'wrong user ID' })
    }
  })

  test('changes are recorded as USER_UPDATED events by the acting session', async () => {
    const res = await h.request('PATCH', `/api/user/${other.key}`, { token: admin, body: { name: 'Renamed' } })
    expect(res.status).toBe(200)
    const ev = await h.svc.db
      .selectFrom('events')
      .selectAll()
      .where('event_type', '=', 'USER_UPDATED')
      .where('subject_key', '=', other.key)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(ev.session_id).toBe(admin.split('.')[0]!)
    expect(ev.created_at.getTime()).toBe(h.clock.now().getTime())
  })
})

describe('GET user?active_only=', () => {
  const h = useHarness()

  test('active_only=true (and the default) leave archived users out; false lists them', async () => {
    const admin = await adminToken(h)
    const gone = await quickUser(h, 'gone.user', 'operator')
    await quickUser(h, 'here.user', 'operator')
    await h.svc.db.updateTable('users').set({ archived_at: h.clock.now() }).where('id', '=', gone.key).execute()
    const names = async (qs: string) => {
      const res = await h.request('GET', `/api/user${qs}`, { token: admin })
      expect(res.status).toBe(200)
      return (res.body.detail as { username: string; active: boolean }[]).map((u) => u.username)
    }
    for (const qs of ['', '?active_only=true', '?active_only=1']) {
      const list = await names(qs)
      expect(list).toContain('here.user')
      expect(list).toContain('admin')
      expect(list).not.toContain('gone.user')
    }
    for (const qs of ['?active_only=false', '?active_only=0']) {
      const list = await names(qs)
      expect(list).toContain('here.user')
      expect(list).toContain('gone.user')
    }
    const all = await h.request('GET', '/api/user?active_only=false', { token: admin })
    expect(all.body.detail.find((u: { username: string }) => u.username === 'gone.user').active).toBe(false)
    const bad = await h.request('GET', '/api/user?active_only=maybe', { token: admin })
    expect(bad.status).toBe(400)
    expect(bad.body.detail.message).toContain('active_only')
  })
})

describe('PUT user/{key}/image', () => {
  const h = useHarness()
  let admin: string
  let op: { key: string; token: string }
  beforeAll(async () => {
    admin = await adminToken(h)
    op = await quickUser(h, 'img.user', 'operator')
  })

  const upload = (token: string, key: string, bytes: Uint8Array<ArrayBuffer>, name = 'me.png', type = 'image/png') => {
    const form = new FormData()
    form.append('new_image', new File([bytes], name, { type }))
    return h.request('PUT', `/api/user/${key}/image`, { token, body: form })
  }
  const fileOnDisk = (url: string) => path.join(h.svc.config.dataDir, 'files', decodeURIComponent(url.slice('/media/'.length)))

  test('a real PNG is stored and served under /media to signed-in users only', async () => {
    const res = await upload(op.token, op.key, TINY_PNG)
    expect(res.status).toBe(200)
    const url: string = res.body.detail.image_url
    expect(url).toStartWith('/media/')
    const got = await h.app.request(`http://mes.test${url}`, { headers: { authorization: `Bearer ${op.token}` } })
    expect(got.status).toBe(200)
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(TINY_PNG)
    const anonymous = await h.app.request(`http://mes.test${url}`)
    expect(anonymous.status).toBe(401)
    const row = await h.request('GET', `/api/user/${op.key}`, { token: admin })
    expect(row.body.detail.image_url).toBe(url)
  })

  test('a text file renamed .png is 400 INVALID_IMAGE and changes nothing', async () => {
    const before = (await h.request('GET', `/api/user/${op.key}`, { token: admin })).body.detail.image_url
    const res = await upload(op.token, op.key, new TextEncoder().encode('just some text, not an image'), 'fake.png')
    expect(res.status).toBe(400)
    expect(res.body.detail.code).toBe('INVALID_IMAGE')
    expect((await h.request('GET', `/api/user/${op.key}`, { token: admin })).body.detail.image_url).toBe(before)
    const empty = await upload(op.token, op.key, new Uint8Array(), 'empty.png')
    expect(empty.status).toBe(400)
    expect(empty.body.detail.code).toBe('INVALID_IMAGE')
  })

  test('a missing or non-file field is 400, never a server error', async () => {
    const form = new FormData()
    form.append('new_image', 'not a file')
    const text = await h.request('PUT', `/api/user/${op.key}/image`, { token: op.token, body: form })
    expect(text.status).toBe(400)
    const none = await h.request('PUT', `/api/user/${op.key}/image`, { token: op.token, body: new FormData() })
    expect(none.status).toBe(400)
    const json = await h.request('PUT', `/api/user/${op.key}/image`, { token: op.token, body: { new_image: 'x' } })
    expect(json.status).toBe(400)
  })

  test('replacing the image deletes the previous file', async () => {
    const first = (await upload(op.token, op.key, TINY_PNG)).body.detail.image_url as string
    expect(existsSync(fileOnDisk(first))).toBe(true)
    h.clock.advance(1000)
    await Bun.sleep(2) // the stored name carries a timestamp
    const second = await upload(op.token, op.key, TINY_PNG)
    expect(second.status).toBe(200)
    const url = second.body.detail.image_url as string
    expect(url).not.toBe(first)
    expect(existsSync(fileOnDisk(url))).toBe(true)
    expect(existsSync(fileOnDisk(first))).toBe(false)
    const old = await h.app.request(`http://mes.test${first}`, { headers: { authorization: `Bearer ${op.token}` } })
    expect(old.status).toBe(404)
  })

  test("another user's image: refused for a non-admin, allowed for an admin", async () => {
    const victim = await quickUser(h, 'img.victim', 'operator')
    const refused = await upload(op.token, victim.key, TINY_PNG)
    expect(refused.status).toBe(403)
    const ok = await upload(admin, victim.key, TINY_PNG)
    expect(ok.status).toBe(200)
    expect(ok.body.detail.image_url).toStartWith('/media/')
    const unknown = await upload(admin, MISSING_UUID, TINY_PNG)
    expect(unknown.status).toBe(404)
    expect(unknown.body.detail.code).toBe('WRONG_USER_ID')
  })
})
