import net from 'node:net'
import type { Context } from 'hono'
import { getConnInfo } from 'hono/bun'
import type { Config } from '../config'

/** Where a request came from, as far as the app may believe it. */
export type RequestSource = { ip: string | null; https: boolean }

const familyOf = (address: string) => (net.isIPv6(address) ? 'ipv6' : 'ipv4')

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address)

/** A forwarded hop as some proxies write it (`10.0.0.1:5123`, `[2001:db8::1]:443`) without its port. */
const withoutPort = (hop: string) => hop.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1')

function proxyList(entries: readonly string[]): net.BlockList | null {
  if (entries.length === 0) return null
  const list = new net.BlockList()
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/')
    if (bits === undefined) list.addAddress(address, familyOf(address))
    else list.addSubnet(address, Number(bits), familyOf(address))
  }
  return list
}

function socketAddress(c: Context): string | null {
  try {
    const address = getConnInfo(c).remote.address
    return address ? unmapped(address) : null
  } catch {
    return null // app.request() without a server (tests) has no socket
  }
}

/** Every comma-separated value of a header, in order (several header lines are joined by commas). */
const values = (header: string | undefined) =>
  (header ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)

/**
 * Reads a request's source address and scheme. By default the socket decides: its peer address,
 * and HTTPS only when the server itself was reached over TLS. When the peer is one of the
 * configured reverse proxies (MES_TRUST_PROXY), the proxy's word is taken instead:
 * - the client address from the configured header (MES_TRUSTED_PROXY_HEADER, X-Forwarded-For by
 *   default): its right-most entry that is not itself a trusted proxy, since everything to the
 *   left of it was written by the client and may be forged;
 * - HTTPS from X-Forwarded-Proto's right-most value (the one our nearest proxy wrote).
 * A request from anywhere else cannot make the app believe these headers.
 */
export function requestSourceReader(config: Pick<Config, 'trustedProxies' | 'proxyClientHeader'>) {
  const proxies = proxyList(config.trustedProxies)
  const trusted = (address: string) => net.isIP(address) !== 0 && proxies !== null && proxies.check(address, familyOf(address))
  return (c: Context): RequestSource => {
    const peer = socketAddress(c)
    const directHttps = c.req.url.startsWith('https:')
    if (peer === null || !trusted(peer)) return { ip: peer, https: directHttps }
    const hops = values(c.req.header(config.proxyClientHeader)).map((hop) => unmapped(withoutPort(hop)))
    // From the right: the first hop that is not one of our proxies (all of them are: the left-most).
    const client = hops.findLast((hop) => !trusted(hop)) ?? hops[0]
    const proto = values(c.req.header('x-forwarded-proto')).at(-1)?.toLowerCase()
    return {
      ip: client !== undefined && net.isIP(client) ? client : peer,
      https: directHttps || proto === 'https',
    }
  }
}
