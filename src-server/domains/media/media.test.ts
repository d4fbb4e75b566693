import { beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { MAX_MEDIA_BYTES } from '../../../src/domains/process/media'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'
import { pngBytes } from '../../test/png'
import { inlineDisposition, safeFilenames, sniffMediaType } from './files'

const bytesOf = (text: string) => new TextEncoder().encode(text)
const PDF = bytesOf('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
/** An ISO-BMFF header with the `isom` brand: what MP4 files start with. */
const MP4 = new Uint8Array([0, 0, 0, 0x20, ...bytesOf('ftypisom'), 0, 0, 2, 0, ...bytesOf('isomiso2avc1mp41'), ...new Uint8Array(64)])
/** HEIF images use the same container with an image brand: not a video. */
const HEIC = new Uint8Array([0, 0, 0, 0x18, ...bytesOf('ftypheic'), 0, 0, 0, 0, ...bytesOf('mif1heic'), ...new Uint8Array(16)])
/** EBML header with DocType "webm". */
const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...bytesOf('webm'), ...new Uint8Array(64)])

function fileForm(bytes: Uint8Array, name: string, type = 'application/octet-stream', field = 'file') {
  const form = new FormData()
  form.append(field, new File([new Uint8Array(bytes)], name, { type }))
  return form
}

/** Everything an upload could have written: rows, events, stored files. */
async function written(h: Harness) {
  const media = await h.svc.db.selectFrom('media').select('id').execute()
  const events = await h.svc.db.selectFrom('events').select('id').where('event_type', '=', 'MEDIA_CREATED').execute()
  const dir = path.join(h.svc.config.dataDir, 'files', 'media')
  let files: string[] = []
  try {
    files = readdirSync(dir, { recursive: true }).map(String)
  } catch {}
  return { media: media.length, events: events.length, files: files.length }
}

describe('media uploads', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })

  const upload = (bytes: Uint8Array, name: string, token = admin, type?: string) =>
    h.request('POST', '/api/media/create', { token, body: fileForm(bytes, name, type) })

  test('an image is stored and served at /media/{key} with its type and name, behind sign-in', async () => {
    const png = pngBytes(4, 3)
    const res = await upload(png, 'Foto pezzo.png', admin, 'image/png')
    expect(res.status).toBe(201)
    const media = res.body.detail
    expect(media._key).toMatch(/^[0-9a-f-]{36}$/)
    expect(media).toMatchObject({ filename: 'Foto pezzo.png', content_type: 'image/png', size: png.byteLength, url: `/media/${media._key}` })

    const file = await h.request('GET', `/media/${media._key}`, { token: admin })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="Foto pezzo.png"; filename*=UTF-8''Foto%20pezzo.png`)
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    const raw = await h.app.request(`http://mes.test/media/${media._key}`, { headers: { authorization: `Bearer ${admin}` } })
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(png)

    expect((await h.request('GET', `/media/${media._key}`)).status).toBe(401)
    expect((await h.request('GET', `/media/${crypto.randomUUID()}`, { token: admin })).status).toBe(404)
    // Stored files by path: broken percent-encoding or an unsafe key names no file (never a 500).
    for (const p of ['/media/%E0%A4%A', '/media/users/%ZZ/x.png', '/media/users/a%00b.png', '/media/users/..%2Fx']) {
      const res = await h.request('GET', p, { token: admin })
      expect({ p, status: res.status, code: res.body.detail.code }).toEqual({ p, status: 404, code: 'NOT_FOUND' })
    }

    const meta = await h.request('GET', `/api/media/${media._key}`, { token: admin })
    expect(meta.body.detail).toEqual(media)

    const events = await h.svc.db.selectFrom('events').selectAll().where('event_type', '=', 'MEDIA_CREATED').execute()
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ subject_type: 'media', subject_key: media._key })
    expect(events[0]!.data).toMatchObject({ filename: 'Foto pezzo.png', content_type: 'image/png' })
  })

  test('PDF and MP4/WebM videos are recognised from their bytes, whatever the client says', async () => {
    for (const [bytes, name, type] of [
      [PDF, 'istruzioni.bin', 'application/pdf'],
      [MP4, 'montaggio.mp4', 'video/mp4'],
      [WEBM, 'collaudo.webm', 'video/webm'],
    ] as const) {
      const res = await upload(bytes, name, admin, 'text/plain')
      expect(res.status).toBe(201)
      expect(res.body.detail.content_type).toBe(type)
      const file = await h.request('GET', `/media/${res.body.detail._key}`, { token: admin })
      expect(file.headers.get('content-type')).toBe(type)
    }
  })

  test('videos can seek: a byte range answers 206 with Content-Range', async () => {
    const res = await upload(MP4, 'clip.mp4')
    const key = res.body.detail._key
    const part = await h.app.request(`http://mes.test/media/${key}`, { headers: { authorization: `Bearer ${admin}`, range: 'bytes=4-11' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${MP4.byteLength}`)
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('ftypisom')
    const beyond = await h.app.request(`http://mes.test/media/${key}`, { headers: { authorization: `Bearer ${admin}`, range: 'bytes=99999-' } })
    expect(beyond.status).toBe(416)
  })

  test('other types are refused with 400 UNSUPPORTED_MEDIA_TYPE and nothing is written', async () => {
    const before = await written(h)
    for (const [bytes, name, type] of [
      [bytesOf('just text, named like an image'), 'photo.png', 'image/png'],
      [bytesOf('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'],
      [bytesOf('<html><script>alert(1)</script></html>'), 'page.html', 'text/html'],
      [bytesOf('MZ\x90\x00'), 'tool.exe', 'application/octet-stream'],
      [HEIC, 'photo.heic', 'image/heic'],
    ] as const) {
      const res = await upload(bytes, name, admin, type)
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('UNSUPPORTED_MEDIA_TYPE')
      expect(res.body.detail.message).toContain('unsupported file type')
    }
    const broken = await upload(pngBytes(2, 2).subarray(0, 20), 'broken.png')
    expect(broken.status).toBe(400)
    expect(broken.body.detail.code).toBe('INVALID_IMAGE')
    const empty = await upload(new Uint8Array(), 'empty.pdf')
    expect(empty.status).toBe(400)
    expect(empty.body.detail).toMatchObject({ message: 'file: the file is empty', issues: [{ path: 'file', kind: 'empty_file', message: 'the file is empty' }] })
    expect(await written(h)).toEqual(before)
  })

  test('files above 25 MiB are refused with 413 and nothing is written; images above 10 MiB too', async () => {
    const before = await written(h)
    const big = new Uint8Array(MAX_MEDIA_BYTES + 1)
    big.set(PDF)
    const res = await upload(big, 'big.pdf')
    expect(res.status).toBe(413)
    expect(res.body.detail.code).toBe('PAYLOAD_TOO_LARGE')
    const bigImage = new Uint8Array(11 * 1024 * 1024)
    bigImage.set(pngBytes(2, 2))
    const image = await upload(bigImage, 'big.png')
    expect(image.status).toBe(400)
    expect(image.body.detail).toMatchObject({ code: 'INVALID_IMAGE', message: 'the image is larger than 10 MiB' })
    expect(await written(h)).toEqual(before)
  })

  test('file names are made safe: no folders, no control characters, the real extension', async () => {
    const res = await upload(pngBytes(2, 2), '../../etc/passwd.png')
    expect(res.body.detail.filename).toBe('passwd.png')
    const row = await h.svc.db.selectFrom('media').select('storage_key').where('id', '=', res.body.detail._key).executeTakeFirstOrThrow()
    expect(row.storage_key).toBe(`media/${res.body.detail._key}/passwd.png`)

    const tricky = await upload(PDF, 'C:\\temp\\Schéma\u202Efdp.exe')
    expect(tricky.body.detail.filename).toBe('Schémafdp.pdf')
    const file = await h.request('GET', `/media/${tricky.body.detail._key}`, { token: admin })
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="Sch_mafdp.pdf"; filename*=UTF-8''Sch%C3%A9mafdp.pdf`)
    const stored = await h.svc.db.selectFrom('media').select('storage_key').where('id', '=', tricky.body.detail._key).executeTakeFirstOrThrow()
    expect(stored.storage_key).toBe(`media/${tricky.body.detail._key}/Schemafdp.pdf`)
  })

  test('a file sent without a name (an empty or NUL filename) is stored as "file" (found by the route fuzz test: it was a 500)', async () => {
    for (const name of ['', '\u0000']) {
      const res = await upload(pngBytes(2, 2), name)
      expect({ name, status: res.status, filename: res.body.detail.filename }).toEqual({ name, status: 201, filename: 'file.png' })
    }
  })

  test('a multipart body without the file field is a 400', async () => {
    const res = await h.request('POST', '/api/media/create', { token: admin, body: fileForm(PDF, 'a.pdf', 'application/pdf', 'new_doc') })
    expect(res.status).toBe(400)
    expect(res.body.detail.code).toBe('INVALID_INPUT')
    const json = await h.request('POST', '/api/media/create', { token: admin, body: { file: 'x' } })
    expect(json.status).toBe(400)
  })

  test('admins and library staff upload; other users may only read', async () => {
    const library = await userWithScope(h, 'lib1', 'library')
    const operator = await userWithScope(h, 'op1', 'operator')
    const up = await upload(PDF, 'doc.pdf', library.token)
    expect(up.status).toBe(201)
    expect((await upload(PDF, 'doc.pdf', operator.token)).status).toBe(403)
    expect((await h.request('GET', `/media/${up.body.detail._key}`, { token: operator.token })).status).toBe(200)
    expect((await h.request('POST', '/api/media/create', { body: fileForm(PDF, 'a.pdf') })).status).toBe(401)
  })
})

describe('media file rules', () => {
  test('types come from signatures only', () => {
    expect(sniffMediaType(pngBytes(1, 1))).toBe('image/png')
    expect(sniffMediaType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(sniffMediaType(bytesOf('GIF89a....'))).toBe('image/gif')
    expect(sniffMediaType(bytesOf('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(sniffMediaType(PDF)).toBe('application/pdf')
    expect(sniffMediaType(MP4)).toBe('video/mp4')
    expect(sniffMediaType(WEBM)).toBe('video/webm')
    expect(sniffMediaType(HEIC)).toBeNull()
    expect(sniffMediaType(bytesOf(' %PDF-1.4'))).toBeNull()
  })

  test('safe names', () => {
    expect(safeFilenames('photo.JPEG', 'image/jpeg')).toEqual({ display: 'photo.JPEG', stored: 'photo.jpg' })
    expect(safeFilenames('..', 'application/pdf')).toEqual({ display: 'file.pdf', stored: 'file.pdf' })
    expect(safeFilenames('a..b\u0000c.pdf', 'application/pdf')).toEqual({ display: 'a..bc.pdf', stored: 'a.bc.pdf' })
    expect(safeFilenames('manuale', 'application/pdf').display).toBe('manuale.pdf')
    expect(safeFilenames('数据.pdf', 'application/pdf')).toEqual({ display: '数据.pdf', stored: 'file.pdf' })
    expect(safeFilenames(`${'x'.repeat(500)}.pdf`, 'application/pdf').display).toHaveLength(184)
    expect(inlineDisposition('a"b\\c.pdf')).toBe(`inline; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`)
  })
})
