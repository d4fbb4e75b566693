import { DOC_TYPES, type DocExtension, docExtension, MAX_DOC_BYTES } from '../../../src/domains/products/files'
import { AppError, badRequest } from '../../errors'
import { inspectImage } from '../../storage/images'
import { invalidField } from '../../input-issues'

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, Math.min(bytes.length, from + length)))
const startsWith = (bytes: Uint8Array, sig: readonly number[]) => sig.every((b, i) => bytes[i] === b)

const ZIP = [0x50, 0x4b, 0x03, 0x04]
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

const unsupported = (why: string) =>
  badRequest(
    'UNSUPPORTED_FILE_TYPE',
    `unsupported file type: ${why}. Allowed: ${Object.keys(DOC_TYPES)
      .filter((e) => e !== 'jpeg')
      .join(', ')}`,
  )

/**
 * The type of a document or field file: the extension must be on the allowlist
 * (src/domains/products/files.ts) and the bytes must be what the extension says.
 * Images must decode (10 MiB at most); text must be UTF-8 without NUL bytes.
 */
export function checkedFileType(name: string, bytes: Uint8Array): { ext: DocExtension; contentType: string } {
  if (bytes.byteLength === 0) throw invalidField({ path: 'file', kind: 'empty_file', message: 'the file is empty' })
  if (bytes.byteLength > MAX_DOC_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'the file is larger than 25 MiB')
  const ext = docExtension(name)
  if (!ext) throw unsupported(`"${name}" has no allowed extension`)
  switch (ext) {
    case 'pdf':
      if (ascii(bytes, 0, 5) !== '%PDF-') throw unsupported('the file is not a PDF')
      return { ext, contentType: DOC_TYPES.pdf }
    case 'png':
    case 'jpg':
    case 'jpeg':
    case 'webp':
    case 'gif': {
      // The real type wins over the extension (a JPEG named .png is served as JPEG).
      const image = inspectImage(bytes)
      return { ext, contentType: image.contentType }
    }
    case 'docx':
    case 'xlsx':
    case 'pptx':
    case 'odt':
    case 'ods':
    case 'odp':
      if (!startsWith(bytes, ZIP)) throw unsupported(`the file is not a .${ext} document`)
      return { ext, contentType: DOC_TYPES[ext] }
    case 'doc':
    case 'xls':
    case 'ppt':
      if (!startsWith(bytes, OLE)) throw unsupported(`the file is not a .${ext} document`)
      return { ext, contentType: DOC_TYPES[ext] }
    case 'txt':
    case 'csv': {
      let ok = !bytes.includes(0)
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes)
      } catch {
        ok = false
      }
      if (!ok) throw unsupported(`the file is not UTF-8 text`)
      return { ext, contentType: DOC_TYPES[ext] }
    }
  }
}

// Control characters, and bidirectional overrides that can disguise an extension.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * The name people read for a document: no folders, no control characters, at most 200
 * characters, the extension kept (lower case when it was upper case).
 */
export function safeDocName(original: string): string {
  const base = (original.split(/[\\/]/).pop() ?? '').replace(UNPRINTABLE, '').replace(/\s+/g, ' ').trim()
  const dot = base.lastIndexOf('.')
  const ext = dot >= 0 ? base.slice(dot + 1).toLowerCase() : ''
  let stem = (dot >= 0 ? base.slice(0, dot) : base).replace(/^[.\s]+|[.\s]+$/g, '')
  if (!stem) stem = 'document'
  stem = [...stem].slice(0, 180).join('')
  return ext ? `${stem}.${ext}` : stem
}

/** A name reduced to one safe storage segment (ASCII letters, digits, `.`, `_`, `-`), extension kept. */
export function storedFileName(original: string): string {
  const display = safeDocName(original)
  const dot = display.lastIndexOf('.')
  const ext = dot > 0 ? display.slice(dot + 1).replace(/[^a-z0-9]/g, '') : ''
  const stem =
    (dot > 0 ? display.slice(0, dot) : display)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/_{2,}/g, '_')
      .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
      .slice(0, 100) || 'file'
  return ext ? `${stem}.${ext}` : stem
}

/** `Content-Disposition` under the file's name (RFC 6266 / 5987), shown in the browser or downloaded. */
export function disposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
