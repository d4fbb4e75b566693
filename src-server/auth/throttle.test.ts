import { describe, expect, test } from 'bun:test'
import { createApp } from '../app'
import { runSweeps } from '../sweeps'
import { MINUTE, QUICK_PASSWORD, quickUser } from '../test/fixtures'
import { type Harness, ORIGIN, useHarness } from '../test/harness'
import { sourceKey, THROTTLE } from './throttle'

type App = ReturnType<typeof createApp>
type Attempt = { status: number; code: string | undefined; retryAfter: number | undefined; header: string | null }

/** The socket address Bun would report for a request (Hono's getConnInfo reads it from the env). */
const fromAddress = (address: string) => ({ requestIP: () => ({ address, family: address.includes(':') ? 'IPv6' : 'IPv4', port: 51000 }) })

/** POST /login as a client at `ip` (the socket address), with extra headers (a proxy's). */
async function login(h: Harness, username: string, password: string, ip: string, opts: { app?: App; headers?: Record<string, string> } = {}): Promise<Attempt> {
  const app = opts.app ?? h.app
  const res = await app.request(
    `${ORIGIN}/api/login`,
    { method: 'POST', headers: { 'content-type': 'application/json', ...opts.headers }, body: JSON.stringify({ username, password }) },
    fromAddress(ip),
  )
  const body = (await res.json()) as { detail: { code?: string; retry_after?: number } }
  return { status: res.status, code: body.detail.code, retryAfter: body.detail.retry_after, header: res.headers.get('retry-after') }
}

/** `times` wrong passwords, each answered 401 LOGIN_FAILED (none of them may be refused unchecked). */
async function fail(h: Harness, username: string, ip: string, times: number, opts: { app?: App; headers?: Record<string, string> } = {}) {
  for (let i = 0; i < times; i++) {
    const res = await login(h, username, `wrong-password-${i}`, ip, opts)
    expect({ attempt: i + 1, status: res.status, code: res.code }).toEqual({ attempt: i + 1, status: 401, code: 'LOGIN_FAILED' })
  }
}

/** `times` failures for a pair, sitting out (on the test clock) every wait the throttle asks for. */
async function failPatiently(h: Harness, username: string, ip: string, times: number) {
  for (let failed = 0; failed < times; ) {
    const res = await login(h, username, `patient-guess-${failed}`, ip)
    if (res.status === 429) h.clock.advance(res.retryAfter! * SECOND)
    else {
      expect(res.status).toBe(401)
      failed++
    }
  }
}

const SECOND = 1000
let n = 0
/** A fresh address from the documentation ranges, so tests never share a source by accident. */
const nextIp = () => `203.0.${Math.floor(++n / 250)}.${(n % 250) + 1}`

describe('sign-in throttling by (account, source) pair', () => {
  const h = useHarness()

  test('from the 5th failure the pair waits 1 s: 429 with Retry-After even with the right password; then it signs in', async () => {
    await quickUser(h, 'pair.one', 'operator')
    const ip = nextIp()
    await fail(h, 'pair.one', ip, 4)
    // Four failures cost nothing yet.
    expect((await login(h, 'pair.one', 'wrong-again', ip)).status).toBe(401)
    const refused = await login(h, 'pair.one', QUICK_PASSWORD, ip)
    expect(refused).toEqual({ status: 429, code: 'LOGIN_THROTTLED', retryAfter: 1, header: '1' })
    h.clock.advance(SECOND)
    expect((await login(h, 'pair.one', QUICK_PASSWORD, ip)).status).toBe(200)
  })

  test('the waits double with each further failure and stop growing at 5 minutes', async () => {
    const ip = nextIp()
    await fail(h, 'pair.two', ip, 4)
    const waits: number[] = []
    for (let i = 0; i < 11; i++) {
      await fail(h, 'pair.two', ip, 1)
      const refused = await login(h, 'pair.two', 'any-password', ip)
      expect(refused.status).toBe(429)
      expect(refused.header).toBe(String(refused.retryAfter))
      waits.push(refused.retryAfter!)
      // Still refused one second before the end, and the refusal did not count as a failure.
      h.clock.advance(refused.retryAfter! * SECOND - SECOND)
      expect((await login(h, 'pair.two', 'any-password', ip)).retryAfter).toBe(1)
      h.clock.advance(SECOND)
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
  })

  test('the owner signs in from another address while an attacker is held at the 5-minute wait', async () => {
    await quickUser(h, 'pair.owner', 'operator')
    const attacker = nextIp()
    await failPatiently(h, 'pair.owner', attacker, 14)
    expect((await login(h, 'pair.owner', 'guess', attacker)).retryAfter).toBe(300)
    const owner = nextIp()
    expect((await login(h, 'pair.owner', QUICK_PASSWORD, owner)).status).toBe(200)
    // The owner's own typos cost the owner's pair only its free attempts.
    await fail(h, 'PAIR.OWNER', owner, 2)
    expect((await login(h, 'pair.owner', QUICK_PASSWORD, owner)).status).toBe(200)
    // The attacker's pair is untouched by the owner's success.
    expect((await login(h, 'pair.owner', QUICK_PASSWORD, attacker)).status).toBe(429)
  })

  test('a passed check forgets the pair; usernames are counted without case', async () => {
    await quickUser(h, 'pair.reset', 'operator')
    const ip = nextIp()
    await fail(h, 'Pair.Reset', ip, 4)
    expect((await login(h, 'pair.reset', QUICK_PASSWORD, ip)).status).toBe(200)
    await fail(h, 'PAIR.RESET', ip, 4)
    // Eight failures in all, four since the success: free.
    expect((await login(h, 'pair.reset', QUICK_PASSWORD, ip)).status).toBe(200)
  })

  test('a pair is forgotten 15 minutes after its last failure', async () => {
    const ip = nextIp()
    await fail(h, 'pair.forget', ip, 4)
    h.clock.advance(THROTTLE.pair.forgetAfterMs)
    await fail(h, 'pair.forget', ip, 4)
    expect((await login(h, 'pair.forget', 'x-password', ip)).status).toBe(401)
    expect((await login(h, 'pair.forget', 'x-password', ip)).status).toBe(429)
  })

  test('failures below the limits refuse nothing, even stamped later than now (another instance whose clock runs ahead)', async () => {
    await quickUser(h, 'pair.skew', 'operator')
    const ip = nextIp()
    h.clock.advance(30 * SECOND)
    await fail(h, 'pair.skew', ip, 4)
    h.clock.advance(-30 * SECOND)
    expect((await login(h, 'pair.skew', QUICK_PASSWORD, ip)).status).toBe(200)
  })

  test('unknown usernames are throttled the same way (nothing tells that the user does not exist)', async () => {
    const ip = nextIp()
    await fail(h, 'nobody.here', ip, 5)
    expect(await login(h, 'nobody.here', 'whatever-1', ip)).toMatchObject({ status: 429, code: 'LOGIN_THROTTLED', retryAfter: 1 })
  })

  test('parallel guesses cannot slip through together: the 5th failure holds every later one', async () => {
    const ip = nextIp()
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(h, 'pair.burst', `burst-${i}`, ip)))
    expect(answers.filter((a) => a.status === 401)).toHaveLength(5)
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7)
  })

  test('wrong unlock passwords count for the pair too', async () => {
    const u = await quickUser(h, 'pair.unlock', 'operator')
    expect((await h.request('POST', '/api/session/lock', { token: u.token })).status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const res = await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: `guess-${i}` } })
      expect(res.body.detail.code).toBe('WRONG_PASSWORD')
    }
    const blocked = await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: QUICK_PASSWORD } })
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBe('1')
    h.clock.advance(SECOND)
    expect((await h.request('POST', '/api/session/unlock', { token: u.token, body: { password: QUICK_PASSWORD } })).status).toBe(200)
  })
})

describe('sign-in throttling of an account guessed from many addresses', () => {
  const h = useHarness()

  test('20 failures from 20 addresses make failing pairs wait from their first failure; a clean address signs in at once', async () => {
    await quickUser(h, 'spread.target', 'operator')
    const guessers = Array.from({ length: THROTTLE.account.underAttackAt }, nextIp)
    for (const ip of guessers) await fail(h, 'spread.target', ip, 1)
    // Each guessing address now waits after its single failure ...
    for (const ip of guessers.slice(0, 3)) expect(await login(h, 'spread.target', 'next-guess', ip)).toMatchObject({ status: 429, retryAfter: 1 })
    // ... and a further failure doubles it.
    h.clock.advance(SECOND)
    await fail(h, 'spread.target', guessers[0]!, 1)
    expect((await login(h, 'spread.target', 'next-guess', guessers[0]!)).retryAfter).toBe(2)
    // The owner's tablet has no failure for this account: the right password passes.
    expect((await login(h, 'spread.target', QUICK_PASSWORD, nextIp())).status).toBe(200)
    // An owner's typo during the attack costs one second, not a lock-out.
    const owner = nextIp()
    await fail(h, 'spread.target', owner, 1)
    expect((await login(h, 'spread.target', QUICK_PASSWORD, owner)).status).toBe(429)
    h.clock.advance(SECOND)
    expect((await login(h, 'spread.target', QUICK_PASSWORD, owner)).status).toBe(200)
    // Other accounts guessed from those addresses keep their free attempts.
    await fail(h, 'spread.other', guessers[5]!, 4)
  })

  test('below 20 failures across addresses every pair keeps its free attempts', async () => {
    const guessers = Array.from({ length: THROTTLE.account.underAttackAt - 1 }, nextIp)
    for (const ip of guessers) await fail(h, 'spread.quiet', ip, 1)
    // Checked with 19 on the account: no wait for this pair's second failure ...
    await fail(h, 'spread.quiet', guessers[0]!, 1)
    // ... which was the 20th: from now on it waits.
    expect((await login(h, 'spread.quiet', 'guess', guessers[0]!)).status).toBe(429)
  })
})

describe('sign-in throttling per source address, across accounts', () => {
  const h = useHarness()

  test('100 failures in 10 minutes from one address make every attempt from it wait, growing; other addresses are free', async () => {
    await quickUser(h, 'floor.user', 'operator')
    const nat = nextIp()
    // A script spraying one guess per account: no pair reaches its limit.
    for (let i = 0; i < THROTTLE.source.waitFrom - 1; i++) {
      await fail(h, `spray-${i}`, nat, 1)
      h.clock.advance(5 * SECOND) // 99 failures over 8 minutes 15 seconds
    }
    // 99: the floor behind that address still signs in.
    expect((await login(h, 'floor.user', QUICK_PASSWORD, nat)).status).toBe(200)
    await fail(h, 'spray-99', nat, 1)
    // 100: everyone behind the address waits, right password or not.
    expect(await login(h, 'floor.user', QUICK_PASSWORD, nat)).toMatchObject({ status: 429, retryAfter: 1, header: '1' })
    expect((await login(h, 'floor.user', QUICK_PASSWORD, nextIp())).status).toBe(200)
    h.clock.advance(SECOND)
    await fail(h, 'spray-100', nat, 1)
    expect((await login(h, 'someone', 'x', nat)).retryAfter).toBe(2)
    h.clock.advance(2 * SECOND)
    await fail(h, 'spray-101', nat, 1)
    expect((await login(h, 'someone', 'x', nat)).retryAfter).toBe(4)
    // The window closes 10 minutes after its first failure: the address starts afresh.
    h.clock.advance(THROTTLE.source.windowMs - (99 * 5 + 3) * SECOND)
    expect((await login(h, 'floor.user', QUICK_PASSWORD, nat)).status).toBe(200)
  })

  test('a floor that mistypes now and then never adds up: the count restarts with each 10-minute window', async () => {
    await quickUser(h, 'floor.two', 'operator')
    const nat = nextIp()
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < 60; i++) await fail(h, `typo-${window}-${i}`, nat, 1)
      h.clock.advance(THROTTLE.source.windowMs)
    }
    expect((await login(h, 'floor.two', QUICK_PASSWORD, nat)).status).toBe(200)
  })

  test('IPv6 clients count by their /64', async () => {
    expect(sourceKey('2001:db8:1:2:aaaa::1')).toBe(sourceKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'))
    expect(sourceKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(sourceKey('2001:db8:1:3::1')).not.toBe(sourceKey('2001:db8:1:2::1'))
    expect(sourceKey('::1')).toBe('0:0:0:0::/64')
    expect(sourceKey('10.1.2.3')).toBe('10.1.2.3')
    const a = '2001:db8:9:9::1'
    await fail(h, 'six.user', a, 5)
    expect((await login(h, 'six.user', 'x', '2001:db8:9:9::2')).status).toBe(429)
  })

  test('the sweep deletes counters every rule has forgotten', async () => {
    const ip = nextIp()
    await fail(h, 'swept.user', ip, 1)
    const keysNow = async () => (await h.svc.db.selectFrom('login_throttle').select('key').execute()).map((r) => r.key)
    expect(await keysNow()).toContain(`pair:${ip} swept.user`)
    h.clock.advance(15 * MINUTE + 1)
    const report = await runSweeps(h.svc)
    expect(report.forgottenSignInCounters).toBeGreaterThanOrEqual(3)
    expect(await keysNow()).toEqual([])
  })
})

describe('the source address behind a reverse proxy', () => {
  const h = useHarness()
  const PROXY = '10.0.0.2'
  const proxied = () => createApp({ ...h.svc, config: { ...h.svc.config, trustedProxies: ['10.0.0.0/24'], proxyClientHeader: 'x-forwarded-for' } })
  const forwardedFor = (chain: string) => ({ headers: { 'x-forwarded-for': chain } })

  test('trusted proxy: the client address comes from X-Forwarded-For, so the owner behind it is not held by an attacker behind it', async () => {
    await quickUser(h, 'proxy.owner', 'operator')
    const app = proxied()
    await fail(h, 'proxy.owner', PROXY, 5, { app, ...forwardedFor('198.51.100.66') })
    expect((await login(h, 'proxy.owner', QUICK_PASSWORD, PROXY, { app, ...forwardedFor('198.51.100.66') })).status).toBe(429)
    expect((await login(h, 'proxy.owner', QUICK_PASSWORD, PROXY, { app, ...forwardedFor('198.51.100.7') })).status).toBe(200)
  })

  test('trusted proxy: the right-most hop that is not our proxy counts; what the client wrote to its left is ignored', async () => {
    await quickUser(h, 'proxy.chain', 'operator')
    const app = proxied()
    // The attacker forges a new left-most entry each time; our proxy appends the real address.
    for (let i = 0; i < 5; i++) {
      const res = await login(h, 'proxy.chain', `guess-${i}`, PROXY, { app, ...forwardedFor(`192.0.2.${i}, 198.51.100.99, 10.0.0.3`) })
      expect(res.status).toBe(401)
    }
    expect((await login(h, 'proxy.chain', 'guess', PROXY, { app, ...forwardedFor('192.0.2.200, 198.51.100.99') })).status).toBe(429)
  })

  test('not configured (the default): forwarded headers are ignored and the socket address counts', async () => {
    const ip = nextIp()
    for (let i = 0; i < 5; i++) {
      expect((await login(h, 'proxy.none', `guess-${i}`, ip, forwardedFor(`198.51.100.${i}`))).status).toBe(401)
    }
    expect((await login(h, 'proxy.none', 'guess', ip, forwardedFor('198.51.100.250'))).status).toBe(429)
  })

  test('configured, but the request is not from a trusted proxy: its X-Forwarded-For is ignored', async () => {
    const app = proxied()
    const direct = nextIp()
    for (let i = 0; i < 5; i++) {
      expect((await login(h, 'proxy.bypass', `guess-${i}`, direct, { app, ...forwardedFor(`198.51.100.${i}`) })).status).toBe(401)
    }
    expect((await login(h, 'proxy.bypass', 'guess', direct, { app, ...forwardedFor('198.51.100.251') })).status).toBe(429)
  })
})
