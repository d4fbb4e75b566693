import { beforeAll, describe, expect, test } from 'bun:test'
import { adminKey, appCode, HOUR, insertApiToken, trpcCall } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { API_TOKEN_PREFIX, newApiTokenCredential } from './api-tokens'

describe('API tokens as Bearer credentials', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await adminKey(h)
  })

  test('a token is mes_<id>.<secret>; the row keeps only the SHA-256 of the secret', async () => {
    const { id, token, secretHash } = newApiTokenCredential()
    expect(id.startsWith(API_TOKEN_PREFIX)).toBe(true)
    expect(token).toMatch(/^mes_[a-z2-7]{24}\.[a-z2-7]{52}$/)
    expect(secretHash.byteLength).toBe(32)
  })

  test('works with exactly its own scope, not its creator\'s', async () => {
    const { token } = await insertApiToken(h, { scope: 'production', createdBy: admin })
    const list = await h.request('GET', '/api/user', { token })
    expect(list.status).toBe(200)
    expect(list.body.detail.map((u: { username: string }) => u.username)).toContain('admin')
    // The creator is an admin, the token is not.
    const create = await h.request('POST', '/api/user', { token, body: { username: 'via.token', scope: 'operator' } })
    expect(create.status).toBe(403)
    expect(create.body.detail.code).toBe('NOT_AUTHORISED')
    const trpc = await trpcCall(h, 'users.create', 'mutation', { username: 'via.token', scope: 'operator' }, { token })
    expect(trpc.status).toBe(403)
    expect(appCode(trpc.body)).toBe('NOT_AUTHORISED')
    expect((await trpcCall(h, 'users.list', 'query', {}, { token })).status).toBe(200)
    // Signed-in routes answer as the creator, without a session.
    const who = await h.request('GET', '/api/whoami', { token })
    expect(who.status).toBe(200)
    expect(who.body.detail).toMatchObject({ user_key: admin, session_key: null })
  })

  test('a token with another scope is refused where production is needed', async () => {
    const { token } = await insertApiToken(h, { scope: 'warehouse quality', createdBy: admin })
    const res = await h.request('GET', '/api/user', { token })
    expect(res.status).toBe(403)
    expect(res.body.detail.code).toBe('NOT_AUTHORISED')
  })

  test('events written with a token name the user and the token, no session', async () => {
    const { id, token } = await insertApiToken(h, { scope: 'operator', createdBy: admin })
    const res = await h.request('POST', '/api/event', { token, origin: null, body: { event_type: 'PAUSED_OFFLINE', subject_key: 'script-ran' } })
    expect(res.status).toBe(201)
    const ev = await h.svc.db.selectFrom('events').selectAll().where('subject_key', '=', 'script-ran').executeTakeFirstOrThrow()
    expect(ev.user_id).toBe(admin)
    expect(ev.session_id).toBeNull()
    expect(ev.data).toMatchObject({ api_token: id })
  })

  test('tokens are not sessions: no idle lock, no password change', async () => {
    const { token } = await insertApiToken(h, { scope: 'operator', createdBy: admin })
    h.clock.advance(2 * HOUR)
    expect((await h.request('GET', '/api/whoami', { token })).status).toBe(200)
    const pw = await h.request('POST', '/api/password', { token, body: { current_password: 'x', new_password: 'yyyyyyyyyy' } })
    expect(pw.status).toBe(403)
  })

  test('an expired token answers 401', async () => {
    const { token } = await insertApiToken(h, { scope: 'production', createdBy: admin, expiresInMs: HOUR })
    expect((await h.request('GET', '/api/user', { token })).status).toBe(200)
    h.clock.advance(HOUR)
    const res = await h.request('GET', '/api/user', { token })
    expect(res.status).toBe(401)
    expect(res.body.detail.code).toBe('NOT_AUTHENTICATED')
  })

  test('a revoked token answers 401', async () => {
    const { id, token } = await insertApiToken(h, { scope: 'production', createdBy: admin })
    expect((await h.request('GET', '/api/user', { token })).status).toBe(200)
    await h.svc.db.updateTable('api_tokens').set({ revoked_at: h.clock.now() }).where('id', '=', id).execute()
    expect((await h.request('GET', '/api/user', { token })).status).toBe(401)
  })

  test('a wrong secret answers 401', async () => {
    const { token } = await insertApiToken(h, { scope: 'production', createdBy: admin })
    const [id, secret] = token.split('.') as [string, string]
    const wrong = `${id}.${secret.split('').reverse().join('')}`
    expect((await h.request('GET', '/api/user', { token: wrong })).status).toBe(401)
    expect((await h.request('GET', '/api/user', { token: `${id}.` })).status).toBe(401)
    expect((await h.request('GET', '/api/user', { token: 'mes_nothing.nothing' })).status).toBe(401)
  })

  test("a token stops working when its creator is disabled", async () => {
    const created = await h.svc.db
      .insertInto('users')
      .values({ username: 'token.owner', scope: 'production', password_hash: 'x', created_at: h.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow()
    const { token } = await insertApiToken(h, { scope: 'production', createdBy: created.id })
    expect((await h.request('GET', '/api/user', { token })).status).toBe(200)
    await h.svc.db.updateTable('users').set({ enabled: false }).where('id', '=', created.id).execute()
    expect((await h.request('GET', '/api/user', { token })).status).toBe(401)
  })
})
