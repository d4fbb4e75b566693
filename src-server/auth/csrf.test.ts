import { beforeAll, describe, expect, test } from 'bun:test'
import { adminKey, adminToken, appCode, countOf, trpcCall } from '../test/fixtures'
import { ORIGIN, useHarness } from '../test/harness'

describe('CSRF: cookie-authenticated writes must come from the app origin', () => {
  const h = useHarness()
  let token: string
  let key: string
  beforeAll(async () => {
    token = await adminToken(h)
    key = await adminKey(h)
  })

  test('cookie + POST without Origin: 403 BAD_ORIGIN, nothing written', async () => {
    const before = await countOf(h, 'events')
    const res = await h.request('POST', '/api/event', { cookie: token, origin: null, body: { event_type: 'CSRF' } })
    expect(res.status).toBe(403)
    expect(res.body.detail.code).toBe('BAD_ORIGIN')
    expect(await countOf(h, 'events')).toBe(before)
  })

  test('cookie + POST from another origin: 403 BAD_ORIGIN', async () => {
    for (const origin of ['http://evil.test', 'https://mes.test', 'http://mes.test:8080', 'null']) {
      const res = await h.request('POST', '/api/session', { cookie: token, origin, body: { user_key: key } })
      expect({ origin, status: res.status, code: res.body.detail.code }).toEqual({ origin, status: 403, code: 'BAD_ORIGIN' })
    }
  })

  test('cookie + PATCH / DELETE without Origin are refused too', async () => {
    const patch = await h.request('PATCH', `/api/user/${key}`, { cookie: token, origin: null, body: { preferences: { theme: 'dark' } } })
    expect(patch.status).toBe(403)
    expect(patch.body.detail.code).toBe('BAD_ORIGIN')
    const other = await adminToken(h)
    const del = await h.request('DELETE', `/api/session/${other.split('.')[0]}`, { cookie: token, origin: null })
    expect(del.status).toBe(403)
    expect((await h.request('GET', '/api/whoami', { token: other })).status).toBe(200)
    const logout = await h.request('POST', '/api/logout', { cookie: token, origin: 'http://evil.test' })
    expect(logout.status).toBe(403)
    expect((await h.request('GET', '/api/whoami', { cookie: token })).status).toBe(200)
  })

  test('cookie + POST from the same origin passes', async () => {
    const res = await h.request('POST', '/api/session', { cookie: token, origin: ORIGIN, body: { user_key: key } })
    expect(res.status).toBe(200)
    expect(res.body.detail.user_key).toBe(key)
  })

  test('Bearer + POST without Origin passes (scripts)', async () => {
    const res = await h.request('POST', '/api/event', { token, origin: null, body: { event_type: 'PAUSED_OFFLINE' } })
    expect(res.status).toBe(201)
  })

  test('cookie + GET without Origin passes', async () => {
    const res = await h.request('GET', '/api/whoami', { cookie: token, origin: null })
    expect(res.status).toBe(200)
    expect(res.body.detail.user_key).toBe(key)
  })

  test('tRPC mutations follow the same rule', async () => {
    const bad = await trpcCall(h, 'events.record', 'mutation', { event_type: 'CSRF' }, { cookie: token, origin: 'http://evil.test' })
    expect(bad.status).toBe(403)
    expect(appCode(bad.body)).toBe('BAD_ORIGIN')
    const good = await trpcCall(h, 'events.record', 'mutation', { event_type: 'PAUSED_OFFLINE' }, { cookie: token })
    expect(good.status).toBe(200)
    const query = await trpcCall(h, 'session.whoami', 'query', undefined, { cookie: token, origin: null })
    expect(query.status).toBe(200)
  })
})
