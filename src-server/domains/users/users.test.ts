import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'

// Every sign-in hashes or verifies an argon2id password: generous limits for busy machines.
setDefaultTimeout(60_000)

const MISSING_KEY = '00000000-0000-4000-8000-000000000000'

/** Row counts that must not move when a request is refused ("nothing written"). */
async function snapshotCounts(h: Harness) {
  const count = async (table: 'users' | 'events' | 'auth_sessions') =>
    Number((await h.svc.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  return { users: await count('users'), events: await count('events'), sessions: await count('auth_sessions') }
}

async function userRow(h: Harness, key: string) {
  return h.svc.db.selectFrom('users').selectAll().where('id', '=', key).executeTakeFirstOrThrow()
}

async function eventsFor(h: Harness, key: string) {
  return h.svc.db.selectFrom('events').selectAll().where('subject_key', '=', key).orderBy('id').execute()
}

async function createUser(h: Harness, admin: string, body: Record<string, unknown>) {
  const res = await h.request('POST', '/api/user', { token: admin, body })
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail as { _key: string; temp_psw: string }
}

describe('users: create and the SPEC rules', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })

  test('a new user gets a temporary password that must be replaced at first sign-in', async () => {
    const res = await h.request('POST', '/api/user', {
      token: admin,
      body: { username: 'mrossi', name: 'Marco', surname: 'Rossi', email: 'm.rossi@example.com', hourly_cost: 28.5, scope: 'operator' },
    })
    expect(res.status).toBe(201)
    const { _key, temp_psw } = res.body.detail
    expect(temp_psw).toMatch(/^[A-Za-z0-9]{12}$/)
    const user = await userRow(h, _key)
    expect(user.must_change_password).toBe(true)
    expect(user.password_hash).not.toContain(temp_psw)
    const got = await h.request('GET', `/api/user/${_key}`, { token: admin })
    expect(got.body.detail).toMatchObject({
      username: 'mrossi',
      name: 'Marco',
      surname: 'Rossi',
      email: 'm.rossi@example.com',
      hourly_cost: 28.5,
      scope: 'operator',
      enabled: true,
      active: true,
      logged_in: false,
      last_login: null,
      department_key: null,
      department_name: null,
      created_at: h.clock.now().getTime(),
    })
    const login = await h.request('POST', '/api/login', { body: { username: 'mrossi', password: temp_psw } })
    expect(login.body.detail.must_change_password).toBe(true)
    const blocked = await h.request('GET', '/api/user?scope=operator', { token: login.body.detail.token })
    expect(blocked.body.detail.code).toBe('PASSWORD_CHANGE_REQUIRED')
    const events = await eventsFor(h, _key)
    expect(events.map((e) => e.event_type)).toEqual(['USER_CREATED', 'LOGIN'])
  })

  test('username required, unique ignoring case; a permission needed; hourly cost >= 0; nothing written on failure', async () => {
    const before = await snapshotCounts(h)
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ username: '', scope: 'operator' }, 400, 'USERNAME_REQUIRED', 'username required'],
      [{ username: '   ', scope: 'operator' }, 400, 'USERNAME_REQUIRED', 'username required'],
      [{ username: 'MRossi', scope: 'operator' }, 409, 'USERNAME_TAKEN', 'username already in use'],
      [{ username: 'nuovo', scope: '' }, 400, 'PERMISSION_REQUIRED', 'check at least a permission'],
      [{ username: 'nuovo', scope: 'superuser nobody' }, 400, 'UNKNOWN_PERMISSION', '"superuser", "nobody" are not permissions: the permissions (SPEC 6 scopes) are admin, library, operator, production, quality, traceability, reporting, warehouse, audit'],
      // A typo next to a real word is refused too, never dropped.
      [{ username: 'nuovo', scope: 'operator qualty' }, 400, 'UNKNOWN_PERMISSION', '"qualty" is not a permission: the permissions (SPEC 6 scopes) are admin, library, operator, production, quality, traceability, reporting, warehouse, audit'],
      [{ username: 'nuovo', scope: 'operator', hourly_cost: -0.01 }, 400, 'HOURLY_COST_NEGATIVE', 'hourly cost must be >= 0'],
      [{ username: 'nuovo', scope: 'operator', department_key: MISSING_KEY }, 422, 'WRONG_DEPARTMENT_KEY', 'wrong department key'],
      [{ username: 'nuovo', scope: 'operator', email: 'not-an-address' }, 400, 'INVALID_INPUT', 'email: invalid email address'],
    ]
    for (const [body, status, code, message] of cases) {
      const res = await h.request('POST', '/api/user', { token: admin, body })
      expect({ body, status: res.status, code: res.body.detail.code, message: res.body.detail.message }).toEqual({ body, status, code, message })
    }
    expect(await snapshotCounts(h)).toEqual(before)
  })

  test('tRPC create answers the same codes', async () => {
    const res = await h.request('POST', '/api/trpc/users.create', { token: admin, body: { username: 'mrossi', scope: 'operator' } })
    expect(res.status).toBe(409)
    expect(res.body.error.data.appCode).toBe('USERNAME_TAKEN')
    expect(res.body.error.message).toBe('username already in use')
  })

  test('a department must exist; the row names it', async () => {
    const dep = await h.svc.db.insertInto('departments').values({ code: 'ASM', name: 'Assemblaggio' }).returning('id').executeTakeFirstOrThrow()
    const { _key } = await createUser(h, admin, { username: 'conreparto', scope: 'operator', department_key: dep.id })
    const got = await h.request('GET', `/api/user/${_key}`, { token: admin })
    expect(got.body.detail).toMatchObject({ department_key: dep.id, department_name: 'Assemblaggio' })
    const cleared = await h.request('PATCH', `/api/user/${_key}`, { token: admin, body: { department_key: null } })
    expect(cleared.body.detail).toMatchObject({ department_key: null, department_name: null })
    const wrong = await h.request('PATCH', `/api/user/${_key}`, { token: admin, body: { department_key: MISSING_KEY } })
    expect(wrong.status).toBe(422)
    expect(wrong.body.detail.code).toBe('WRONG_DEPARTMENT_KEY')
  })

  test('a wrong user key is rejected everywhere with "wrong user ID", never a server error', async () => {
    for (const key of ['not-a-uuid', MISSING_KEY]) {
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/user/${key}`],
        ['PATCH', `/api/user/${key}`, { name: 'x' }],
        ['POST', `/api/user/${key}/archive`],
        ['POST', `/api/user/${key}/restore`],
        ['POST', `/api/user/${key}/reset-password`],
      ]
      for (const [method, path, body] of calls) {
        const res = await h.request(method, path, { token: admin, body })
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: { detail: { code: 'WRONG_USER_ID', message: 'wrong user ID' } },
        })
      }
      const form = new FormData()
      form.set('new_image', new File([PNG_1X1], 'a.png'))
      const image = await h.request('PUT', `/api/user/${key}/image`, { token: admin, body: form })
      expect(image.status).toBe(404)
      expect(image.body.detail.code).toBe('WRONG_USER_ID')
      const trpc = await h.request('GET', `/api/trpc/users.get?input=${encodeURIComponent(JSON.stringify({ key }))}`, { token: admin })
      expect(trpc.status).toBe(404)
      expect(trpc.body.error.data.appCode).toBe('WRONG_USER_ID')
    }
  })
})

describe('users: update (PATCH semantics) and self-protection', () => {
  const h = useHarness()
  let admin: string
  let adminKey: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    adminKey = (await h.request('GET', '/api/whoami', { token: admin })).body.detail.user_key
  })

  test('only the fields sent change; the event lists each change with old and new value', async () => {
    const { _key } = await createUser(h, admin, { username: 'gbianchi', name: 'Giulia', surname: 'Bianchi', email: 'g@example.com', hourly_cost: 20, scope: 'operator' })
    const res = await h.request('PATCH', `/api/user/${_key}`, { token: admin, body: { surname: 'Bianchini', hourly_cost: 22.25 } })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ username: 'gbianchi', name: 'Giulia', surname: 'Bianchini', email: 'g@example.com', hourly_cost: 22.25, scope: 'operator' })
    const events = await eventsFor(h, _key)
    const updated = events.at(-1)!
    expect(updated.event_type).toBe('USER_UPDATED')
    expect(updated.data).toEqual({
      changed: ['surname', 'hourly_cost'],
      changes: { surname: { from: 'Bianchi', to: 'Bianchini' }, hourly_cost: { from: 20, to: 22.25 } },
    })
    expect(updated.user_id).toBe(adminKey)
    // Sending the current values changes nothing and records nothing.
    const before = await snapshotCounts(h)
    const same = await h.request('PATCH', `/api/user/${_key}`, { token: admin, body: { surname: 'Bianchini', scope: 'operator' } })
    expect(same.status).toBe(200)
    expect(await snapshotCounts(h)).toEqual(before)
  })

  test('renaming to a taken username, a negative cost or no permission is refused and writes nothing', async () => {
    const a = await createUser(h, admin, { username: 'utente_a', scope: 'operator' })
    await createUser(h, admin, { username: 'utente_b', scope: 'operator' })
    const before = await snapshotCounts(h)
    const rowBefore = await userRow(h, a._key)
    const cases: [Record<string, unknown>, number, string][] = [
      [{ username: 'UTENTE_B', name: 'changed' }, 409, 'USERNAME_TAKEN'],
      [{ username: ' ', name: 'changed' }, 400, 'USERNAME_REQUIRED'],
      [{ scope: '', name: 'changed' }, 400, 'PERMISSION_REQUIRED'],
      [{ hourly_cost: -5, name: 'changed' }, 400, 'HOURLY_COST_NEGATIVE'],
      [{ hourly_cost: 'ten' }, 400, 'INVALID_INPUT'],
    ]
    for (const [body, status, code] of cases) {
      const res = await h.request('PATCH', `/api/user/${a._key}`, { token: admin, body })
      expect({ body, status: res.status, code: res.body.detail.code }).toEqual({ body, status, code })
    }
    expect(await snapshotCounts(h)).toEqual(before)
    expect(await userRow(h, a._key)).toEqual(rowBefore)
  })

  test('only admins change other fields; anyone may change their own preferences', async () => {
    const prod = await userWithScope(h, 'prod1', 'production')
    const other = await createUser(h, admin, { username: 'altro', scope: 'operator' })
    const own = await h.request('PATCH', `/api/user/${prod.key}`, { token: prod.token, body: { preferences: { theme: 'dark' } } })
    expect(own.status).toBe(200)
    const ownName = await h.request('PATCH', `/api/user/${prod.key}`, { token: prod.token, body: { name: 'Me' } })
    expect(ownName.status).toBe(403)
    const theirs = await h.request('PATCH', `/api/user/${other._key}`, { token: prod.token, body: { name: 'X' } })
    expect(theirs.status).toBe(403)
    for (const path of [`/api/user/${other._key}/archive`, `/api/user/${other._key}/restore`, `/api/user/${other._key}/reset-password`]) {
      const res = await h.request('POST', path, { token: prod.token })
      expect({ path, status: res.status }).toEqual({ path, status: 403 })
    }
    expect((await h.request('GET', '/api/user-page', { token: prod.token })).status).toBe(403)
  })

  test('disabling a user ends their sessions and blocks sign-in; enabling lets them in again', async () => {
    const op = await userWithScope(h, 'op_disable', 'operator')
    const res = await h.request('PATCH', `/api/user/${op.key}`, { token: admin, body: { enabled: false } })
    expect(res.body.detail).toMatchObject({ enabled: false, logged_in: false })
    expect((await h.request('GET', '/api/whoami', { token: op.token })).status).toBe(401)
    const login = await h.request('POST', '/api/login', { body: { username: 'op_disable', password: 'password-123' } })
    expect(login.status).toBe(401)
    await h.request('PATCH', `/api/user/${op.key}`, { token: admin, body: { enabled: true } })
    expect((await h.request('POST', '/api/login', { body: { username: 'op_disable', password: 'password-123' } })).status).toBe(200)
  })

  test('an admin cannot disable, archive or reset themselves, nor remove their own admin permission', async () => {
    const before = await snapshotCounts(h)
    const cases: [string, string, unknown, string, string][] = [
      ['PATCH', `/api/user/${adminKey}`, { enabled: false }, 'CANNOT_DISABLE_SELF', 'you cannot disable yourself'],
      ['PATCH', `/api/user/${adminKey}`, { scope: 'operator production' }, 'CANNOT_REMOVE_OWN_ADMIN', 'you cannot remove your own admin permission'],
      ['PATCH', `/api/user/${adminKey}`, { name: 'Boss', scope: 'production' }, 'CANNOT_REMOVE_OWN_ADMIN', 'you cannot remove your own admin permission'],
      ['POST', `/api/user/${adminKey}/archive`, undefined, 'CANNOT_ARCHIVE_SELF', 'you cannot delete yourself'],
      ['POST', `/api/user/${adminKey}/reset-password`, undefined, 'CANNOT_RESET_OWN_PASSWORD', 'you cannot reset your own password: change it instead'],
    ]
    for (const [method, path, body, code, message] of cases) {
      const res = await h.request(method, path, { token: admin, body })
      expect({ path, body, status: res.status, detail: res.body.detail }).toEqual({ path, body, status: 422, detail: { code, message } })
    }
    expect(await snapshotCounts(h)).toEqual(before)
    expect((await h.request('GET', '/api/whoami', { token: admin })).status).toBe(200)
    // Keeping admin while changing the other permissions is fine.
    const ok = await h.request('PATCH', `/api/user/${adminKey}`, { token: admin, body: { scope: 'admin production' } })
    expect(ok.body.detail.scope).toBe('admin production')
    // Another admin may take the permission away.
    const second = await userWithScope(h, 'admin2', 'admin')
    const demoted = await h.request('PATCH', `/api/user/${second.key}`, { token: admin, body: { scope: 'production' } })
    expect(demoted.body.detail.scope).toBe('production')
  })

  test('the image is checked by its bytes and shown through image_url', async () => {
    const { _key } = await createUser(h, admin, { username: 'conimmagine', scope: 'operator' })
    const bad = new FormData()
    bad.set('new_image', new File(['not an image'], 'x.png', { type: 'image/png' }))
    const refused = await h.request('PUT', `/api/user/${_key}/image`, { token: admin, body: bad })
    expect(refused.status).toBe(400)
    expect(refused.body.detail.code).toBe('INVALID_IMAGE')
    const form = new FormData()
    form.set('new_image', new File([PNG_1X1], 'x.png'))
    const res = await h.request('PUT', `/api/user/${_key}/image`, { token: admin, body: form })
    expect(res.status).toBe(200)
    expect(res.body.detail.image_url).toMatch(new RegExp(`^/media/users/${_key}/image-\\d+\\.png$`))
    const media = await h.app.request(`http://mes.test${res.body.detail.image_url}`, { headers: { authorization: `Bearer ${admin}` } })
    expect(media.status).toBe(200)
  })
})

describe('users: archive, restore, reset password', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })

  test('archive hides the user from lists, ends sessions and blocks sign-in; restore brings them back', async () => {
    const op = await userWithScope(h, 'archiviato', 'operator')
    const listed = async (path: string) => ((await h.request('GET', path, { token: admin })).body.detail as any[]).some((u) => u._key === op.key)
    const pageListed = async (query: string) =>
      ((await h.request('GET', `/api/user-page?${query}`, { token: admin })).body.detail.rows as any[]).some((u) => u._key === op.key)
    expect(await listed('/api/user')).toBe(true)

    const res = await h.request('POST', `/api/user/${op.key}/archive`, { token: admin })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject({ active: false, logged_in: false })
    expect(await listed('/api/user')).toBe(false)
    expect(await listed('/api/user?active_only=true')).toBe(false)
    expect(await listed('/api/user?scope=operator')).toBe(false)
    expect(await listed('/api/user?archived=false')).toBe(false)
    expect(await listed('/api/user?archived=true')).toBe(true)
    expect(await pageListed('archived=false')).toBe(false)
    expect(await pageListed('archived=true')).toBe(true)
    // The data stays and can still be read by key (traceability and reports name the user).
    expect((await h.request('GET', `/api/user/${op.key}`, { token: admin })).body.detail.username).toBe('archiviato')
    expect((await h.request('GET', '/api/whoami', { token: op.token })).status).toBe(401)
    const login = await h.request('POST', '/api/login', { body: { username: 'archiviato', password: 'password-123' } })
    expect(login.status).toBe(401)
    expect(login.body.detail.message).toBe('Incorrect username or password')

    // Archiving again changes nothing.
    const before = await snapshotCounts(h)
    expect((await h.request('POST', `/api/user/${op.key}/archive`, { token: admin })).status).toBe(200)
    expect(await snapshotCounts(h)).toEqual(before)

    const restored = await h.request('POST', `/api/user/${op.key}/restore`, { token: admin })
    expect(restored.body.detail.active).toBe(true)
    expect(await listed('/api/user?scope=operator')).toBe(true)
    expect((await h.request('POST', '/api/login', { body: { username: 'archiviato', password: 'password-123' } })).status).toBe(200)
    const types = (await eventsFor(h, op.key)).map((e) => e.event_type)
    expect(types.filter((t) => t.startsWith('USER_'))).toEqual(['USER_CREATED', 'USER_ARCHIVED', 'USER_RESTORED'])
  })

  test('a username kept by an archived user: 409 USERNAME_ARCHIVED naming that user, who can be restored', async () => {
    const gone = await userWithScope(h, 'partito', 'operator')
    expect((await h.request('POST', `/api/user/${gone.key}/archive`, { token: admin })).status).toBe(200)
    const other = await userWithScope(h, 'rimasto', 'operator')
    const before = await snapshotCounts(h)
    for (const [method, path, body] of [
      ['POST', '/api/user', { username: 'Partito', scope: 'operator' }],
      ['PATCH', `/api/user/${other.key}`, { username: 'partito' }],
    ] as const) {
      const res = await h.request(method, path, { token: admin, body })
      expect({ status: res.status, detail: res.body.detail }).toEqual({
        status: 409,
        detail: {
          code: 'USERNAME_ARCHIVED',
          message: `username belongs to an archived user: restore that user (POST user/${gone.key}/restore) instead`,
          user_key: gone.key,
        },
      })
    }
    const trpc = await h.request('POST', '/api/trpc/users.create', { token: admin, body: { username: 'partito', scope: 'operator' } })
    expect({ status: trpc.status, code: trpc.body.error.data.appCode }).toEqual({ status: 409, code: 'USERNAME_ARCHIVED' })
    expect(await snapshotCounts(h)).toEqual(before)
    // Restored, the user has the username back as before.
    expect((await h.request('POST', `/api/user/${gone.key}/restore`, { token: admin })).status).toBe(200)
    expect((await h.request('POST', '/api/user', { token: admin, body: { username: 'partito', scope: 'operator' } })).body.detail.code).toBe('USERNAME_TAKEN')
  })

  test('tRPC archive and restore do the same', async () => {
    const { _key } = await createUser(h, admin, { username: 'trpc_archive', scope: 'quality' })
    const archived = await h.request('POST', '/api/trpc/users.archive', { token: admin, body: { key: _key } })
    expect(archived.body.result.data.active).toBe(false)
    const restored = await h.request('POST', '/api/trpc/users.restore', { token: admin, body: { key: _key } })
    expect(restored.body.result.data.active).toBe(true)
  })

  test('reset password: a new temporary password once, sessions ended, change forced', async () => {
    const op = await userWithScope(h, 'reimposta', 'operator')
    const res = await h.request('POST', `/api/user/${op.key}/reset-password`, { token: admin })
    expect(res.status).toBe(200)
    const temp = res.body.detail.temp_psw as string
    expect(res.body.detail._key).toBe(op.key)
    expect(temp).toMatch(/^[A-Za-z0-9]{12}$/)
    expect((await h.request('GET', '/api/whoami', { token: op.token })).status).toBe(401)
    expect((await h.request('POST', '/api/login', { body: { username: 'reimposta', password: 'password-123' } })).status).toBe(401)
    const login = await h.request('POST', '/api/login', { body: { username: 'reimposta', password: temp } })
    expect(login.status).toBe(200)
    expect(login.body.detail.must_change_password).toBe(true)
    const forced = await h.request('GET', '/api/user?scope=operator', { token: login.body.detail.token })
    expect(forced.body.detail.code).toBe('PASSWORD_CHANGE_REQUIRED')
    const events = await eventsFor(h, op.key)
    expect(events.some((e) => e.event_type === 'USER_PASSWORD_RESET')).toBe(true)
    // The password is never stored or logged in the clear.
    expect(JSON.stringify(events)).not.toContain(temp)
    const trpc = await h.request('POST', '/api/trpc/users.resetPassword', { token: admin, body: { key: op.key } })
    expect(trpc.body.result.data.temp_psw).toMatch(/^[A-Za-z0-9]{12}$/)
  })
})

describe('users: the library list (search, sort, paging, filters)', () => {
  const h = useHarness()
  let admin: string
  const people = [
    { username: 'arossi', name: 'Anna', surname: 'Rossi', email: 'anna@plant.it', scope: 'operator' },
    { username: 'bverdi', name: 'bruno', surname: 'Verdi', email: 'bruno@plant.it', scope: 'operator production' },
    { username: 'cbianchi', name: 'Carla', surname: 'bianchi', email: null, scope: 'quality' },
    { username: 'dneri', name: 'Dario', surname: 'Neri', email: 'dario@plant.it', scope: 'warehouse' },
    { username: 'e_100', name: 'Elena', surname: 'Rossini', email: 'elena@plant.it', scope: 'operator' },
  ]
  const keys: Record<string, string> = {}
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    for (const p of people) {
      h.clock.advance(60_000)
      keys[p.username] = (await createUser(h, admin, p))._key
    }
    // Two users have signed in, at different times; bverdi is disabled, dneri archived.
    h.clock.advance(60_000)
    await signIn(h, 'cbianchi', (await h.request('POST', `/api/user/${keys.cbianchi}/reset-password`, { token: admin })).body.detail.temp_psw)
    h.clock.advance(60_000)
    await signIn(h, 'arossi', (await h.request('POST', `/api/user/${keys.arossi}/reset-password`, { token: admin })).body.detail.temp_psw)
    await h.request('PATCH', `/api/user/${keys.bverdi}`, { token: admin, body: { enabled: false } })
    await h.request('POST', `/api/user/${keys.dneri}/archive`, { token: admin })
  })

  const page = async (query: string) => {
    const res = await h.request('GET', `/api/user-page?${query}`, { token: admin })
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.detail as { rows: { username: string }[]; total: number }
  }
  const names = async (query: string) => (await page(query)).rows.map((r) => r.username)

  test('search matches username, name, surname and email, ignoring case; every word must match', async () => {
    expect(await names('search=ROSS')).toEqual(['arossi', 'e_100'])
    expect(await names('search=bruno')).toEqual(['bverdi'])
    expect(await names('search=BIANCHI')).toEqual(['cbianchi'])
    expect(await names('search=dario%40plant')).toEqual(['dneri'])
    expect(await names('search=anna%20rossi')).toEqual(['arossi'])
    expect(await names('search=rossi%20elena')).toEqual(['e_100'])
    expect(await names('search=nobody')).toEqual([])
    // Wildcards typed by the user are plain characters.
    expect(await names('search=%25')).toEqual([])
    expect(await names('search=e_1')).toEqual(['e_100'])
    expect(await names('search=a_r')).toEqual([])
  })

  test('sort by each column, both directions', async () => {
    const five = 'archived=false&search=plant.it'
    expect(await names(`${five}&sort=username`)).toEqual(['arossi', 'bverdi', 'e_100'])
    expect(await names(`${five}&sort=username&dir=desc`)).toEqual(['e_100', 'bverdi', 'arossi'])
    expect(await names('sort=name&search=r')).toEqual(['arossi', 'bverdi', 'cbianchi', 'dneri', 'e_100'])
    expect(await names('sort=surname&dir=asc&search=r')).toEqual(['cbianchi', 'dneri', 'arossi', 'e_100', 'bverdi'])
    expect(await names('sort=surname&dir=desc&search=r')).toEqual(['bverdi', 'e_100', 'arossi', 'dneri', 'cbianchi'])
    expect(await names('sort=created_at&dir=desc&archived=false&scope=operator')).toEqual(['e_100', 'bverdi', 'arossi', 'admin'])
    // Never signed in: last in both directions.
    expect(await names('sort=last_login&dir=desc&search=r')).toEqual(['arossi', 'cbianchi', 'bverdi', 'dneri', 'e_100'])
    expect(await names('sort=last_login&dir=asc&search=r')).toEqual(['cbianchi', 'arossi', 'bverdi', 'dneri', 'e_100'])
  })

  test('filters: archived, enabled, permission', async () => {
    expect(await names('archived=true')).toEqual(['dneri'])
    expect(await names('archived=false&enabled=false')).toEqual(['bverdi'])
    expect(await names('enabled=true&archived=false&search=plant')).toEqual(['arossi', 'e_100'])
    // admin holds every permission.
    expect(await names('scope=operator')).toEqual(['admin', 'arossi', 'bverdi', 'e_100'])
    expect(await names('scope=quality&archived=false')).toEqual(['admin', 'cbianchi'])
    expect(await names('scope=production')).toEqual(['admin', 'bverdi'])
    // The plain list: active_only (default) = can sign in.
    const list = async (q: string) => ((await h.request('GET', `/api/user?${q}`, { token: admin })).body.detail as any[]).map((u) => u.username)
    expect(await list('scope=operator')).toEqual(['admin', 'arossi', 'e_100'])
    expect(await list('scope=operator&active_only=false')).toEqual(['admin', 'arossi', 'bverdi', 'e_100'])
    expect(await list('enabled=false')).toEqual(['bverdi'])
    expect(await list('archived=true')).toEqual(['dneri'])
    expect(await list('active_only=true&archived=true')).toEqual([])
    expect(await list('search=rossi&sort=username&dir=desc')).toEqual(['e_100', 'arossi'])
  })

  test('paging: pages never overlap, total counts every match', async () => {
    const all = await names('page_size=100')
    expect(all).toHaveLength(6)
    const seen: string[] = []
    for (let p = 1; p <= 3; p++) {
      const res = await page(`page=${p}&page_size=2`)
      expect(res.total).toBe(6)
      expect(res.rows.length).toBe(2)
      seen.push(...res.rows.map((r) => r.username))
    }
    expect(seen).toEqual(all)
    expect(await page('page=4&page_size=2')).toEqual({ rows: [], total: 6 })
    expect((await page('scope=warehouse&page_size=1')).total).toBe(2)
  })

  test('rows carry the logged-in state and last login', async () => {
    const rows = (await page('search=rossi')).rows as any[]
    const anna = rows.find((r) => r.username === 'arossi')
    expect(anna.logged_in).toBe(true)
    expect(anna.last_login).toBe(h.clock.now().getTime())
    expect(rows.find((r) => r.username === 'e_100').logged_in).toBe(false)
  })

  test('bad list parameters are a 400 naming the parameter', async () => {
    for (const q of ['page_size=101', 'page_size=0', 'page=0', 'sort=password_hash', 'dir=up', 'archived=maybe', 'scope=root']) {
      const res = await h.request('GET', `/api/user-page?${q}`, { token: admin })
      expect({ q, status: res.status, code: res.body.detail.code }).toEqual({ q, status: 400, code: 'INVALID_INPUT' })
      expect(res.body.detail.message).toContain(q.split('=')[0])
    }
    const trpc = await h.request('GET', `/api/trpc/users.page?input=${encodeURIComponent(JSON.stringify({ page_size: 500 }))}`, { token: admin })
    expect(trpc.status).toBe(400)
  })

  test('tRPC page and list answer like REST; production reads the operator list', async () => {
    const res = await h.request('GET', `/api/trpc/users.page?input=${encodeURIComponent(JSON.stringify({ search: 'rossi', sort: 'surname', dir: 'desc' }))}`, {
      token: admin,
    })
    expect(res.body.result.data.rows.map((r: any) => r.username)).toEqual(['e_100', 'arossi'])
    expect(res.body.result.data.total).toBe(2)
    const prod = await userWithScope(h, 'lettore', 'production')
    const operators = await h.request('GET', `/api/trpc/users.list?input=${encodeURIComponent(JSON.stringify({ scope: 'operator' }))}`, { token: prod.token })
    expect(operators.body.result.data.map((r: any) => r.username)).toEqual(['admin', 'arossi', 'e_100'])
    const rest = await h.request('GET', '/api/user?scope=operator', { token: prod.token })
    expect(rest.body.detail.map((r: any) => r.username)).toEqual(['admin', 'arossi', 'e_100'])
  })
})

describe('users: OpenAPI', () => {
  const h = useHarness()

  test('documents the list parameters and the archive, restore and reset-password paths', async () => {
    const doc = (await h.request('GET', '/api/openapi.json')).body
    const params = (path: string) => (doc.paths[path].get.parameters as { name: string }[]).map((p) => p.name).sort()
    expect(params('/user')).toEqual(['active_only', 'archived', 'dir', 'enabled', 'scope', 'search', 'sort'])
    expect(params('/user-page')).toEqual(['archived', 'dir', 'enabled', 'page', 'page_size', 'scope', 'search', 'sort'])
    for (const path of ['/user/{key}/archive', '/user/{key}/restore', '/user/{key}/reset-password']) {
      expect(doc.paths[path].post.description).toBe('Needs permission: admin.')
    }
    expect(doc.paths['/user-page'].get.responses['200'].content['application/json'].schema.properties.detail.required).toEqual(['rows', 'total'])
    expect(doc.paths['/user/{key}/reset-password'].post.responses['200'].content['application/json'].schema.properties.detail.properties).toHaveProperty('temp_psw')
  })
})

/** A real 1x1 PNG. */
const PNG_1X1 = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)
