import { MAX_MEDIA_IMAGE_BYTES, MEDIA_TYPES, type MediaContentType } from '../../../src/domains/process/media'
import { badRequest } from '../../errors'
import { inspectImage } from '../../storage/images'
import { invalidField } from '../../input-issues'

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, Math.min(bytes.length, from + length)))
const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b)

/** ISO base media brands that browsers play as MP4 (not QuickTime, not HEIF/AVIF images). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9', 'mp41', 'mp42', 'mp71', 'avc1', 'M4V ', 'M4VH', 'M4VP', 'dash', 'MSNV', 'f4v '])

/** Recognises an allowed media type from the file's own bytes; null for anything else. */
export function sniffMediaType(bytes: Uint8Array): MediaContentType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'image/gif'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp'
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf'
  if (ascii(bytes, 4, 4) === 'ftyp' && MP4_BRANDS.has(ascii(bytes, 8, 4))) return 'video/mp4'
  // EBML header whose DocType is "webm" (Matroska files say "matroska").
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]) && ascii(bytes, 4, 60).includes('webm')) return 'video/webm'
  return null
}

/**
 * The content type of an upload, decided from its bytes; images must also decode (dimensions,
 * at most 10 MiB). Anything else is refused with UNSUPPORTED_MEDIA_TYPE.
 */
export function checkedMediaType(bytes: Uint8Array): MediaContentType {
  if (bytes.byteLength === 0) throw invalidField({ path: 'file', kind: 'empty_file', message: 'the file is empty' })
  const type = sniffMediaType(bytes)
  if (!type) {
    throw badRequest(
      'UNSUPPORTED_MEDIA_TYPE',
      'unsupported file type: upload PNG, JPEG, WebP or GIF images, PDF documents or MP4/WebM videos',
    )
  }
  if (type.startsWith('image/')) {
    if (bytes.byteLength > MAX_MEDIA_IMAGE_BYTES) throw badRequest('INVALID_IMAGE', 'the image is larger than 10 MiB')
    inspectImage(bytes)
  }
  return type
}

// Control characters, and bidirectional overrides that can disguise an extension.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * Names for an uploaded file: `display` is what people read (no folders, no control characters,
 * at most 200 characters, the extension of the real type); `stored` is the same name reduced to
 * a safe storage segment (ASCII letters, digits, `.`, `_`, `-`).
 */
export function safeFilenames(original: string, type: MediaContentType): { display: string; stored: string } {
  const ext = MEDIA_TYPES[type]
  const base = (original.split(/[\\/]/).pop() ?? '').replace(UNPRINTABLE, '').replace(/\s+/g, ' ').trim()
  const dot = base.lastIndexOf('.')
  const givenExt = dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
  const sameType = givenExt === ext || (ext === 'jpg' && givenExt === 'jpeg')
  let stem = (dot > 0 ? base.slice(0, dot) : base).replace(/^[.\s]+|[.\s]+$/g, '')
  if (!stem) stem = 'file'
  stem = [...stem].slice(0, 180).join('')
  const display = `${stem}.${sameType ? base.slice(dot + 1) : ext}`
  const storedStem =
    stem
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/_{2,}/g, '_')
      .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
      .slice(0, 100) || 'file'
  return { display, stored: `${storedStem}.${ext}` }
}

/** `Content-Disposition` that shows the file in the browser under its name (RFC 6266 / 5987). */
export function inlineDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `inline; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
