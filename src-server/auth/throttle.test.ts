import { describe, expect, test } from 'bun:test'
import { MINUTE } from '../test/fixtures'
import { assertNotThrottled, recordFailure } from './throttle'
import { ADMIN_PASSWORD, type Harness, userWithScope, useHarness } from '../test/harness'

const login = (h: Harness, username: string, password: string) => h.request('POST', '/api/login', { body: { username, password } })

async function fail(h: Harness, username: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await login(h, username, `wrong-password-${i}`)
    expect(res.status).toBe(401)
    expect(res.body.detail.code).toBe('LOGIN_FAILED')
  }
}

describe('sign-in throttling', () => {
  const h = useHarness()

  test('after 5 failures the 6th attempt is 429 LOGIN_THROTTLED even with the right password; after the block it works', async () => {
    const u = await userWithScope(h, 'throttled.one', 'operator')
    expect(u.key).toBeString()
    await fail(h, 'throttled.one', 5)
    const blocked = await login(h, 'throttled.one', 'password-123')
    expect(blocked.status).toBe(429)
    expect(blocked.body.detail.code).toBe('LOGIN_THROTTLED')
    const retry = blocked.body.detail.retry_after as number
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(5 * 60)
    // Still blocked just before the end, free just after.
    h.clock.advance(retry * 1000 - 2000)
    expect((await login(h, 'throttled.one', 'password-123')).status).toBe(429)
    h.clock.advance(2001)
    const ok = await login(h, 'throttled.one', 'password-123')
    expect(ok.status).toBe(200)
    expect(ok.body.detail.token).toBeString()
  })

  test('the block doubles with more failures but never exceeds 5 minutes', async () => {
    await userWithScope(h, 'throttled.two', 'operator')
    const blocks: number[] = []
    for (let i = 0; i < 12; i++) {
      let res = await login(h, 'throttled.two', `wrong-${i}`)
      if (res.status === 429) {
        const retry = res.body.detail.retry_after as number
        expect(retry).toBeLessThanOrEqual(5 * 60)
        blocks.push(retry)
        h.clock.advance(retry * 1000)
        res = await login(h, 'throttled.two', `wrong-${i}`)
      }
      expect(res.status).toBe(401)
    }
    expect(blocks.length).toBeGreaterThanOrEqual(5)
    expect(blocks.every((b, i) => i === 0 || b >= blocks[i - 1]!)).toBe(true)
    expect(Math.max(...blocks)).toBe(5 * 60)
    // The real user gets in once the (short) block is over.
    h.clock.advance(5 * MINUTE)
    expect((await login(h, 'throttled.two', 'password-123')).status).toBe(200)
  })

  test('a success resets the count', async () => {
    await userWithScope(h, 'throttled.three', 'operator')
    await fail(h, 'throttled.three', 4)
    expect((await login(h, 'throttled.three', 'password-123')).status).toBe(200)
    await fail(h, 'throttled.three', 4)
    // 8 failures in all, but only 4 since the success: not blocked.
    expect((await login(h, 'throttled.three', 'password-123')).status).toBe(200)
  })

  test('old failures are forgotten', async () => {
    await userWithScope(h, 'throttled.four', 'operator')
    await fail(h, 'throttled.four', 4)
    h.clock.advance(16 * MINUTE)
    await fail(h, 'throttled.four', 4)
    expect((await login(h, 'throttled.four', 'password-123')).status).toBe(200)
  })

  test('the count is per username (ignoring case); other users are not affected', async () => {
    await fail(h, 'ADMIN', 3)
    await fail(h, 'Admin', 2)
    expect((await login(h, 'admin', ADMIN_PASSWORD)).status).toBe(429)
    const other = await login(h, 'throttled.three', 'password-123')
    expect(other.status).toBe(200)
    h.clock.advance(5 * MINUTE + 1000)
    expect((await login(h, 'admin', ADMIN_PASSWORD)).status).toBe(200)
  })

  test('unknown usernames are throttled the same way (no hint that the user does not exist)', async () => {
    await fail(h, 'nobody.here', 5)
    const res = await login(h, 'nobody.here', 'whatever-1')
    expect(res.status).toBe(429)
    expect(res.body.detail.code).toBe('LOGIN_THROTTLED')
  })

  test('wrong unlock passwords count too', async () => {
    const u = await userWithScope(h, 'throttled.five', 'operator')
    expect((await h.request('POST', '/api/session/lock', { token: u.token })).status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const res = await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: `guess-${i}` } })
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('WRONG_PASSWORD')
    }
    const blocked = await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: 'password-123' } })
    expect(blocked.status).toBe(429)
    expect(blocked.body.detail.code).toBe('LOGIN_THROTTLED')
    h.clock.advance(5 * MINUTE + 1000)
    expect((await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: 'password-123' } })).status).toBe(200)
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
