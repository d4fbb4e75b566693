import { beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { MAX_DOC_BYTES } from '../../../src/domains/products/files'
import { adminToken, appCode, MISSING_UUID, tableCounts } from '../../test/fixtures'
import { type Harness, userWithScope, useHarness } from '../../test/harness'
import { pngBytes } from '../../test/png'
import { disposition, safeDocName, storedFileName } from './file-types'

const bytesOf = (text: string) => new TextEncoder().encode(text)
const PDF = bytesOf('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
const PDF2 = bytesOf('%PDF-1.4\n% second version\n%%EOF\n')
/** The start of a ZIP container, as OOXML and ODF files are. */
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, ...new Uint8Array(40)])
const OLE = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Uint8Array(40)])

function form(field: string, bytes: Uint8Array, name: string, type = 'application/octet-stream') {
  const f = new FormData()
  f.append(field, new File([new Uint8Array(bytes)], name, { type }))
  return f
}

/** Files stored for products, relative to the store. */
function storedFiles(h: Harness): string[] {
  const dir = path.join(h.svc.config.dataDir, 'files', 'products')
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort()
  } catch {
    return []
  }
}

async function written(h: Harness) {
  return { tables: await tableCounts(h), files: storedFiles(h) }
}

describe('product image and documents', () => {
  const h = useHarness()
  let lib: string
  let key: string

  beforeAll(async () => {
    lib = (await userWithScope(h, 'lib', 'library')).token
    key = (await h.request('POST', '/api/product', { token: lib, body: { code: 'DOC-1' } })).body.detail._key
  })

  const uploadDoc = (bytes: Uint8Array, name: string, replace?: boolean, token = lib) =>
    h.request('POST', `/api/product/${key}/doc${replace ? '?replace=true' : ''}`, { token, body: form('new_doc', bytes, name) })
  const raw = (url: string, token = lib) => h.app.request(`http://mes.test${url}`, { headers: { authorization: `Bearer ${token}` } })

  test('PUT image: decoded, stored, served; replacing removes the old file; DELETE removes it', async () => {
    const png = pngBytes(40, 30)
    const res = await h.request('PUT', `/api/product/${key}/image`, { token: lib, body: form('new_image', png, 'foto.png', 'image/png') })
    expect(res.status).toBe(200)
    const url = res.body.detail.image_url as string
    expect(url).toMatch(new RegExp(`^/media/products/${key}/image-\\d+-[0-9a-f]{8}\\.png$`))
    const served = await raw(url)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)
    expect((await h.request('GET', url)).status).toBe(401)

    const second = await h.request('PUT', `/api/product/${key}/image`, { token: lib, body: form('new_image', pngBytes(8, 8), 'x.png') })
    expect(second.body.detail.image_url).not.toBe(url)
    expect(storedFiles(h).filter((f) => f.includes('image-'))).toHaveLength(1)
    expect((await raw(url)).status).toBe(404)

    const list = await h.request('GET', '/api/product?search=DOC-1', { token: lib })
    expect(list.body.detail.rows[0].image_url).toBe(second.body.detail.image_url)

    // Not an image (whatever the name and type say): refused, nothing written.
    const before = await written(h)
    const bad = await h.request('PUT', `/api/product/${key}/image`, { token: lib, body: form('new_image', PDF, 'foto.png', 'image/png') })
    expect({ status: bad.status, code: appCode(bad.body) }).toEqual({ status: 400, code: 'INVALID_IMAGE' })
    const none = await h.request('PUT', `/api/product/${key}/image`, { token: lib, body: form('other', pngBytes(2, 2), 'x.png') })
    expect(none.status).toBe(400)
    expect(await written(h)).toEqual(before)

    const removed = await h.request('DELETE', `/api/product/${key}/image`, { token: lib })
    expect(removed.body.detail.image_url).toBeNull()
    expect(storedFiles(h).filter((f) => f.includes('image-'))).toEqual([])
    const events = await h.svc.db.selectFrom('events').select('event_type').where('subject_key', '=', key).orderBy('id').execute()
    expect(events.map((e) => e.event_type)).toEqual(['PRODUCT_CREATED', 'PRODUCT_IMAGE_CHANGED', 'PRODUCT_IMAGE_CHANGED', 'PRODUCT_IMAGE_REMOVED'])
    // Removing again changes nothing.
    const again = await written(h)
    expect((await h.request('DELETE', `/api/product/${key}/image`, { token: lib })).status).toBe(200)
    expect(await written(h)).toEqual(again)
  })

  test('POST doc: stored and served with its type and name; the same name is 409 DOC_EXISTS until replace=true', async () => {
    const res = await uploadDoc(PDF, 'Scheda tecnica.pdf')
    expect(res.status).toBe(200)
    const doc = res.body.detail.docs.find((d: { name: string }) => d.name === 'Scheda tecnica.pdf')
    expect(doc).toMatchObject({ content_type: 'application/pdf', size: PDF.byteLength, url: `/media/product/${key}/doc/Scheda%20tecnica.pdf` })
    const served = await raw(doc.url)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('application/pdf')
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="Scheda tecnica.pdf"; filename*=UTF-8''Scheda%20tecnica.pdf`)
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF)
    expect((await h.request('GET', doc.url)).status).toBe(401)

    const before = await written(h)
    const same = await uploadDoc(PDF2, 'Scheda tecnica.pdf')
    expect({ status: same.status, code: appCode(same.body), name: same.body.detail.name }).toEqual({ status: 409, code: 'DOC_EXISTS', name: 'Scheda tecnica.pdf' })
    expect(await written(h)).toEqual(before)

    const replaced = await uploadDoc(PDF2, 'Scheda tecnica.pdf', true)
    expect(replaced.status).toBe(200)
    expect(replaced.body.detail.docs.filter((d: { name: string }) => d.name === 'Scheda tecnica.pdf')).toHaveLength(1)
    expect(new Uint8Array(await (await raw(doc.url)).arrayBuffer())).toEqual(PDF2)
    // The old file is gone: one file per document.
    expect(storedFiles(h).filter((f) => f.includes('/docs/'))).toHaveLength(1)
    const events = await h.svc.db
      .selectFrom('events')
      .select(['event_type', 'data'])
      .where('subject_key', '=', key)
      .where('event_type', 'like', 'PRODUCT_DOC%')
      .orderBy('id')
      .execute()
    expect(events.map((e) => e.event_type)).toEqual(['PRODUCT_DOC_ADDED', 'PRODUCT_DOC_REPLACED'])
    expect(events[1]!.data).toMatchObject({ name: 'Scheda tecnica.pdf', size: PDF2.byteLength })
  })

  test('types: checked against the bytes, by extension allowlist; others refused with nothing written', async () => {
    const good: [Uint8Array, string, string, string][] = [
      [pngBytes(3, 3), 'schema.png', 'image/png', 'inline'],
      [ZIP, 'distinta.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'attachment'],
      [ZIP, 'manuale.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'attachment'],
      [ZIP, 'offerta.odt', 'application/vnd.oasis.opendocument.text', 'attachment'],
      [OLE, 'vecchio.xls', 'application/vnd.ms-excel', 'attachment'],
      [bytesOf('codice;quantità\nA;1\n'), 'elenco.csv', 'text/csv; charset=utf-8', 'attachment'],
      [bytesOf('Note di montaggio: è importante.\n'), 'note.TXT', 'text/plain; charset=utf-8', 'inline'],
    ]
    for (const [bytes, name, type, kind] of good) {
      const res = await uploadDoc(bytes, name)
      expect({ name, status: res.status }).toEqual({ name, status: 200 })
      const doc = res.body.detail.docs.find((d: { name: string }) => d.name.toLowerCase() === name.toLowerCase())
      expect({ name, type: doc.content_type }).toEqual({ name, type })
      const served = await raw(doc.url)
      expect(served.headers.get('content-type')).toBe(type)
      expect(served.headers.get('content-disposition')!.split(';')[0]).toBe(kind)
    }
    const before = await written(h)
    const bad: [Uint8Array, string][] = [
      [bytesOf('<html><script>alert(1)</script></html>'), 'pagina.html'],
      [bytesOf('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg'],
      [bytesOf('<html><script>alert(1)</script></html>'), 'finto.pdf'],
      [bytesOf('MZ\x90\x00'), 'tool.exe'],
      [PDF, 'senza-estensione'],
      [PDF, 'manuale.docx'],
      [ZIP, 'vecchio.doc'],
      [new Uint8Array([0x68, 0x00, 0x69]), 'binario.txt'],
      [new Uint8Array([0xff, 0xfe, 0x41]), 'latin.csv'],
    ]
    for (const [bytes, name] of bad) {
      const res = await uploadDoc(bytes, name)
      expect({ name, status: res.status, code: appCode(res.body) }).toEqual({ name, status: 400, code: 'UNSUPPORTED_FILE_TYPE' })
    }
    const broken = await uploadDoc(pngBytes(2, 2).subarray(0, 20), 'rotto.png')
    expect(appCode(broken.body)).toBe('INVALID_IMAGE')
    const empty = await uploadDoc(new Uint8Array(), 'vuoto.pdf')
    expect({ status: empty.status, message: empty.body.detail.message }).toEqual({ status: 400, message: 'file: the file is empty' })
    expect(await written(h)).toEqual(before)
  })

  test('too large: 413 PAYLOAD_TOO_LARGE, nothing written', async () => {
    const before = await written(h)
    const big = new Uint8Array(MAX_DOC_BYTES + 1)
    big.set(PDF)
    const res = await uploadDoc(big, 'enorme.pdf')
    expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
    expect(await written(h)).toEqual(before)
  })

  test('names are made safe; DELETE doc removes the row and the file', async () => {
    const res = await uploadDoc(PDF, '../../etc/Schéma\u202Efdp.pdf')
    const doc = res.body.detail.docs.find((d: { name: string }) => d.name.startsWith('Schém'))
    expect(doc.name).toBe('Schémafdp.pdf')
    expect(doc.url).toBe(`/media/product/${key}/doc/Sch%C3%A9mafdp.pdf`)
    expect((await raw(doc.url)).status).toBe(200)
    const row = await h.svc.db.selectFrom('product_docs').select('storage_key').where('name', '=', doc.name).executeTakeFirstOrThrow()
    expect(row.storage_key).toMatch(new RegExp(`^products/${key}/docs/[0-9a-f-]{36}\\.pdf$`))
    const file = path.join(h.svc.config.dataDir, 'files', row.storage_key)
    expect(existsSync(file)).toBe(true)

    const del = await h.request('DELETE', `/api/product/${key}/doc/${encodeURIComponent(doc.name)}`, { token: lib })
    expect(del.status).toBe(200)
    expect(del.body.detail.docs.map((d: { name: string }) => d.name)).not.toContain(doc.name)
    expect(existsSync(file)).toBe(false)
    expect((await raw(doc.url)).status).toBe(404)
    const event = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'PRODUCT_DOC_DELETED').executeTakeFirstOrThrow()
    expect(event.data).toMatchObject({ name: 'Schémafdp.pdf' })

    const missing = await h.request('DELETE', `/api/product/${key}/doc/${encodeURIComponent('nessuno.pdf')}`, { token: lib })
    expect({ status: missing.status, code: appCode(missing.body) }).toEqual({ status: 404, code: 'NOT_FOUND' })
    const noProduct = await h.request('POST', `/api/product/${MISSING_UUID}/doc`, { token: lib, body: form('new_doc', PDF, 'a.pdf') })
    expect(noProduct.status).toBe(404)
  })

  test('a product in the trash takes no documents and no image', async () => {
    const trashed = (await h.request('POST', '/api/product', { token: lib, body: { code: 'DOC-TRASH' } })).body.detail._key
    await h.request('PATCH', `/api/product/${trashed}`, { token: lib, body: { trash: true } })
    const before = await written(h)
    const doc = await h.request('POST', `/api/product/${trashed}/doc`, { token: lib, body: form('new_doc', PDF, 'a.pdf') })
    expect(appCode(doc.body)).toBe('PRODUCT_IN_TRASH')
    const image = await h.request('PUT', `/api/product/${trashed}/image`, { token: lib, body: form('new_image', pngBytes(2, 2), 'a.png') })
    expect(appCode(image.body)).toBe('PRODUCT_IN_TRASH')
    expect(await written(h)).toEqual(before)
  })

  test('name helpers', () => {
    expect(safeDocName('C:\\temp\\offerta.PDF')).toBe('offerta.pdf')
    expect(safeDocName('..')).toBe('document')
    expect(safeDocName('  .pdf')).toBe('document.pdf')
    expect(safeDocName('Relazione.v2.PDF')).toBe('Relazione.v2.pdf')
    expect(storedFileName('Foto difetto è.JPG')).toBe('Foto_difetto_e.jpg')
    expect(storedFileName('数据.pdf')).toBe('file.pdf')
    expect(storedFileName('../../x.png')).toBe('x.png')
    expect(disposition('attachment', 'a"b.xlsx')).toBe(`attachment; filename="a_b.xlsx"; filename*=UTF-8''a%22b.xlsx`)
  })
})

describe('custom file fields: POST files / DELETE files', () => {
  const h = useHarness()
  let lib: string
  let key: string
  let filesField: string
  let textField: string

  beforeAll(async () => {
    const admin = await adminToken(h)
    lib = (await userWithScope(h, 'lib', 'library')).token
    filesField = (await h.request('POST', '/api/field', { token: admin, body: { name: 'Disegni', type: 'files', multiple: true } })).body.detail._key
    textField = (await h.request('POST', '/api/field', { token: admin, body: { name: 'Nota', type: 'text' } })).body.detail._key
    key = (await h.request('POST', '/api/product', { token: lib, body: { code: 'FILES-1' } })).body.detail._key
  })

  function filesForm(files: [Uint8Array, string][], opts: { bucket?: string; object_key?: string; subfolder?: string; filenames?: string[] } = {}) {
    const f = new FormData()
    f.append('bucket', opts.bucket ?? 'product')
    f.append('object_key', opts.object_key ?? key)
    f.append('subfolder', opts.subfolder ?? filesField)
    for (const n of opts.filenames ?? []) f.append('filenames', n)
    for (const [bytes, name] of files) f.append('contents', new File([new Uint8Array(bytes)], name))
    return f
  }
  const upload = (f: FormData) => h.request('POST', '/api/files', { token: lib, body: f })
  const putMetadata = (value: unknown) =>
    h.request('PUT', `/api/product/${key}`, { token: lib, body: { code: 'FILES-1', metadata: [{ custom_field_key: filesField, value }] } })

  test('several files at once; stored names are safe and unique in the folder; served; usable in metadata', async () => {
    const res = await upload(filesForm([[PDF, 'Disegno 1.pdf'], [pngBytes(5, 5), 'foto.png']]))
    expect(res.status).toBe(201)
    expect(res.body.detail).toEqual({
      bucket: 'product',
      object_key: key,
      subfolder: filesField,
      filenames: ['Disegno_1.pdf', 'foto.png'],
      urls: [`/media/product/${key}/files/${filesField}/Disegno_1.pdf`, `/media/product/${key}/files/${filesField}/foto.png`],
    })
    // The same name again gets a new one (nothing is overwritten); `filenames` names the files.
    const again = await upload(filesForm([[PDF2, 'x.pdf']], { filenames: ['Disegno 1.pdf'] }))
    expect(again.body.detail.filenames).toEqual(['Disegno_1-2.pdf'])
    const served = await h.app.request(`http://mes.test${res.body.detail.urls[0]}`, { headers: { authorization: `Bearer ${lib}` } })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('application/pdf')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF)

    const saved = await putMetadata(['Disegno_1.pdf', 'foto.png'])
    expect(saved.status).toBe(200)
    expect(saved.body.detail.metadata).toEqual([{ custom_field_key: filesField, value: ['Disegno_1.pdf', 'foto.png'] }])
    const unknown = await putMetadata(['Disegno_1.pdf', 'mai-caricato.pdf'])
    expect({ status: unknown.status, code: appCode(unknown.body) }).toEqual({ status: 400, code: 'UNKNOWN_FILE' })
    const events = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'PRODUCT_FILES_UPLOADED').orderBy('id').execute()
    expect(events.map((e) => e.data.filenames)).toEqual([['Disegno_1.pdf', 'foto.png'], ['Disegno_1-2.pdf']])
  })

  test('DELETE files: names still in the saved metadata are refused (409 FILE_IN_USE); others are removed', async () => {
    const del = (filenames: string[]) =>
      h.request('DELETE', '/api/files', { token: lib, body: { bucket: 'product', object_key: key, subfolder: filesField, filenames } })
    const before = await written(h)
    const inUse = await del(['foto.png'])
    expect({ status: inUse.status, code: appCode(inUse.body), names: inUse.body.detail.filenames }).toEqual({ status: 409, code: 'FILE_IN_USE', names: ['foto.png'] })
    expect(await written(h)).toEqual(before)

    await putMetadata(['Disegno_1.pdf'])
    const res = await del(['foto.png', 'Disegno_1-2.pdf', 'non-esiste.pdf'])
    expect(res.status).toBe(200)
    expect(res.body.detail.filenames).toEqual(['foto.png', 'Disegno_1-2.pdf'])
    expect(storedFiles(h)).toEqual([`${key}/fields/${filesField}/Disegno_1.pdf`])
    const event = await h.svc.db.selectFrom('events').select('data').where('event_type', '=', 'PRODUCT_FILES_DELETED').executeTakeFirstOrThrow()
    expect(event.data).toMatchObject({ custom_field_key: filesField, filenames: ['foto.png', 'Disegno_1-2.pdf'] })

    const unsafe = await del(['../../../etc/passwd'])
    expect({ status: unsafe.status, code: appCode(unsafe.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
  })

  test('refusals: wrong bucket, not a files field, unknown product or field, wrong type, too many names; nothing written', async () => {
    const before = await written(h)
    const cases: [FormData, number, string][] = [
      [filesForm([[PDF, 'a.pdf']], { bucket: 'users' }), 400, 'INVALID_INPUT'],
      [filesForm([[PDF, 'a.pdf']], { subfolder: textField }), 400, 'INVALID_INPUT'],
      [filesForm([[PDF, 'a.pdf']], { subfolder: MISSING_UUID }), 400, 'UNKNOWN_FIELD'],
      [filesForm([[PDF, 'a.pdf']], { object_key: MISSING_UUID }), 404, 'NOT_FOUND'],
      [filesForm([[bytesOf('<html></html>'), 'a.html']]), 400, 'UNSUPPORTED_FILE_TYPE'],
      [filesForm([[PDF, 'a.pdf'], [bytesOf('MZ'), 'b.pdf']]), 400, 'UNSUPPORTED_FILE_TYPE'],
      [filesForm([[PDF, 'a.pdf']], { filenames: ['a.pdf', 'b.pdf'] }), 400, 'INVALID_INPUT'],
      [filesForm([]), 400, 'INVALID_INPUT'],
    ]
    for (const [f, status, code] of cases) {
      const res = await upload(f)
      expect({ status: res.status, code: appCode(res.body) }).toEqual({ status, code })
    }
    expect(await written(h)).toEqual(before)
  })
})
