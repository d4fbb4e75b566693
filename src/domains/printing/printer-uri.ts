/**
 * A printer's address as plants write it: `ipp://host[:port]/path` (a network printer, or a CUPS
 * queue such as `ipp://cups:631/printers/Zebra`), `ipps://...` (IPP over TLS, RFC 7472) or
 * `socket://host[:port]` (raw TCP, the JetDirect port of label printers). Shared by the form
 * (what it will save, before saving) and the service (what it saves).
 */
import type { PrinterProtocol } from './schemas'

export const DEFAULT_PORTS: Record<PrinterProtocol, number> = { ipp: 631, ipps: 631, raw: 9100 }
export const DEFAULT_IPP_PATH = '/ipp/print'

const SCHEMES: Record<string, PrinterProtocol> = { 'ipp:': 'ipp', 'ipps:': 'ipps', 'socket:': 'raw' }

export type PrinterAddress = { protocol: PrinterProtocol; host: string; port: number; path: string }

/** The address a URI names, or why it names none (in English; the form says it in the user's language). */
export function parsePrinterUri(text: string): { ok: true; address: PrinterAddress } | { ok: false; reason: 'scheme' | 'host' | 'port' | 'path' | 'syntax' } {
  const trimmed = text.trim()
  const scheme = /^([a-z]+:)\/\//i.exec(trimmed)?.[1]?.toLowerCase()
  if (!scheme) return { ok: false, reason: 'syntax' }
  const protocol = SCHEMES[scheme]
  if (!protocol) return { ok: false, reason: 'scheme' }
  let url: URL
  try {
    // URL parses special schemes only: read the rest as http to get host, port and path.
    url = new URL(`http://${trimmed.slice(scheme.length + 2)}`)
  } catch {
    return { ok: false, reason: 'syntax' }
  }
  if (url.username || url.password || url.search || url.hash) return { ok: false, reason: 'syntax' }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!host || !/^[A-Za-z0-9.:_-]+$/.test(host)) return { ok: false, reason: 'host' }
  // URL drops the port when it is http's own 80: read it back from the text.
  const explicitPort = /^[^/]*:(\d+)(?:\/|$)/.exec(trimmed.slice(scheme.length + 2).replace(/^\[[^\]]*\]/, ''))?.[1]
  const port = explicitPort ? Number(explicitPort) : DEFAULT_PORTS[protocol]
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, reason: 'port' }
  const path = protocol === 'raw' ? '' : url.pathname === '/' ? DEFAULT_IPP_PATH : url.pathname
  if (protocol === 'raw' ? url.pathname !== '/' : !/^\/[A-Za-z0-9/._~-]*$/.test(path)) return { ok: false, reason: 'path' }
  return { ok: true, address: { protocol, host, port, path: protocol === 'raw' ? DEFAULT_IPP_PATH : path } }
}

/** The URI a stored printer is reached at, as the list shows it. */
export function printerUri(p: PrinterAddress): string {
  const host = p.host.includes(':') ? `[${p.host}]` : p.host
  return p.protocol === 'raw' ? `socket://${host}:${p.port}` : `${p.protocol}://${host}:${p.port}${p.path}`
}
