import { beforeAll, describe, expect, test } from 'bun:test'
import { sha256 } from '@oslojs/crypto/sha2'
import { sql } from 'kysely'
import { writeSettings } from '../domains/settings/queries'
import { restRoutes } from '../rest/routes'
import { adminKey, adminToken, appCode, fillPath, HOUR, MINUTE, quickUser, sessionFor, trpcCall } from '../test/fixtures'
import { ADMIN_PASSWORD, type Harness, signIn, useHarness } from '../test/harness'

const DAY = 24 * HOUR
const SECOND = 1000

const whoami = (h: Harness, token: string, headers?: Record<string, string>) => h.request('GET', '/api/whoami', { token, headers })

async function sessionRow(h: Harness, token: string) {
  const id = token.split('.')[0]!
  return h.svc.db.selectFrom('auth_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

describe('session tokens', () => {
  const h = useHarness()

  test('the token is <id>.<secret> with a 256-bit secret; only SHA-256(secret) is stored', async () => {
    const res = await h.request('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
    expect(res.status).toBe(200)
    const token: string = res.body.detail.token
    const [id, secret] = token.split('.') as [string, string]
    expect(id).toMatch(/^[a-z2-7]{24}$/)
    expect(secret).toMatch(/^[a-z2-7]{52}$/) // 32 random bytes in base32
    const row = await sessionRow(h, token)
    expect(row.user_id).toBe(res.body.detail.user_key)
    expect(row.secret_hash).toBeInstanceOf(Uint8Array)
    expect(row.secret_hash.byteLength).toBe(32)
    expect(Buffer.from(row.secret_hash).equals(Buffer.from(sha256(new TextEncoder().encode(secret))))).toBe(true)
    expect(row.expires_at.getTime() - h.clock.now().getTime()).toBe(12 * HOUR)
    expect(row.absolute_expires_at.getTime() - h.clock.now().getTime()).toBe(14 * DAY)
  })

  test('the secret is stored nowhere in the database', async () => {
    const token = await signIn(h, 'admin', ADMIN_PASSWORD)
    const secret = token.split('.')[1]!
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(h.svc.db)
    expect(tables.rows.map((t) => t.name)).toContain('auth_sessions')
    for (const { name } of tables.rows) {
      const dump = await sql<{ t: string }>`select coalesce(string_agg(x::text, ' '), '') as t from ${sql.table(name)} x`.execute(h.svc.db)
      expect(dump.rows[0]!.t).not.toContain(secret)
    }
    // Not even as raw bytes of the text: the hash column holds 32 bytes that are not the secret.
    const row = await sessionRow(h, token)
    expect(Buffer.from(row.secret_hash).toString('latin1')).not.toContain(secret.slice(0, 16))
  })

  test('a token with the right id and a wrong secret is refused', async () => {
    const token = await adminToken(h)
    const [id, secret] = token.split('.') as [string, string]
    const flipped = `${id}.${secret[0] === 'a' ? 'b' : 'a'}${secret.slice(1)}`
    expect((await whoami(h, flipped)).status).toBe(401)
    expect((await whoami(h, `${id}.`)).status).toBe(401)
    expect((await whoami(h, id)).status).toBe(401)
    expect((await whoami(h, 'x'.repeat(500))).status).toBe(401)
    expect((await whoami(h, token)).status).toBe(200)
  })

  test('the cookie authenticates like the bearer header; logout clears it', async () => {
    const token = await adminToken(h)
    const who = await h.request('GET', '/api/whoami', { cookie: token })
    expect(who.status).toBe(200)
    expect(who.body.detail.user_key).toBe(await adminKey(h))
    expect(who.body.detail.session_key).toBe(token.split('.')[0]!)
    const out = await h.request('POST', '/api/logout', { cookie: token })
    expect(out.status).toBe(200)
    expect(out.headers.get('set-cookie') ?? '').toMatch(/Authorization=;.*Max-Age=0/)
    expect((await h.request('GET', '/api/whoami', { cookie: token })).status).toBe(401)
    expect((await sessionRow(h, token)).ended_at).not.toBeNull()
  })
})

describe('session expiry', () => {
  const h = useHarness()
  beforeAll(async () => {
    // Keep the idle lock out of the way: these tests touch the session hours apart.
    await writeSettings(h.svc.db, { idle_lock_minutes: 24 * 60 })
  })

  test('sliding: 12 h without activity ends the session', async () => {
    const token = await adminToken(h)
    h.clock.advance(12 * HOUR - SECOND)
    expect((await whoami(h, token)).status).toBe(200)
    const other = await adminToken(h)
    h.clock.advance(12 * HOUR + SECOND)
    const res = await whoami(h, other)
    expect(res.status).toBe(401)
    expect(res.body.detail.code).toBe('NOT_AUTHENTICATED')
  })

  test('sliding: each use pushes the expiry forward', async () => {
    const token = await adminToken(h)
    for (let i = 0; i < 4; i++) {
      h.clock.advance(11 * HOUR)
      expect((await whoami(h, token)).status).toBe(200)
    }
    // 44 h after sign-in and still alive; now 12 h of silence ends it.
    h.clock.advance(12 * HOUR + SECOND)
    expect((await whoami(h, token)).status).toBe(401)
  })

  test('background polls do not keep the session alive', async () => {
    const token = await adminToken(h)
    for (let i = 0; i < 5; i++) {
      h.clock.advance(3 * HOUR)
      const res = await whoami(h, token, { 'x-mes-background': '1' })
      if (i < 3) expect(res.status).toBe(200)
      else expect(res.status).toBe(401)
    }
  })

  test('absolute: 14 days at most, however active', async () => {
    const token = await adminToken(h)
    const start = h.clock.now().getTime()
    const end = start + 14 * DAY
    while (h.clock.now().getTime() + 4 * HOUR < end) {
      h.clock.advance(4 * HOUR)
      expect((await whoami(h, token)).status).toBe(200)
    }
    h.clock.set(new Date(end - SECOND))
    expect((await whoami(h, token)).status).toBe(200)
    const row = await sessionRow(h, token)
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(end)
    h.clock.set(new Date(end + SECOND))
    expect((await whoami(h, token)).status).toBe(401)
    // A new sign-in starts a new session with its own 14 days.
    expect((await whoami(h, await adminToken(h))).status).toBe(200)
  })
})

describe('idle lock', () => {
  const h = useHarness()

  test('after 15 minutes without activity every call answers 423 SESSION_LOCKED with the username', async () => {
    const token = await adminToken(h)
    h.clock.advance(14 * MINUTE)
    expect((await whoami(h, token)).status).toBe(200)
    h.clock.advance(14 * MINUTE)
    // 28 minutes since sign-in, but only 14 since the last activity.
    expect((await whoami(h, token)).status).toBe(200)
    h.clock.advance(15 * MINUTE + SECOND)
    const res = await whoami(h, token)
    expect(res.status).toBe(423)
    expect(res.body.detail).toMatchObject({ code: 'SESSION_LOCKED', username: 'admin' })
    expect((await sessionRow(h, token)).locked).toBe(true)
    // tRPC refuses the same way (tRPC has no 423: the code travels as data.appCode).
    const t = await trpcCall(h, 'session.whoami', 'query', undefined, { token })
    expect(appCode(t.body)).toBe('SESSION_LOCKED')
    expect(t.body.error.data.extra).toEqual({ username: 'admin' })
  })

  test('every route answers 423 while locked, except unlock, logout, lock and deleting a session', async () => {
    const admin = await adminKey(h)
    const whileLocked: string[] = []
    // One locked session serves every refused route; logout and session delete end the session
    // they run on, so each route that answers while locked gets a fresh one.
    const locked = await adminToken(h)
    expect((await h.request('POST', '/api/session/lock', { token: locked })).status).toBe(200)
    for (const r of restRoutes) {
      if (r.access.scope === 'public') continue
      let token = locked
      if (r.access.whileLocked) {
        token = await adminToken(h)
        expect((await h.request('POST', '/api/session/lock', { token })).status).toBe(200)
      }
      const res = await h.request(r.method.toUpperCase(), `/api${fillPath(r.path, admin)}`, { token, body: r.body && !r.multipart ? {} : undefined })
      const label = `${r.method.toUpperCase()} ${r.path}`
      if (r.access.whileLocked) {
        whileLocked.push(label)
        expect({ label, status: res.status }).not.toEqual({ label, status: 423 })
        expect(res.headers.get('content-type') ?? '').toContain('application/json')
      } else {
        expect({ label, status: res.status, code: appCode(res.body) }).toEqual({ label, status: 423, code: 'SESSION_LOCKED' })
      }
    }
    for (const must of ['POST /session/unlock', 'POST /logout', 'DELETE /session/{session_key}', 'POST /session/lock']) {
      expect(whileLocked).toContain(must)
    }
  })

  test('logout and session delete work while locked', async () => {
    const a = await adminToken(h)
    const b = await adminToken(h)
    h.clock.advance(16 * MINUTE)
    expect((await whoami(h, a)).status).toBe(423)
    expect((await h.request('DELETE', `/api/session/${b.split('.')[0]}`, { token: a })).status).toBe(200)
    expect((await whoami(h, b)).status).toBe(401)
    expect((await h.request('POST', '/api/logout', { token: a })).status).toBe(200)
    expect((await whoami(h, a)).status).toBe(401)
  })

  test('a wrong unlock password is 400 WRONG_PASSWORD (not 401) and keeps the lock; the right one unlocks and restarts the timer', async () => {
    const token = await adminToken(h)
    h.clock.advance(15 * MINUTE + SECOND)
    expect((await whoami(h, token)).status).toBe(423)
    const wrong = await h.request('POST', '/api/session/unlock', { token, body: { password: 'not-my-password' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.detail.code).toBe('WRONG_PASSWORD')
    expect((await whoami(h, token)).status).toBe(423)
    const empty = await h.request('POST', '/api/session/unlock', { token, body: { password: '' } })
    expect(empty.status).toBe(400)
    expect((await whoami(h, token)).status).toBe(423)

    const ok = await h.request('POST', '/api/session/unlock', { token, body: { password: ADMIN_PASSWORD } })
    expect(ok.status).toBe(200)
    expect((await sessionRow(h, token)).locked).toBe(false)
    expect((await whoami(h, token)).status).toBe(200)
    // The timer restarted at the unlock.
    h.clock.advance(14 * MINUTE)
    expect((await whoami(h, token)).status).toBe(200)
    h.clock.advance(15 * MINUTE + SECOND)
    expect((await whoami(h, token)).status).toBe(423)
  })

  test('unlock over tRPC too', async () => {
    const token = await adminToken(h)
    expect((await trpcCall(h, 'session.lock', 'mutation', undefined, { token })).status).toBe(200)
    expect((await whoami(h, token)).status).toBe(423)
    const wrong = await trpcCall(h, 'session.unlock', 'mutation', { password: 'nope-nope' }, { token })
    expect(wrong.status).toBe(400)
    expect(appCode(wrong.body)).toBe('WRONG_PASSWORD')
    expect((await trpcCall(h, 'session.unlock', 'mutation', { password: ADMIN_PASSWORD }, { token })).status).toBe(200)
    expect((await whoami(h, token)).status).toBe(200)
  })

  test('POST session/lock locks at once', async () => {
    const token = await adminToken(h)
    expect((await h.request('POST', '/api/session/lock', { token })).status).toBe(200)
    const res = await h.request('POST', '/api/event', { token, body: { event_type: 'TEST' } })
    expect(res.status).toBe(423)
    expect(res.body.detail.code).toBe('SESSION_LOCKED')
  })

  test('background calls (x-mes-background: 1) are not activity: the session still locks', async () => {
    const token = await adminToken(h)
    const bg = { 'x-mes-background': '1' }
    for (let i = 0; i < 3; i++) {
      h.clock.advance(5 * MINUTE - SECOND)
      expect((await whoami(h, token, bg)).status).toBe(200)
    }
    h.clock.advance(5 * MINUTE)
    const res = await whoami(h, token, bg)
    expect(res.status).toBe(423)
    expect(res.body.detail.code).toBe('SESSION_LOCKED')
    // The same polls without the header would have kept it open.
    const active = await adminToken(h)
    for (let i = 0; i < 4; i++) {
      h.clock.advance(5 * MINUTE - SECOND)
      expect((await whoami(h, active)).status).toBe(200)
    }
  })

  test('a user activity report keeps the session open', async () => {
    const token = await adminToken(h)
    for (let i = 0; i < 3; i++) {
      h.clock.advance(10 * MINUTE)
      expect((await h.request('POST', '/api/session/activity', { token })).status).toBe(200)
    }
    expect((await whoami(h, token)).status).toBe(200)
  })

  test('the idle timeout comes from the idle_lock_minutes setting', async () => {
    await writeSettings(h.svc.db, { idle_lock_minutes: 2 })
    try {
      const token = await adminToken(h)
      const info = await h.request('POST', '/api/session', { token, body: { user_key: await adminKey(h) } })
      expect(info.body.detail.idle_lock_minutes).toBe(2)
      h.clock.advance(MINUTE + 50 * SECOND)
      expect((await whoami(h, token)).status).toBe(200)
      h.clock.advance(2 * MINUTE + SECOND)
      expect((await whoami(h, token)).status).toBe(423)

      await writeSettings(h.svc.db, { idle_lock_minutes: 60 })
      const long = await adminToken(h)
      h.clock.advance(59 * MINUTE)
      expect((await whoami(h, long)).status).toBe(200)
      h.clock.advance(60 * MINUTE + SECOND)
      expect((await whoami(h, long)).status).toBe(423)
    } finally {
      await writeSettings(h.svc.db, { idle_lock_minutes: 15 })
    }
  })
})

describe('disabled and archived users', () => {
  const h = useHarness()

  test("disabling a user ends their sessions at once and keeps them out", async () => {
    const admin = await adminToken(h)
    const op = await quickUser(h, 'op.disabled', 'operator')
    const second = await sessionFor(h, op.key)
    expect((await whoami(h, op.token)).status).toBe(200)
    const res = await h.request('PATCH', `/api/user/${op.key}`, { token: admin, body: { enabled: false } })
    expect(res.status).toBe(200)
    expect(res.body.detail.enabled).toBe(false)
    for (const t of [op.token, second]) expect((await whoami(h, t)).status).toBe(401)
    const live = await h.svc.db.selectFrom('auth_sessions').select('id').where('user_id', '=', op.key).where('ended_at', 'is', null).execute()
    expect(live).toEqual([])
    const login = await h.request('POST', '/api/login', { body: { username: 'op.disabled', password: 'password-123' } })
    expect(login.status).toBe(401)
    expect(login.body.detail.message).toBe('Incorrect username or password')
  })

  test('an archived user cannot sign in, and old tokens stop working', async () => {
    const op = await quickUser(h, 'op.archived', 'operator')
    expect((await whoami(h, op.token)).status).toBe(200)
    await h.svc.db.updateTable('users').set({ archived_at: h.clock.now() }).where('id', '=', op.key).execute()
    expect((await whoami(h, op.token)).status).toBe(401)
    expect((await h.request('POST', '/api/event', { token: op.token, body: { event_type: 'X' } })).status).toBe(401)
    const login = await h.request('POST', '/api/login', { body: { username: 'op.archived', password: 'password-123' } })
    expect(login.status).toBe(401)
    expect(login.body.detail.code).toBe('LOGIN_FAILED')
  })
})
