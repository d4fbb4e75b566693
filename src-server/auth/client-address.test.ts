import { describe, expect, test } from 'bun:test'
import { Hono } from 'hono'
import { requestSourceReader } from './client-address'

/** What the reader makes of one request from socket address `peer` (Hono's getConnInfo reads it from the env). */
async function sourceOf(trustedProxies: string[], peer: string | null, headers: Record<string, string> = {}, url = 'http://mes.test/x') {
  const read = requestSourceReader({ trustedProxies, proxyClientHeader: 'x-forwarded-for' })
  const app = new Hono().get('/x', (c) => c.json(read(c)))
  const env = peer === null ? undefined : { requestIP: () => ({ address: peer, family: peer.includes(':') ? 'IPv6' : 'IPv4', port: 40000 }) }
  return (await app.request(url, { headers }, env)).json()
}

describe('the source address and scheme of a request', () => {
  test('no proxy trusted: the socket address and the URL scheme, whatever the headers say', async () => {
    const forged = { 'x-forwarded-for': '198.51.100.1', 'x-forwarded-proto': 'https' }
    expect(await sourceOf([], '192.0.2.5', forged)).toEqual({ ip: '192.0.2.5', https: false })
    expect(await sourceOf([], '192.0.2.5', {}, 'https://mes.test/x')).toEqual({ ip: '192.0.2.5', https: true })
    expect(await sourceOf([], null)).toEqual({ ip: null, https: false })
  })

  test('an IPv4 client on a dual-stack socket is its IPv4 address, and matches an IPv4 proxy range', async () => {
    expect(await sourceOf([], '::ffff:192.0.2.5')).toEqual({ ip: '192.0.2.5', https: false })
    expect(await sourceOf(['10.0.0.0/24'], '::ffff:10.0.0.7', { 'x-forwarded-for': '198.51.100.1' })).toEqual({ ip: '198.51.100.1', https: false })
  })

  test('a trusted proxy: the right-most hop that is not a trusted proxy; ports and brackets dropped', async () => {
    const proxies = ['10.0.0.0/24', '2001:db8:ffff::/48']
    expect(await sourceOf(proxies, '10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.9' })).toMatchObject({ ip: '198.51.100.1' })
    expect(await sourceOf(proxies, '10.0.0.2', { 'x-forwarded-for': '198.51.100.1:51234' })).toMatchObject({ ip: '198.51.100.1' })
    expect(await sourceOf(proxies, '2001:db8:ffff::1', { 'x-forwarded-for': '[2001:db8:1::5]:443' })).toMatchObject({ ip: '2001:db8:1::5' })
    // Only proxies in the chain: the left-most; no header or an unreadable hop: the proxy itself.
    expect(await sourceOf(proxies, '10.0.0.2', { 'x-forwarded-for': '10.0.0.4, 10.0.0.3' })).toMatchObject({ ip: '10.0.0.4' })
    expect(await sourceOf(proxies, '10.0.0.2')).toMatchObject({ ip: '10.0.0.2' })
    expect(await sourceOf(proxies, '10.0.0.2', { 'x-forwarded-for': 'unknown' })).toMatchObject({ ip: '10.0.0.2' })
  })

  test("a trusted proxy's X-Forwarded-Proto: its last value decides", async () => {
    expect(await sourceOf(['10.0.0.2'], '10.0.0.2', { 'x-forwarded-proto': 'https' })).toMatchObject({ https: true })
    expect(await sourceOf(['10.0.0.2'], '10.0.0.2', { 'x-forwarded-proto': 'HTTPS' })).toMatchObject({ https: true })
    expect(await sourceOf(['10.0.0.2'], '10.0.0.2', { 'x-forwarded-proto': 'https, http' })).toMatchObject({ https: false })
    expect(await sourceOf(['10.0.0.2'], '10.0.0.3', { 'x-forwarded-proto': 'https' })).toMatchObject({ https: false })
  })
})
