import { beforeAll, describe, expect, test } from 'bun:test'
import { adminToken, appCode, countOf, trpcCall } from '../test/fixtures'
import { ORIGIN, useHarness } from '../test/harness'
import { honoPath } from './mount'
import { JSON_BODY_LIMIT } from './route'
import { restRoutes } from './routes'

describe('REST envelope', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await adminToken(h)
  })

  const raw = (method: string, path: string, body: string, headers: Record<string, string> = {}) =>
    h.request(method, path, { token: admin, body, headers: { 'content-type': 'application/json', ...headers } })

  test('success is {"detail": ...}', async () => {
    const res = await h.request('GET', '/api/whoami', { token: admin })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['detail'])
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  test('failure is {"detail":{"message","code"}} with the right status', async () => {
    const res = await h.request('GET', '/api/whoami')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ detail: { message: 'login first', code: 'NOT_AUTHENTICATED' } })
  })

  test('malformed JSON is 400 MALFORMED_JSON, also on a public route', async () => {
    for (const body of ['{', '{"event_type": "X",}', "{'a':1}", 'undefined']) {
      const res = await raw('POST', '/api/event', body)
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('MALFORMED_JSON')
    }
    const login = await h.request('POST', '/api/login', { body: '{"username":', headers: { 'content-type': 'application/json' } })
    expect(login.status).toBe(400)
    expect(login.body.detail.code).toBe('MALFORMED_JSON')
  })

  test('an empty body where one is needed is 400 INVALID_INPUT', async () => {
    const res = await raw('POST', '/api/event', '')
    expect(res.status).toBe(400)
    expect(res.body.detail.code).toBe('INVALID_INPUT')
  })

  test('a JSON body over 1 MiB is 413 PAYLOAD_TOO_LARGE and writes nothing; just under passes', async () => {
    const before = await countOf(h, 'events')
    const wrap = (n: number) => JSON.stringify({ event_type: 'PAUSED_OFFLINE', data: { blob: 'x'.repeat(n) } })
    const overhead = wrap(0).length
    const over = await raw('POST', '/api/event', wrap(JSON_BODY_LIMIT - overhead + 1))
    expect(over.status).toBe(413)
    expect(over.body.detail.code).toBe('PAYLOAD_TOO_LARGE')
    expect(await countOf(h, 'events')).toBe(before)
    const far = await raw('POST', '/api/event', wrap(3 * JSON_BODY_LIMIT))
    expect(far.status).toBe(413)
    // Without a content-length (streamed body) the limit holds too.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(wrap(JSON_BODY_LIMIT + 10)))
        c.close()
      },
    })
    const streamed = await h.app.request(`${ORIGIN}/api/event`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', origin: ORIGIN },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' })
    expect(streamed.status).toBe(413)
    // The public login answers 413 before anything else.
    const login = await h.request('POST', '/api/login', { body: JSON.stringify({ username: 'a'.repeat(JSON_BODY_LIMIT + 1), password: 'x' }), headers: { 'content-type': 'application/json' } })
    expect(login.status).toBe(413)

    const under = await raw('POST', '/api/event', wrap(JSON_BODY_LIMIT - overhead - 1000))
    expect(under.status).toBe(201)
    expect(await countOf(h, 'events')).toBe(before + 1)
  })

  test('unknown /api paths answer 404 JSON, never the client HTML', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['GET', '/api/user/some/thing/else'],
      ['DELETE', '/api/whoami'],
      ['GET', '/api/'],
      ['GET', '/api/index.html'],
    ] as const) {
      const res = await h.request(method, path, { token: admin })
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 })
      expect(res.headers.get('content-type') ?? '').toContain('application/json')
      expect(res.body.detail.code).toBe('NOT_FOUND')
    }
    const anon = await h.request('GET', '/api/definitely-not-here')
    expect(anon.status).toBe(404)
    expect(anon.headers.get('content-type') ?? '').toContain('application/json')
    const trpc = await h.request('GET', '/api/trpc/nope.nothing', { token: admin })
    expect(trpc.status).toBe(404)
    expect(trpc.headers.get('content-type') ?? '').toContain('application/json')
  })

  test('invalid input is 400 INVALID_INPUT with a message naming the field and every issue', async () => {
    const res = await h.request('POST', '/api/login', { body: { username: 'admin' } })
    expect(res.status).toBe(400)
    expect(res.body.detail.code).toBe('INVALID_INPUT')
    expect(res.body.detail.message).toContain('password')
    const both = await h.request('POST', '/api/login', { body: { username: 5, password: [] } })
    expect(both.status).toBe(400)
    const paths = both.body.detail.issues.map((i: { path: string }) => i.path)
    expect(paths).toContain('username')
    expect(paths).toContain('password')
    const query = await h.request('GET', '/api/user?active_only=perhaps', { token: admin })
    expect(query.status).toBe(400)
    expect(query.body.detail.message).toContain('active_only')
    const top = await h.request('POST', '/api/event', { token: admin, body: [1, 2, 3] })
    expect(top.status).toBe(400)
    expect(top.body.detail.code).toBe('INVALID_INPUT')
  })

  test('text with a NUL character or an unpaired surrogate is 400 INVALID_INPUT (PostgreSQL cannot store it), never a 5xx', async () => {
    const before = await countOf(h, 'events')
    const cases: [string, string, unknown][] = [
      ['POST', '/api/login', { username: 'adm\u0000in', password: 'x' }],
      ['POST', '/api/event', { event_type: 'X', subject_key: 'a\u0000b' }],
      ['POST', '/api/event', { event_type: 'X', data: { note: 'a\u0000b' } }],
      ['POST', '/api/event', { event_type: 'X', data: { 'k\u0000': 1 } }],
      ['POST', '/api/event', { event_type: 'X', data: { deep: [{ deeper: ['\u0000'] }] } }],
      ['POST', '/api/user', { username: 'nul.user', name: '\u0000', scope: 'operator' }],
      ['POST', '/api/session/unlock', { password: '\u0000' }],
      ['POST', '/api/event', { event_type: 'X', data: { note: 'half a pair \udfff' } }],
      ['POST', '/api/event', { event_type: 'X', data: { '\ud800': 1 } }],
      ['POST', '/api/user', { username: 'lone.surrogate', surname: '\ud83d', scope: 'operator' }],
    ]
    for (const [method, path, body] of cases) {
      const res = await h.request(method, path, { token: admin, body })
      expect({ path, body, status: res.status, code: res.body.detail.code }).toEqual({ path, body, status: 400, code: 'INVALID_INPUT' })
      expect(res.body.detail.message).toMatch(/NUL|Unicode/)
    }
    const query = await h.request('GET', '/api/user/%00', { token: admin })
    expect(query.status).toBeLessThan(500)
    const trpc = await trpcCall(h, 'events.record', 'mutation', { event_type: 'X', subject_type: '\u0000' }, { token: admin })
    expect(trpc.status).toBe(400)
    expect(appCode(trpc.body)).toBe('INVALID_INPUT')
    expect(await countOf(h, 'events')).toBe(before)
  })

  test('absurdly deep JSON is 400 INVALID_INPUT, quickly; ordinary nesting passes', async () => {
    const nested = (depth: number) => `{"event_type":"PAUSED_OFFLINE","data":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
    const before = await countOf(h, 'events')
    for (const depth of [100, 20_000, 200_000]) {
      const res = await raw('POST', '/api/event', nested(depth))
      expect({ depth, status: res.status, code: res.body.detail.code }).toEqual({ depth, status: 400, code: 'INVALID_INPUT' })
    }
    const trpc = await h.request('POST', '/api/trpc/events.record', { token: admin, body: nested(20_000), headers: { 'content-type': 'application/json' } })
    expect(trpc.status).toBe(400)
    expect(await countOf(h, 'events')).toBe(before)
    expect((await raw('POST', '/api/event', nested(20))).status).toBe(201)
  })

  test("tRPC bodies have the same 1 MiB limit, refused in tRPC's own error shape", async () => {
    const body = JSON.stringify({ event_type: 'PAUSED_OFFLINE', data: { blob: 'x'.repeat(JSON_BODY_LIMIT) } })
    const res = await h.request('POST', '/api/trpc/events.record', { token: admin, body, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(413)
    // The tRPC client reads a refusal from `error.data` (found by the route fuzz test).
    expect(appCode(res.body)).toBe('PAYLOAD_TOO_LARGE')
    expect(res.body.error.message).toBe('request body too large')
  })

  test('GET /api/health is public', async () => {
    const res = await h.request('GET', '/api/health', { origin: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ detail: { status: 'ok', database: h.svc.dbKind } })
  })
})

describe('OpenAPI and the reference page', () => {
  const h = useHarness()

  test('/api/openapi.json is OpenAPI 3.1 and lists every route with its method', async () => {
    const res = await h.request('GET', '/api/openapi.json')
    expect(res.status).toBe(200)
    const doc = res.body
    expect(doc.openapi).toStartWith('3.1')
    expect(doc.info.title).toBeString()
    expect(doc.servers).toEqual([{ url: '/api' }])
    let operations = 0
    for (const p of Object.values(doc.paths) as Record<string, unknown>[]) operations += Object.keys(p).length
    expect(operations).toBe(restRoutes.length)
    for (const r of restRoutes) {
      const op = doc.paths[r.path]?.[r.method]
      expect({ route: `${r.method} ${r.path}`, documented: Boolean(op) }).toEqual({ route: `${r.method} ${r.path}`, documented: true })
      expect(op.summary).toBe(r.summary)
      // Every {param} of the path is documented as a required path parameter.
      for (const name of [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }))
      }
      if (r.body) {
        const content = Object.keys(op.requestBody.content)
        expect(content).toEqual([r.multipart ? 'multipart/form-data' : 'application/json'])
      } else {
        expect(op.requestBody).toBeUndefined()
      }
      expect(op.security).toEqual(r.access.scope === 'public' ? [] : [{ bearer: [] }, { cookie: [] }])
      expect(Object.keys(op.responses)).toContain(String(r.status ?? 200))
    }
    // Paths are unique per method, and the router serves each documented path.
    const seen = new Set(restRoutes.map((r) => `${r.method} ${honoPath(r.path)}`))
    expect(seen.size).toBe(restRoutes.length)
  })

  test('every documented route is served (no documented path answers the 404 fallback)', async () => {
    for (const r of restRoutes) {
      const path = `/api${r.path.replace(/\{(\w+)\}/g, 'x')}`
      const res = await h.request(r.method.toUpperCase(), path, { origin: null })
      if (r.access.scope === 'public') continue
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({ route: `${r.method} ${r.path}`, status: 401 })
    }
  })
})
