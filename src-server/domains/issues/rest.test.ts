import { beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { ISSUE_ATTACHMENTS_MAX } from '../../../src/domains/issues/schemas'
import { appCode, tableCounts, trpcCall } from '../../test/fixtures'
import { type Harness, useHarness } from '../../test/harness'
import { pngBytes } from '../../test/png'
import { type IssueWorld, makeIssueWorld, openIssue } from './test-fixtures'

/** Everything a refused call could have written: rows of every table and stored files (an emptied folder may stay). */
async function written(h: Harness) {
  let files = 0
  try {
    files = readdirSync(path.join(h.svc.config.dataDir, 'files', 'media'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length
  } catch {}
  return { ...(await tableCounts(h)), files }
}

const fileForm = (bytes: Uint8Array, name: string) => {
  const form = new FormData()
  form.append('file', new File([new Uint8Array(bytes)], name))
  return form
}

/** The REST paths (documented in OpenAPI), the tRPC procedures the client uses, and attachments. */
describe('issues: REST, tRPC, attachments', () => {
  const h = useHarness()
  let w: IssueWorld
  beforeAll(async () => {
    w = await makeIssueWorld(h, 'rest')
  })

  test('POST issue, GET issue/{key}, PATCH issue/{key}, POST issue/{key}/action, GET issue?...', async () => {
    const token = w.quality.token
    const created = await h.request('POST', '/api/issue', { token, body: { type_key: w.types.plain, title: 'Da REST', job_key: w.wo.jobs[0], step_key: w.steps[0] } })
    expect(created.status).toBe(201)
    const key = created.body.detail._key
    expect(created.body.detail).toMatchObject({ title: 'Da REST', context_type: 'job', state: 'open', step_key: w.steps[0], history: [{ event_type: 'ISSUE_OPENED' }] })

    const byCode = await h.request('GET', `/api/issue/${created.body.detail.code}`, { token: w.operator.token })
    expect(byCode.status).toBe(200)
    expect(byCode.body.detail._key).toBe(key)

    const patched = await h.request('PATCH', `/api/issue/${key}`, { token, body: { description: 'Dettagli' } })
    expect(patched.status).toBe(200)
    expect(patched.body.detail.description).toBe('Dettagli')

    const acted = await h.request('POST', `/api/issue/${key}/action`, { token, body: { action: 'make_critical' } })
    expect(acted.status).toBe(200)
    expect(acted.body.detail).toMatchObject({ critical: true, history: [{}, { event_type: 'ISSUE_UPDATED' }, { event_type: 'ISSUE_MADE_CRITICAL' }] })

    const listed = await h.request('GET', `/api/issue?state=open,reopened&critical=true&work_order_key=${w.wo.id}&from=2026-01-01&page=1&page_size=10`, { token: w.production.token })
    expect(listed.status).toBe(200)
    expect(listed.body.detail).toMatchObject({ total: 1, counts: { open: 1, closed: 0, reopened: 0, critical: 1 } })
    expect(listed.body.detail.rows.map((r: { _key: string }) => r._key)).toEqual([key])
    expect((await h.svc.db.selectFrom('jobs').select('critical').where('id', '=', w.wo.jobs[0]!).executeTakeFirstOrThrow()).critical).toBe(true)

    // DELETE issue/{key}: quality only; the marks follow, the history stays in the events.
    expect(appCode((await h.request('DELETE', `/api/issue/${key}`, { token: w.production.token })).body)).toBe('NOT_AUTHORISED')
    const deleted = await h.request('DELETE', `/api/issue/${created.body.detail.code}`, { token })
    expect(deleted.status).toBe(200)
    expect(deleted.body.detail).toEqual({ _key: key, code: created.body.detail.code })
    expect((await h.request('GET', `/api/issue/${key}`, { token })).status).toBe(404)
    expect((await h.request('DELETE', `/api/issue/${key}`, { token })).status).toBe(404)
    expect((await h.svc.db.selectFrom('jobs').select('critical').where('id', '=', w.wo.jobs[0]!).executeTakeFirstOrThrow()).critical).toBe(false)
    const last = await h.svc.db.selectFrom('events').select(['event_type', 'data']).where('subject_key', '=', key).orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(last).toMatchObject({ event_type: 'ISSUE_DELETED', data: { code: created.body.detail.code, title: 'Da REST', critical: true } })
  })

  test('400 on bad input, 404 on unknown keys, 403 outside the rules; nothing written', async () => {
    const issue = await openIssue(h, w, { job_key: w.wo.jobs[0]! }, w.operator)
    const before = await written(h)
    const q = w.quality.token
    const cases: [string, string, { token: string; body?: unknown }, number, string][] = [
      ['GET', '/api/issue?state=open,lost', { token: q }, 400, 'INVALID_INPUT'],
      ['GET', '/api/issue?critical=maybe', { token: q }, 400, 'INVALID_INPUT'],
      ['GET', '/api/issue?page_size=101', { token: q }, 400, 'INVALID_INPUT'],
      ['GET', '/api/issue?from=2026-13-01', { token: q }, 400, 'INVALID_INPUT'],
      ['GET', '/api/issue?job_key=12', { token: q }, 400, 'INVALID_INPUT'],
      ['POST', '/api/issue', { token: q, body: { title: 'Senza tipo' } }, 400, 'INVALID_INPUT'],
      ['POST', '/api/issue', { token: q, body: { type_key: w.types.plain, title: 'x'.repeat(201) } }, 400, 'INVALID_INPUT'],
      ['POST', '/api/issue', { token: q, body: { type_key: w.types.plain, title: ' ' } }, 400, 'ISSUE_TITLE_REQUIRED'],
      ['POST', '/api/issue', { token: w.operator.token, body: { type_key: w.types.plain, title: 'Generico' } }, 403, 'NOT_AUTHORISED'],
      ['PATCH', `/api/issue/${issue._key}`, { token: q, body: { title: 42 } }, 400, 'INVALID_INPUT'],
      ['PATCH', `/api/issue/${issue._key}`, { token: w.operator2.token, body: { title: 'Non mio' } }, 403, 'NOT_AUTHORISED'],
      ['POST', `/api/issue/${issue._key}/action`, { token: q, body: { action: 'delete' } }, 400, 'INVALID_INPUT'],
      ['POST', `/api/issue/${issue._key}/action`, { token: q, body: { action: 'reopen' } }, 409, 'ISSUE_NOT_CLOSED'],
      ['POST', `/api/issue/${issue._key}/action`, { token: w.operator.token, body: { action: 'close' } }, 403, 'NOT_AUTHORISED'],
      ['POST', `/api/issue/${issue._key}/action`, { token: w.production.token, body: { action: 'close' } }, 403, 'NOT_AUTHORISED'],
      ['GET', `/api/issue/${crypto.randomUUID()}`, { token: q }, 404, 'NOT_FOUND'],
      ['PATCH', `/api/issue/${crypto.randomUUID()}`, { token: q, body: { title: 'x' } }, 404, 'NOT_FOUND'],
      ['POST', `/api/issue/ISS-999999/action`, { token: q, body: { action: 'close' } }, 404, 'NOT_FOUND'],
      ['POST', `/api/issue/${crypto.randomUUID()}/attachment`, { token: q, body: fileForm(pngBytes(2, 2), 'a.png') }, 404, 'NOT_FOUND'],
      ['POST', `/api/issue/${issue._key}/attachment`, { token: q, body: { file: 'not a file' } }, 400, 'INVALID_INPUT'],
    ]
    for (const [method, url, opts, status, code] of cases) {
      const res = await h.request(method, url, opts)
      expect({ method, url, status: res.status, code: appCode(res.body) }).toEqual({ method, url, status, code })
    }
    expect(await written(h)).toEqual(before)
  })

  test('tRPC: issues.list, get, create, update, act', async () => {
    const opts = { token: w.quality.token }
    const created = await trpcCall(h, 'issues.create', 'mutation', { type_key: w.types.critical, title: 'Da tRPC', work_order_key: w.wo2.id }, opts)
    expect(created.status).toBe(200)
    const issue = created.body.result.data
    expect(issue).toMatchObject({ critical: true, context_type: 'work_order', work_order_key: w.wo2.id })
    const updated = await trpcCall(h, 'issues.update', 'mutation', { key: issue._key, title: 'Da tRPC, corretto' }, opts)
    expect(updated.body.result.data.title).toBe('Da tRPC, corretto')
    const acted = await trpcCall(h, 'issues.act', 'mutation', { key: issue._key, action: 'close' }, opts)
    expect(acted.body.result.data.state).toBe('closed')
    const again = await trpcCall(h, 'issues.act', 'mutation', { key: issue._key, action: 'close' }, opts)
    expect({ status: again.status, code: appCode(again.body) }).toEqual({ status: 409, code: 'ISSUE_CLOSED' })
    const got = await trpcCall(h, 'issues.get', 'query', { key: issue._key }, { token: w.operator.token })
    expect(got.body.result.data.history.map((e: { event_type: string }) => e.event_type)).toEqual(['ISSUE_OPENED', 'ISSUE_UPDATED', 'ISSUE_CLOSED'])
    const listed = await trpcCall(h, 'issues.list', 'query', { work_order_key: w.wo2.id, state: ['closed'] }, { token: w.production.token })
    expect(listed.body.result.data.rows.map((r: { _key: string }) => r._key)).toEqual([issue._key])
  })

  test('attachment: an image by the opener, served at /media/{key} to signed-in users; refused types, strangers, closed issues, full issues write nothing', async () => {
    const issue = await openIssue(h, w, { job_key: w.wo.jobs[1]! }, w.operator)
    const png = pngBytes(4, 3)
    const res = await h.request('POST', `/api/issue/${issue._key}/attachment`, { token: w.operator.token, body: fileForm(png, 'Foto difetto.png') })
    expect(res.status).toBe(201)
    const attachment = res.body.detail
    expect(attachment).toEqual({
      _key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: 'Foto difetto.png',
      content_type: 'image/png',
      size: png.byteLength,
      url: `/media/${attachment._key}`,
      created_at: h.clock.now().getTime(),
    })
    const served = await h.request('GET', attachment.url, { token: w.production.token })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    const detail = (await h.request('GET', `/api/issue/${issue._key}`, { token: w.quality.token })).body.detail
    expect(detail).toMatchObject({ attachment_count: 1, attachments: [attachment] })
    expect(detail.history.at(-1)).toMatchObject({
      event_type: 'ISSUE_ATTACHMENT_ADDED',
      user_key: w.operator.key,
      data: { code: issue.code, media_key: attachment._key, filename: 'Foto difetto.png', content_type: 'image/png', size: png.byteLength },
    })
    // Quality may add too.
    expect((await h.request('POST', `/api/issue/${issue._key}/attachment`, { token: w.quality.token, body: fileForm(pngBytes(2, 2), 'b.png') })).status).toBe(201)

    const attach = (token: string, bytes: Uint8Array = pngBytes(2, 2)) => h.request('POST', `/api/issue/${issue._key}/attachment`, { token, body: fileForm(bytes, 'x.png') })
    const refusal = async (token: string, status: number, code: string, bytes?: Uint8Array) => {
      const before = await written(h)
      const r = await attach(token, bytes)
      expect({ status: r.status, code: appCode(r.body) }).toEqual({ status, code })
      expect(await written(h)).toEqual(before)
    }
    await refusal(w.operator.token, 400, 'UNSUPPORTED_MEDIA_TYPE', new TextEncoder().encode('#!/bin/sh\necho no\n'))
    await refusal(w.operator2.token, 403, 'NOT_AUTHORISED')
    await refusal(w.production.token, 403, 'NOT_AUTHORISED')

    // Filled up to the limit (rows written directly), the next one is refused.
    const media = await h.svc.db
      .insertInto('media')
      .values(Array.from({ length: ISSUE_ATTACHMENTS_MAX - 2 }, (_, i) => ({ filename: `f${i}.png`, content_type: 'image/png', size: 1, storage_key: `media/fake/${i}.png` })))
      .returning('id')
      .execute()
    await h.svc.db.insertInto('issue_attachments').values(media.map((m) => ({ issue_id: issue._key, media_id: m.id }))).execute()
    await refusal(w.operator.token, 409, 'ISSUE_ATTACHMENTS_FULL')

    await h.request('POST', `/api/issue/${issue._key}/action`, { token: w.quality.token, body: { action: 'close' } })
    await h.svc.db.deleteFrom('issue_attachments').where('media_id', 'in', media.map((m) => m.id)).execute()
    await refusal(w.quality.token, 409, 'ISSUE_CLOSED')
  })

  test('OpenAPI documents every issue path', async () => {
    const doc = (await h.request('GET', '/api/openapi.json', { token: w.quality.token })).body
    expect(Object.keys(doc.paths['/issue'])).toEqual(expect.arrayContaining(['get', 'post']))
    expect(Object.keys(doc.paths['/issue/{key}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']))
    expect(Object.keys(doc.paths['/issue/{key}/action'])).toEqual(['post'])
    expect(Object.keys(doc.paths['/issue/{key}/attachment'])).toEqual(['post'])
  })
})
