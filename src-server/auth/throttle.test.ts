import { describe, expect, test } from 'bun:test'
import { MINUTE, QUICK_PASSWORD, quickUser } from '../test/fixtures'
import { ADMIN_PASSWORD, type Harness, useHarness } from '../test/harness'
import { assertNotThrottled, recordFailure } from './throttle'

const login = (h: Harness, username: string, password: string) => h.request('POST', '/api/login', { body: { username, password } })

async function fail(h: Harness, username: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await login(h, username, `wrong-password-${i}`)
    expect(res.status).toBe(401)
    expect(res.body.detail.code).toBe('LOGIN_FAILED')
  }
}

/** Seconds the username must wait now (0 = free), read through the module the login uses. */
async function waitFor(h: Harness, username: string, at = h.clock.now()): Promise<number> {
  const refused = await assertNotThrottled(h.svc.db, username, null, at).catch((e) => e)
  if (refused === undefined) return 0
  expect(refused).toMatchObject({ status: 429, appCode: 'LOGIN_THROTTLED' })
  return refused.extra.retry_after
}

describe('sign-in throttling', () => {
  const h = useHarness()

  test('after 5 failures the 6th attempt is 429 LOGIN_THROTTLED even with the right password; after the block it works', async () => {
    await quickUser(h, 'throttled.one', 'operator')
    await fail(h, 'throttled.one', 5)
    const blocked = await login(h, 'throttled.one', QUICK_PASSWORD)
    expect(blocked.status).toBe(429)
    expect(blocked.body.detail.code).toBe('LOGIN_THROTTLED')
    const retry = blocked.body.detail.retry_after as number
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(5 * 60)
    // Still blocked just before the end, free just after.
    h.clock.advance(retry * 1000 - 2000)
    expect((await login(h, 'throttled.one', QUICK_PASSWORD)).status).toBe(429)
    h.clock.advance(2001)
    const ok = await login(h, 'throttled.one', QUICK_PASSWORD)
    expect(ok.status).toBe(200)
    expect(ok.body.detail.token).toBeString()
  })

  test('a success resets the count', async () => {
    await quickUser(h, 'throttled.two', 'operator')
    await fail(h, 'throttled.two', 4)
    expect((await login(h, 'throttled.two', QUICK_PASSWORD)).status).toBe(200)
    await fail(h, 'throttled.two', 4)
    // 8 failures in all, but only 4 since the success: not blocked.
    expect((await login(h, 'throttled.two', QUICK_PASSWORD)).status).toBe(200)
  })

  test('the count is per username, ignoring case; other users are not affected', async () => {
    await fail(h, 'ADMIN', 3)
    await fail(h, 'Admin', 2)
    expect((await login(h, 'admin', ADMIN_PASSWORD)).status).toBe(429)
    expect((await login(h, 'throttled.two', QUICK_PASSWORD)).status).toBe(200)
    h.clock.advance(5 * MINUTE + 1000)
    expect((await login(h, 'admin', ADMIN_PASSWORD)).status).toBe(200)
  })

  test('unknown usernames are throttled the same way (no hint that the user does not exist)', async () => {
    await fail(h, 'nobody.here', 5)
    const res = await login(h, 'nobody.here', 'whatever-1')
    expect(res.status).toBe(429)
    expect(res.body.detail.code).toBe('LOGIN_THROTTLED')
  })

  test('the block doubles with more failures but never exceeds 5 minutes', async () => {
    const blocks: number[] = []
    for (let i = 0; i < 12; i++) {
      await recordFailure(h.svc.db, 'throttled.three', null, h.clock.now())
      const wait = await waitFor(h, 'throttled.three')
      if (i < 4) expect(wait).toBe(0)
      else {
        blocks.push(wait)
        h.clock.advance(wait * 1000)
        expect(await waitFor(h, 'throttled.three')).toBe(0)
      }
    }
    expect(blocks.slice(0, 5)).toEqual([30, 60, 120, 240, 300])
    expect(blocks.every((b) => b <= 300)).toBe(true)
  })

  test('old failures are forgotten', async () => {
    for (let i = 0; i < 4; i++) await recordFailure(h.svc.db, 'throttled.four', null, h.clock.now())
    h.clock.advance(16 * MINUTE)
    for (let i = 0; i < 4; i++) await recordFailure(h.svc.db, 'throttled.four', null, h.clock.now())
    expect(await waitFor(h, 'throttled.four')).toBe(0)
    await recordFailure(h.svc.db, 'throttled.four', null, h.clock.now())
    expect(await waitFor(h, 'throttled.four')).toBe(30)
  })

  test('wrong unlock passwords count too', async () => {
    const u = await quickUser(h, 'throttled.five', 'operator')
    expect((await h.request('POST', '/api/session/lock', { token: u.token })).status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const res = await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: `guess-${i}` } })
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('WRONG_PASSWORD')
    }
    const blocked = await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: QUICK_PASSWORD } })
    expect(blocked.status).toBe(429)
    expect(blocked.body.detail.code).toBe('LOGIN_THROTTLED')
    h.clock.advance(5 * MINUTE + 1000)
    expect((await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: QUICK_PASSWORD } })).status).toBe(200)
  })

  test('per address: many failures from one address, whatever the usernames, block that address only', async () => {
    const db = h.svc.db
    const now = h.clock.now()
    const ip = '203.0.113.9'
    for (let i = 0; i < 29; i++) await recordFailure(db, `spray-${i}`, ip, now)
    expect(await assertNotThrottled(db, 'someone.else', ip, now)).toBeUndefined()
    await recordFailure(db, 'spray-29', ip, now)
    const refused = await assertNotThrottled(db, 'someone.else', ip, now).catch((e) => e)
    expect(refused).toMatchObject({ status: 429, appCode: 'LOGIN_THROTTLED' })
    expect(await assertNotThrottled(db, 'someone.else', '198.51.100.1', now)).toBeUndefined()
    // Blocked for a while, never for long.
    const later = new Date(now.getTime() + 15 * MINUTE + 1000)
    expect(await assertNotThrottled(db, 'someone.else', ip, later)).toBeUndefined()
  })
})
