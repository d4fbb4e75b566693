import { beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { appCode, MISSING_UUID, tableCounts, trpcCall } from '../../test/fixtures'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'
import { pngBytes } from '../../test/png'
import { createOperation, eventsOf, insertProduct } from './test-helpers'

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

function mediaForm(bytes: Uint8Array, name: string, field = 'media_file') {
  const form = new FormData()
  form.append(field, new File([new Uint8Array(bytes)], name, { type: 'application/octet-stream' }))
  return form
}

/** Stored files under the media folder. */
function storedFiles(h: Harness): number {
  try {
    return readdirSync(path.join(h.svc.config.dataDir, 'files', 'media'), { recursive: true }).filter((f) => String(f).includes('.')).length
  } catch {
    return 0
  }
}

describe('step media', () => {
  const h = useHarness()
  let library: string
  let operator: string
  let product: string
  let stepKey: string
  let otherStep: string

  beforeAll(async () => {
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    library = (await userWithScope(h, 'lib.media', 'library')).token
    operator = (await userWithScope(h, 'op.media', 'operator')).token
    const op = await createOperation(h, admin, 'Montaggio', [{ type: 'instruction', title: 'Leggi' }, { type: 'instruction', title: 'Guarda' }])
    product = await insertProduct(h, 'P-MEDIA')
    const res = await h.request('PUT', `/api/product/${product}/process`, { token: library, body: { phases: [{ operation_key: op._key }] } })
    ;[stepKey, otherStep] = res.body.detail.phases[0].steps.map((s: { _key: string }) => s._key)
  })

  const upload = (step: string, bytes: Uint8Array, name: string, token = library) =>
    h.request('POST', `/api/step/${step}/media`, { token, body: mediaForm(bytes, name) })
  const list = (step: string, token = library) => h.request('GET', `/api/step/${step}/media`, { token })

  test('upload attaches a new media item at the end of the step; list and serve it by name', async () => {
    const png = pngBytes(4, 3)
    const res = await upload(stepKey, png, 'Schema montaggio.png')
    expect(res.status).toBe(201)
    const media = res.body.detail
    expect(media).toMatchObject({
      filename: 'Schema montaggio.png',
      content_type: 'image/png',
      size: png.byteLength,
      url: `/media/${media._key}`,
      step_url: `/media/step/${stepKey}/Schema%20montaggio.png`,
    })
    const pdf = await upload(stepKey, PDF, 'istruzioni.pdf')
    expect(pdf.status).toBe(201)

    const listed = await list(stepKey)
    expect(listed.status).toBe(200)
    expect(listed.body.detail.map((m: { filename: string }) => m.filename)).toEqual(['Schema montaggio.png', 'istruzioni.pdf'])
    const process = await h.request('GET', `/api/product/${product}/process`, { token: library })
    expect(process.body.detail.phases[0].steps[0].media).toEqual([media._key, pdf.body.detail._key])

    const file = await h.app.request(`http://mes.test${media.step_url}`, { headers: { authorization: `Bearer ${operator}` } })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="Schema montaggio.png"; filename*=UTF-8''Schema%20montaggio.png`)
    expect(file.headers.get('cache-control')).toBe('private, max-age=300')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png)
    expect((await h.request('GET', media.step_url)).status).toBe(401)
    expect((await h.request('GET', `/media/step/${stepKey}/other.png`, { token: operator })).status).toBe(404)
    expect((await h.request('GET', `/media/step/${otherStep}/istruzioni.pdf`, { token: operator })).status).toBe(404)
    expect((await h.request('GET', `/media/step/${MISSING_UUID}/istruzioni.pdf`, { token: operator })).status).toBe(404)
    const served = await h.request('GET', `/media/step/${stepKey}/istruzioni.pdf`, { token: operator })
    expect(served.headers.get('content-type')).toBe('application/pdf')

    const events = (await eventsOf(h, 'STEP_MEDIA_ADDED')).map((e) => e.data)
    expect(events[0]).toMatchObject({ step_key: stepKey, media_key: media._key, filename: 'Schema montaggio.png' })
    expect((await eventsOf(h, 'MEDIA_CREATED')).length).toBeGreaterThanOrEqual(2)
  })

  test('refusals write nothing: same name on the step, wrong type, unknown step, missing field', async () => {
    await upload(otherStep, PDF, 'doppio.pdf')
    const before = await tableCounts(h)
    const files = storedFiles(h)
    const same = await upload(otherStep, PDF, 'doppio.pdf')
    expect(same.status).toBe(409)
    expect(same.body.detail).toMatchObject({ code: 'STEP_MEDIA_NAME_TAKEN', filename: 'doppio.pdf' })
    const wrong = await upload(otherStep, new TextEncoder().encode('<html></html>'), 'pagina.html')
    expect(wrong.status).toBe(400)
    expect(appCode(wrong.body)).toBe('UNSUPPORTED_MEDIA_TYPE')
    const unknown = await upload(MISSING_UUID, PDF, 'a.pdf')
    expect(unknown.status).toBe(404)
    expect(unknown.body.detail.message).toBe('step not found')
    const bad = await h.request('POST', `/api/step/${otherStep}/media`, { token: library, body: mediaForm(PDF, 'a.pdf', 'file') })
    expect(bad.status).toBe(400)
    expect(await tableCounts(h)).toEqual(before)
    expect(storedFiles(h)).toBe(files)
    // The same name on another step is fine.
    expect((await upload(stepKey, PDF, 'doppio.pdf')).status).toBe(201)
  })

  test('delete by file name detaches the media (which stays for other steps)', async () => {
    const first = (await list(otherStep)).body.detail[0]
    const res = await h.request('DELETE', `/api/step/${otherStep}/media/doppio.pdf`, { token: library })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual([])
    expect((await list(otherStep)).body.detail).toEqual([])
    expect((await h.request('GET', `/media/step/${otherStep}/doppio.pdf`, { token: library })).status).toBe(404)
    expect((await h.request('GET', `/media/${first._key}`, { token: library })).status).toBe(200)
    const [event] = await eventsOf(h, 'STEP_MEDIA_REMOVED')
    expect(event).toMatchObject({ subject_type: 'product', subject_key: product, data: { step_key: otherStep, filename: 'doppio.pdf', media_key: first._key } })

    const encoded = await h.request('DELETE', `/api/step/${stepKey}/media/${encodeURIComponent('Schema montaggio.png')}`, { token: library })
    expect(encoded.status).toBe(200)
    expect(encoded.body.detail.map((m: { filename: string }) => m.filename)).toEqual(['istruzioni.pdf', 'doppio.pdf'])

    const before = await tableCounts(h)
    expect((await h.request('DELETE', `/api/step/${stepKey}/media/nessuno.pdf`, { token: library })).status).toBe(404)
    expect((await h.request('DELETE', `/api/step/${MISSING_UUID}/media/doppio.pdf`, { token: library })).status).toBe(404)
    expect(await tableCounts(h)).toEqual(before)
  })

  test('the steps of a product in the trash keep their media', async () => {
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    const op = await createOperation(h, admin, 'Cestino', [{ type: 'instruction', title: 'Leggi' }])
    const trashed = await insertProduct(h, 'P-MEDIA-TRASH')
    const step = (await h.request('PUT', `/api/product/${trashed}/process`, { token: library, body: { phases: [{ operation_key: op._key }] } })).body.detail
      .phases[0].steps[0]._key
    expect((await upload(step, PDF, 'prima.pdf')).status).toBe(201)
    await h.svc.db.updateTable('products').set({ trashed_at: h.clock.now() }).where('id', '=', trashed).execute()
    const before = await tableCounts(h)
    const files = storedFiles(h)
    expect(appCode((await upload(step, PDF, 'dopo.pdf')).body)).toBe('PRODUCT_IN_TRASH')
    expect(appCode((await h.request('DELETE', `/api/step/${step}/media/prima.pdf`, { token: library })).body)).toBe('PRODUCT_IN_TRASH')
    expect(await tableCounts(h)).toEqual(before)
    expect(storedFiles(h)).toBe(files)
    expect((await list(step)).body.detail.map((m: { filename: string }) => m.filename)).toEqual(['prima.pdf'])
  })

  test('permissions: readers list, only the library uploads and detaches; tRPC list', async () => {
    expect((await list(stepKey, operator)).status).toBe(200)
    expect((await list(MISSING_UUID, operator)).status).toBe(404)
    expect((await upload(stepKey, PDF, 'x.pdf', operator)).status).toBe(403)
    expect((await h.request('DELETE', `/api/step/${stepKey}/media/istruzioni.pdf`, { token: operator })).status).toBe(403)
    const trpc = await trpcCall(h, 'process.stepMedia', 'query', { step_key: stepKey }, { token: operator })
    expect(trpc.body.result.data.map((m: { filename: string }) => m.filename)).toEqual(['istruzioni.pdf', 'doppio.pdf'])
  })
})
