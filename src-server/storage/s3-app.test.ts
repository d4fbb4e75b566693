import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { adminToken } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { makeProduct } from '../domains/work-orders/test-fixtures'
import { s3FileStore } from './s3-file-store'
import { startS3Server } from './s3-test-server'

/** The app's own uploads and downloads with the S3-compatible store (s3rver) instead of the disk. */
describe('stored files on an S3-compatible store: product documents and issue attachments', () => {
  const h = useHarness()
  let s3: Awaited<ReturnType<typeof startS3Server>>
  let token: string
  beforeAll(async () => {
    s3 = await startS3Server('mes-app')
    // The app reads svc.files at each request: from here on every file goes to the bucket.
    h.svc.files = s3FileStore({ ...s3.settings, prefix: 'plant' })
    token = await adminToken(h)
  })
  afterAll(async () => {
    await s3?.stop()
  })

  const objects = () => readdirSync(path.join(s3.directory, s3.bucket), { recursive: true }).map(String).filter((f) => f.endsWith('._S3rver_object'))

  test('a product document is stored in the bucket and served back byte for byte', async () => {
    const product = await makeProduct(h.svc.db, { code: 'S3-DOC', phases: ['Montaggio'] })
    const text = 'Istruzioni di montaggio\nriga 2\n'
    const form = new FormData()
    form.append('new_doc', new File([text], 'istruzioni.txt', { type: 'text/plain' }))
    const up = await h.request('POST', `/api/product/${product.key}/doc`, { token, body: form })
    expect(up.status).toBe(200)
    const doc = up.body.detail.docs.find((d: any) => d.name === 'istruzioni.txt' || d.filename === 'istruzioni.txt') ?? up.body.detail.docs[0]
    expect(objects().some((f) => f.startsWith(`plant${path.sep}`))).toBe(true)
    const res = await h.app.request(`http://mes.test${doc.url}`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(text)
  })

  test('an issue attachment (media) is stored in the bucket and served with ranges', async () => {
    const type = await h.request('POST', '/api/issue-type', { token, body: { code: 'S3T', name: 'S3 test', link_type: 'generic' } })
    const issue = await h.request('POST', '/api/issue', { token, body: { type_key: type.body.detail._key, title: 'Foto del guasto' } })
    expect(issue.status).toBe(201)
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
    const before = objects().length
    const form = new FormData()
    form.append('file', new File([pdf], 'rapporto.pdf', { type: 'application/pdf' }))
    const up = await h.request('POST', `/api/issue/${issue.body.detail._key}/attachment`, { token, body: form })
    expect(up.status).toBeLessThan(300)
    expect(objects().length).toBe(before + 1)
    const detail = await h.request('GET', `/api/issue/${issue.body.detail._key}`, { token })
    const url: string = detail.body.detail.attachments[0].url
    const whole = await h.app.request(`http://mes.test${url}`, { headers: { authorization: `Bearer ${token}` } })
    expect(whole.status).toBe(200)
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(pdf)
    const part = await h.app.request(`http://mes.test${url}`, { headers: { authorization: `Bearer ${token}`, range: 'bytes=0-7' } })
    expect(part.status).toBe(206)
    expect(await part.text()).toBe('%PDF-1.4')
  })
})
