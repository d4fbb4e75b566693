import { beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'

const DAY = 24 * 3_600_000
const tokenRows = (h: Harness) => h.svc.db.selectFrom('api_tokens').selectAll().orderBy('id').execute()
const eventsOf = (h: Harness, type: string) =>
  h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id').execute()

describe('API tokens', () => {
  const h = useHarness()
  let admin: string
  let adminKey: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    adminKey = (await h.request('GET', '/api/whoami', { token: admin })).body.detail.user_key
  })

  const create = (body: unknown, token = admin) => h.request('POST', '/api/api-token', { token, body })
  const inDays = (n: number) => h.clock.now().getTime() + n * DAY

  test('created token works as Bearer with exactly its permissions; it is shown once and stored hashed', async () => {
    const res = await create({ description: ' Line 3 PLC ', expiration: inDays(30), scope: 'production  quality' })
    expect(res.status).toBe(201)
    const detail = res.body.detail
    expect(detail.token).toMatch(/^mes_[a-z0-9]+\.[a-z0-9]{52}$/)
    expect(detail).toMatchObject({
      description: 'Line 3 PLC',
      scope: 'production quality',
      expiration: inDays(30),
      created_by: adminKey,
      created_by_username: 'admin',
      revoked_at: null,
      last_used: null,
      status: 'active',
    })
    expect(detail._key).toBe(detail.token.split('.')[0])

    // Stored hashed: the secret appears nowhere in the row.
    const [row] = await tokenRows(h)
    const secret = detail.token.split('.')[1]
    expect(JSON.stringify(row)).not.toContain(secret)
    expect(row?.secret_hash.byteLength).toBe(32)

    const who = await h.request('GET', '/api/whoami', { token: detail.token })
    expect(who.status).toBe(200)
    expect(who.body.detail).toEqual({ user_key: adminKey, session_key: null, locked: false })
    // production lets it list users; admin-only paths are refused although its creator is admin.
    expect((await h.request('GET', '/api/user', { token: detail.token })).status).toBe(200)
    expect((await h.request('GET', '/api/api-token', { token: detail.token })).status).toBe(403)
    expect((await h.request('PATCH', '/api/settings', { token: detail.token, body: { company_name: 'x' } })).status).toBe(403)
    expect((await h.request('GET', '/api/settings/default-phase', { token: detail.token })).status).toBe(403)

    // The list never shows the token again, and records its use.
    const list = await h.request('GET', '/api/api-token', { token: admin })
    expect(list.status).toBe(200)
    expect(JSON.stringify(list.body)).not.toContain(secret)
    expect(list.body.detail[0].last_used).toBe(h.clock.now().getTime())

    const [event] = await eventsOf(h, 'API_TOKEN_CREATED')
    expect(event?.subject_key).toBe(detail._key)
    expect(event?.data).toEqual({ description: 'Line 3 PLC', scope: 'production quality', expiration: inDays(30) })
    expect(JSON.stringify(event)).not.toContain(secret)
  })

  test('description, expiration and a permission are required; the expiration must be in the future; nothing written', async () => {
    const before = await tokenRows(h)
    const events = (await eventsOf(h, 'API_TOKEN_CREATED')).length
    const cases: [unknown, number, string][] = [
      [{ expiration: inDays(1), scope: 'admin' }, 400, 'API_TOKEN_DESCRIPTION_REQUIRED'],
      [{ description: '   ', expiration: inDays(1), scope: 'admin' }, 400, 'API_TOKEN_DESCRIPTION_REQUIRED'],
      [{ description: 'x', scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_REQUIRED'],
      [{ description: 'x', expiration: null, scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_REQUIRED'],
      [{ description: 'x', expiration: h.clock.now().getTime(), scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_PAST'],
      [{ description: 'x', expiration: inDays(-1), scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_PAST'],
      [{ description: 'x', expiration: inDays(1) }, 400, 'PERMISSION_REQUIRED'],
      [{ description: 'x', expiration: inDays(1), scope: '  ' }, 400, 'PERMISSION_REQUIRED'],
      [{ description: 'x', expiration: inDays(1), scope: 'admin root' }, 400, 'UNKNOWN_PERMISSION'],
      [{ description: 'x', expiration: inDays(3000), scope: 'admin' }, 400, 'INVALID_INPUT'],
      [{ description: 'x', expiration: '6y', scope: 'admin' }, 400, 'INVALID_INPUT'],
      [{ description: 'x', expiration: 'tomorrow', scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_INVALID'],
      [{ description: 'x', expiration: '2026/02/30', scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_INVALID'],
      [{ description: 'x', expiration: '30 days', scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_INVALID'],
      [{ description: 'x', expiration: 1.5, scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_INVALID'],
      [{ description: 'x', expiration: '  ', scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_REQUIRED'],
      [{ description: 'x', expiration: '1999/12/01', scope: 'admin' }, 400, 'API_TOKEN_EXPIRATION_PAST'],
      [{ description: 'x', expiration: true, scope: 'admin' }, 400, 'INVALID_INPUT'],
      [{ description: 'x'.repeat(201), expiration: inDays(1), scope: 'admin' }, 400, 'INVALID_INPUT'],
    ]
    for (const [body, status, code] of cases) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(res.body.detail.code, JSON.stringify(body)).toBe(code)
    }
    const message = (await create({ expiration: inDays(1), scope: 'admin' })).body.detail.message
    expect(message).toBe('API token needs a description')
    expect((await create({ description: 'x', expiration: 'tomorrow', scope: 'admin' })).body.detail.message).toBe(
      'expiration: "tomorrow" is not a date (YYYY/MM/DD or YYYY-MM-DD), an ISO 8601 instant, UTC milliseconds, or a duration such as 30s, 10min, 3h, 2d, 1w, 1m (30 days), 1y (360 days)',
    )
    expect((await create({ description: 'x', expiration: '2026/02/30', scope: 'admin' })).body.detail.message).toBe(
      'expiration: 2026/02/30 is not a calendar date: February 2026 has 28 days',
    )
    expect((await create({ description: 'x', expiration: inDays(1), scope: 'admin root' })).body.detail).toMatchObject({
      message: '"root" is not a permission: the permissions (SPEC 6 scopes) are admin, library, operator, production, quality, traceability, reporting, warehouse, audit',
      unknown: ['root'],
    })
    expect(await tokenRows(h)).toEqual(before)
    expect((await eventsOf(h, 'API_TOKEN_CREATED')).length).toBe(events)
  })

  test('expiration as a SPEC 5 duration (m = month of 30 days, y = year of 360 days), a date through its last millisecond, or an ISO instant', async () => {
    const now = h.clock.now().getTime()
    const endOfDay = (y: number, m: number, d: number) => new Date(y, m - 1, d, 23, 59, 59, 999).getTime()
    const cases: [unknown, number][] = [
      ['30s', now + 30_000],
      ['10min', now + 10 * 60_000],
      ['3h', now + 3 * 3_600_000],
      ['2d', now + 2 * DAY],
      ['1w', now + 7 * DAY],
      ['1m', now + 30 * DAY],
      ['1y', now + 360 * DAY],
      [' 12 h ', now + 12 * 3_600_000],
      ['2099/12/31', 0],
      ['2030-01-15', endOfDay(2030, 1, 15)],
      ['2030/01/15', endOfDay(2030, 1, 15)],
      ['2030-01-15T08:30:00Z', Date.UTC(2030, 0, 15, 8, 30)],
      ['2030-01-15T08:30:00+02:00', Date.UTC(2030, 0, 15, 6, 30)],
      [now + DAY, now + DAY],
    ]
    for (const [expiration, at] of cases) {
      const res = await create({ description: `scade ${expiration}`, expiration, scope: 'reporting' })
      if (at === 0) {
        // Beyond the 5 years a token may live.
        expect({ expiration, status: res.status, code: res.body.detail.code }).toEqual({ expiration, status: 400, code: 'INVALID_INPUT' })
        continue
      }
      expect({ expiration, status: res.status, at: res.body.detail.expiration }).toEqual({ expiration, status: 201, at })
    }
    // tRPC (the admin screen) takes the same forms.
    const trpc = await h.request('POST', '/api/trpc/apiTokens.create', { token: admin, body: { description: 'via trpc 1m', expiration: '1m', scope: 'reporting' } })
    expect(trpc.body.result.data.expiration).toBe(now + 30 * DAY)
  })

  test('a revoked token answers 401 at once; revoking twice changes nothing', async () => {
    const { token, _key } = (await create({ description: 'to revoke', expiration: inDays(10), scope: 'admin' })).body.detail
    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(200)
    const revoked = await h.request('DELETE', `/api/api-token/${_key}`, { token: admin })
    expect(revoked.status).toBe(200)
    expect(revoked.body.detail).toMatchObject({ status: 'revoked', revoked_at: h.clock.now().getTime() })
    const who = await h.request('GET', '/api/whoami', { token })
    expect(who.status).toBe(401)
    expect((await h.request('GET', '/api/user', { token })).status).toBe(401)
    expect((await h.request('GET', '/api/trpc/settings.get', { token })).status).toBe(401)
    expect((await h.request('DELETE', `/api/api-token/${_key}`, { token: admin })).status).toBe(200)
    const events = await eventsOf(h, 'API_TOKEN_REVOKED')
    expect(events.length).toBe(1)
    expect(events[0]?.subject_key).toBe(_key)
    expect((await h.request('DELETE', '/api/api-token/mes_nothere', { token: admin })).status).toBe(404)
  })

  test('a wrong secret for a real token id answers 401', async () => {
    const { _key } = (await create({ description: 'guess me', expiration: inDays(10), scope: 'admin' })).body.detail
    const forged = `${_key}.${'a'.repeat(52)}`
    expect((await h.request('GET', '/api/whoami', { token: forged })).status).toBe(401)
  })

  test('an expired token answers 401 and lists as expired', async () => {
    const { token, _key } = (await create({ description: 'short lived', expiration: h.clock.now().getTime() + 60_000, scope: 'operator' }))
      .body.detail
    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(200)
    h.clock.advance(60_000)
    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(401)
    const fresh = await signIn(h, 'admin', ADMIN_PASSWORD)
    const list = await h.request('GET', '/api/api-token', { token: fresh })
    expect(list.body.detail.find((t: { _key: string }) => t._key === _key).status).toBe('expired')
    admin = fresh
  })

  test('an API token carrying admin can manage tokens, and its events name it', async () => {
    const { token, _key } = (await create({ description: 'automation', expiration: inDays(5), scope: 'admin' })).body.detail
    const made = await create({ description: 'made by a script', expiration: inDays(2), scope: 'reporting' }, token)
    expect(made.status).toBe(201)
    const event = (await eventsOf(h, 'API_TOKEN_CREATED')).at(-1)
    expect(event?.data.api_token).toBe(_key)
    expect(event?.session_id).toBeNull()
  })

  test('tRPC list, create and revoke use the same rules', async () => {
    const bad = await h.request('POST', '/api/trpc/apiTokens.create', { token: admin, body: { description: 'x', scope: 'admin' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.data.appCode).toBe('API_TOKEN_EXPIRATION_REQUIRED')
    const ok = await h.request('POST', '/api/trpc/apiTokens.create', {
      token: admin,
      body: { description: 'via trpc', expiration: inDays(3), scope: 'warehouse' },
    })
    expect(ok.status).toBe(200)
    const created = ok.body.result.data
    expect((await h.request('GET', '/api/whoami', { token: created.token })).status).toBe(200)
    const list = await h.request('GET', '/api/trpc/apiTokens.list', { token: admin })
    expect(list.body.result.data.some((t: { _key: string; token?: string }) => t._key === created._key && !t.token)).toBe(true)
    const revoke = await h.request('POST', '/api/trpc/apiTokens.revoke', { token: admin, body: { key: created._key } })
    expect(revoke.body.result.data.status).toBe('revoked')
    expect((await h.request('GET', '/api/whoami', { token: created.token })).status).toBe(401)
  })

  test('only admin lists, creates and revokes tokens; refusals write nothing', async () => {
    const { token: production } = await userWithScope(h, 'prod1', 'production')
    const before = await tokenRows(h)
    expect((await h.request('GET', '/api/api-token', { token: production })).status).toBe(403)
    expect((await create({ description: 'x', expiration: inDays(1), scope: 'admin' }, production)).status).toBe(403)
    expect((await h.request('DELETE', `/api/api-token/${before[0]!.id}`, { token: production })).status).toBe(403)
    expect((await h.request('GET', '/api/trpc/apiTokens.list', { token: production })).status).toBe(403)
    expect((await h.request('POST', '/api/api-token', { body: { description: 'x', expiration: inDays(1), scope: 'admin' } })).status).toBe(401)
    expect(await tokenRows(h)).toEqual(before)
  })
})
