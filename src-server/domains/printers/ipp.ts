/**
 * A minimal IPP/1.1 client (RFC 8010 encoding, RFC 8011 Print-Job): enough to send one PDF to a
 * printer and read whether it accepted it. The `ipp` npm package is unmaintained, and Print-Job is
 * a few dozen bytes of framing: operation attributes (charset, language, printer-uri, user, job
 * name, document-format) then the document, POSTed as application/ipp over HTTP.
 */

const TAG = {
  operationAttributes: 0x01,
  jobAttributes: 0x02,
  end: 0x03,
  printerAttributes: 0x04,
  unsupportedAttributes: 0x05,
  integer: 0x21,
  enum: 0x23,
  textWithoutLanguage: 0x41,
  nameWithoutLanguage: 0x42,
  keyword: 0x44,
  uri: 0x45,
  charset: 0x47,
  naturalLanguage: 0x48,
  mimeMediaType: 0x49,
} as const

export const OPERATION = { printJob: 0x0002, getPrinterAttributes: 0x000b } as const

type Attribute = [tag: number, name: string, value: string]

const encoder = new TextEncoder()

/** One IPP request: header, operation attributes, end tag, then the document (if any). */
export function encodeRequest(operation: number, requestId: number, attributes: readonly Attribute[], document?: Uint8Array): Uint8Array {
  const parts: number[] = [0x01, 0x01, operation >> 8, operation & 0xff, (requestId >>> 24) & 0xff, (requestId >>> 16) & 0xff, (requestId >>> 8) & 0xff, requestId & 0xff]
  parts.push(TAG.operationAttributes)
  for (const [tag, name, value] of attributes) {
    const n = encoder.encode(name)
    const v = encoder.encode(value)
    if (n.length > 0xffff || v.length > 0xffff) throw new Error('IPP attribute too long')
    parts.push(tag, n.length >> 8, n.length & 0xff, ...n, v.length >> 8, v.length & 0xff, ...v)
  }
  parts.push(TAG.end)
  const head = Uint8Array.from(parts)
  if (!document) return head
  const out = new Uint8Array(head.length + document.length)
  out.set(head)
  out.set(document, head.length)
  return out
}

export type IppResponse = { version: string; statusCode: number; requestId: number; attributes: Record<string, (string | number)[]> }

/** Reads an IPP response: status code and the attributes of every group (integers as numbers). */
export function decodeResponse(bytes: Uint8Array): IppResponse {
  if (bytes.length < 9) throw new Error('IPP response too short')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const statusCode = view.getUint16(2)
  const requestId = view.getUint32(4)
  const attributes: Record<string, (string | number)[]> = {}
  const decoder = new TextDecoder()
  let at = 8
  let last = ''
  while (at < bytes.length) {
    const tag = bytes[at++]!
    if (tag === TAG.end) break
    if (tag <= 0x0f) continue // a new group
    if (at + 2 > bytes.length) throw new Error('IPP response truncated')
    const nameLength = view.getUint16(at)
    at += 2
    const name = nameLength ? decoder.decode(bytes.subarray(at, at + nameLength)) : last
    at += nameLength
    const valueLength = view.getUint16(at)
    at += 2
    if (at + valueLength > bytes.length) throw new Error('IPP response truncated')
    const raw = bytes.subarray(at, at + valueLength)
    at += valueLength
    const value = (tag === TAG.integer || tag === TAG.enum) && valueLength === 4 ? view.getInt32(at - 4) : decoder.decode(raw)
    ;(attributes[name] ??= []).push(value)
    last = name
  }
  return { version: `${bytes[0]}.${bytes[1]}`, statusCode, requestId, attributes }
}

export type SendResult = { accepted: boolean; message: string; jobId?: number }

/** Thrown when the printer cannot be reached (refused, no route, timeout, not an IPP answer). */
export class PrinterUnreachable extends Error {}

let nextRequestId = 1

/**
 * Print-Job to `ipp://host:port/path` over HTTP. Accepted when the status is successful
 * (0x0000-0x00ff); refused otherwise with the printer's status-message. Gives up after timeoutMs.
 */
export async function ippPrintJob(opts: {
  host: string
  port: number
  path: string
  /** IPP over TLS (ipps://). */
  tls?: boolean
  document: Uint8Array
  jobName: string
  user: string
  timeoutMs: number
  format?: string
  /** How long to keep retrying while the printer answers busy (server-error-busy, 0x0507). */
  busyWaitMs?: number
}): Promise<SendResult> {
  const until = Date.now() + (opts.busyWaitMs ?? 0)
  for (;;) {
    const result = await ippPrintJobOnce(opts)
    if (!result.busy || Date.now() + 1000 > until) return { accepted: result.accepted, message: result.message, jobId: result.jobId }
    await Bun.sleep(1000)
  }
}

async function ippPrintJobOnce(opts: {
  host: string
  port: number
  path: string
  /** IPP over TLS (ipps://). */
  tls?: boolean
  document: Uint8Array
  jobName: string
  user: string
  timeoutMs: number
  format?: string
}): Promise<SendResult & { busy: boolean }> {
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host
  const printerUri = `${opts.tls ? 'ipps' : 'ipp'}://${host}:${opts.port}${opts.path}`
  const requestId = nextRequestId++ & 0x7fffffff || 1
  const body = encodeRequest(
    OPERATION.printJob,
    requestId,
    [
      [TAG.charset, 'attributes-charset', 'utf-8'],
      [TAG.naturalLanguage, 'attributes-natural-language', 'en'],
      [TAG.uri, 'printer-uri', printerUri],
      [TAG.nameWithoutLanguage, 'requesting-user-name', opts.user.slice(0, 255) || 'mes'],
      [TAG.nameWithoutLanguage, 'job-name', opts.jobName.slice(0, 255) || 'mes'],
      [TAG.mimeMediaType, 'document-format', opts.format ?? 'application/pdf'],
    ],
    opts.document,
  )
  let res: Response
  let bytes: Uint8Array
  try {
    res = await fetch(`${opts.tls ? 'https' : 'http'}://${host}:${opts.port}${opts.path}`, {
      // Printers and print servers on a plant network present self-signed certificates (CUPS and
      // ippeveprinter make their own): TLS here keeps the document private on the wire; it does not
      // vouch for the printer (docs/printing.md).
      ...(opts.tls ? { tls: { rejectUnauthorized: false } } : {}),
      method: 'POST',
      headers: { 'content-type': 'application/ipp' },
      body: body as Uint8Array<ArrayBuffer>,
      signal: AbortSignal.timeout(opts.timeoutMs),
    })
    bytes = new Uint8Array(await res.arrayBuffer())
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
    throw new PrinterUnreachable(timedOut ? `no answer within ${opts.timeoutMs / 1000} s` : `connection failed (${e instanceof Error ? e.message : String(e)})`)
  }
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('application/ipp')) {
    throw new PrinterUnreachable(`not an IPP printer at ${printerUri} (HTTP ${res.status})`)
  }
  let decoded: IppResponse
  try {
    decoded = decodeResponse(bytes)
  } catch (e) {
    throw new PrinterUnreachable(`unreadable IPP answer: ${e instanceof Error ? e.message : String(e)}`)
  }
  const status = `0x${decoded.statusCode.toString(16).padStart(4, '0')}`
  const statusMessage = decoded.attributes['status-message']?.[0]
  const jobId = decoded.attributes['job-id']?.[0]
  if (decoded.statusCode <= 0x00ff) {
    return { accepted: true, busy: false, message: `job ${jobId ?? '?'} accepted (${status})`, jobId: typeof jobId === 'number' ? jobId : undefined }
  }
  return { accepted: false, busy: decoded.statusCode === 0x0507, message: `refused: ${statusMessage ?? ''} (${status})`.replace(':  (', ' (') }
}
