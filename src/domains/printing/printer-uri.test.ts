import { describe, expect, test } from 'bun:test'
import { parsePrinterUri, printerUri } from './printer-uri'

describe('a printer by its URI', () => {
  test('ipp, ipps (a CUPS queue) and socket read into protocol, host, port and path; defaults filled', () => {
    expect(parsePrinterUri('ipp://printer.local/ipp/print')).toEqual({ ok: true, address: { protocol: 'ipp', host: 'printer.local', port: 631, path: '/ipp/print' } })
    expect(parsePrinterUri(' IPPS://cups:8631/printers/Zebra_ZT411 ')).toEqual({ ok: true, address: { protocol: 'ipps', host: 'cups', port: 8631, path: '/printers/Zebra_ZT411' } })
    expect(parsePrinterUri('ipp://10.0.0.7')).toEqual({ ok: true, address: { protocol: 'ipp', host: '10.0.0.7', port: 631, path: '/ipp/print' } })
    expect(parsePrinterUri('ipp://10.0.0.7:80/ipp')).toEqual({ ok: true, address: { protocol: 'ipp', host: '10.0.0.7', port: 80, path: '/ipp' } })
    expect(parsePrinterUri('socket://192.168.1.50')).toMatchObject({ ok: true, address: { protocol: 'raw', host: '192.168.1.50', port: 9100 } })
    expect(parsePrinterUri('socket://[fe80::1]:9101')).toMatchObject({ ok: true, address: { protocol: 'raw', host: 'fe80::1', port: 9101 } })
  })

  test('what names no printer says why', () => {
    expect(parsePrinterUri('printer.local:631')).toEqual({ ok: false, reason: 'syntax' })
    expect(parsePrinterUri('lpd://printer/queue')).toEqual({ ok: false, reason: 'scheme' })
    expect(parsePrinterUri('ipp://printer:70000/ipp')).toEqual({ ok: false, reason: 'syntax' })
    expect(parsePrinterUri('ipp://printer/a b')).toEqual({ ok: false, reason: 'path' })
    // Percent escapes, even broken ones, are refused as a path, never thrown.
    expect(parsePrinterUri('ipp://printer/%zz')).toEqual({ ok: false, reason: 'path' })
    expect(parsePrinterUri('socket://printer:9100/queue')).toEqual({ ok: false, reason: 'path' })
    expect(parsePrinterUri('ipp://user:pw@printer/ipp')).toEqual({ ok: false, reason: 'syntax' })
  })

  test('a stored printer reads back as the URI it was given', () => {
    for (const uri of ['ipp://printer.local:631/ipp/print', 'ipps://cups:631/printers/Zebra', 'socket://[fe80::1]:9100']) {
      const parsed = parsePrinterUri(uri)
      if (!parsed.ok) throw new Error(uri)
      expect(printerUri(parsed.address)).toBe(uri)
    }
  })
})
