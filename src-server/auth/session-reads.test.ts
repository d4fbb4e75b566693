import { describe, expect, test } from 'bun:test'
import { quickUser } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { readSession } from './session-reads'
import { endSession, validateSessionToken } from './sessions'

const idOf = (token: string) => token.split('.')[0]!

describe('grouped session reads', () => {
  const h = useHarness()

  test('lookups asked together are each answered with their own session, unknown ids with nothing', async () => {
    const users = await Promise.all(['sr.a', 'sr.b', 'sr.c'].map((u) => quickUser(h, u, 'operator')))
    const asked = [...users.map((u) => idOf(u.token)), 'no-such-session', idOf(users[0]!.token)]
    const rows = await Promise.all(asked.map((id) => readSession(h.svc.db, id)))
    expect(rows.map((r) => r?.user_id ?? null)).toEqual([users[0]!.key, users[1]!.key, users[2]!.key, null, users[0]!.key])
    expect(rows.map((r) => r?.user.username ?? null)).toEqual(['sr.a', 'sr.b', 'sr.c', null, 'sr.a'])
    // The same session twice in one group: each caller gets a session object of its own to change.
    const [one, two] = await Promise.all([0, 1].map(() => validateSessionToken(h.svc.db, users[0]!.token, h.clock.now())))
    expect(one!.session.id).toBe(two!.session.id)
    expect(one!.session).not.toBe(two!.session)
    expect(one!.user).not.toBe(two!.user)
  })

  test('a session ended while a read is in flight is refused by every lookup asked after the end committed', async () => {
    const a = await quickUser(h, 'sr.end.a', 'operator')
    const b = await quickUser(h, 'sr.end.b', 'operator')
    // Keep reads in flight (lookups of a), then end b's session and look it up at once: the lookup
    // must not be answered by a read that started before the end.
    const busy = Array.from({ length: 20 }, () => validateSessionToken(h.svc.db, a.token, h.clock.now()))
    expect(await validateSessionToken(h.svc.db, b.token, h.clock.now())).not.toBeNull()
    const inFlight = Array.from({ length: 20 }, () => validateSessionToken(h.svc.db, b.token, h.clock.now()))
    await endSession(h.svc.db, idOf(b.token), h.clock.now())
    const after = await Promise.all(Array.from({ length: 5 }, () => validateSessionToken(h.svc.db, b.token, h.clock.now())))
    expect(after).toEqual([null, null, null, null, null])
    expect((await h.request('GET', '/api/whoami', { token: b.token })).status).toBe(401)
    expect((await Promise.all(busy)).every((v) => v?.user.id === a.key)).toBe(true)
    await Promise.all(inFlight)
  })

  test('a revoked session is refused at once under concurrent requests', async () => {
    const op = await quickUser(h, 'sr.revoke', 'operator')
    const others = await Promise.all(Array.from({ length: 5 }, (_, i) => quickUser(h, `sr.revoke.${i}`, 'operator')))
    const load = others.flatMap((o) => Array.from({ length: 4 }, () => h.request('GET', '/api/whoami', { token: o.token })))
    expect((await h.request('GET', '/api/whoami', { token: op.token })).status).toBe(200)
    expect((await h.request('POST', '/api/logout', { token: op.token })).status).toBe(200)
    const again = await Promise.all(Array.from({ length: 5 }, () => h.request('GET', '/api/whoami', { token: op.token })))
    expect(again.map((r) => r.status)).toEqual([401, 401, 401, 401, 401])
    expect((await Promise.all(load)).every((r) => r.status === 200)).toBe(true)
  })
})
