import { beforeAll, describe, expect, test } from 'bun:test'
import * as v from 'valibot'
import { inputIssues } from './input-issues'
import { adminToken, MISSING_UUID, trpcCall } from './test/fixtures'
import { useHarness } from './test/harness'

const issuesOf = (schema: v.GenericSchema, value: unknown) => {
  const result = v.safeParse(schema, value)
  if (result.success) throw new Error('expected a refusal')
  return inputIssues(result.issues)
}

describe('valibot issues as the API answers them', () => {
  const Thing = v.strictObject({
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(10)),
    code: v.optional(v.pipe(v.string(), v.minLength(3))),
    count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(99))),
    kind: v.optional(v.picklist(['a', 'b'])),
    key: v.optional(v.pipe(v.string(), v.uuid())),
    tags: v.optional(v.pipe(v.array(v.string()), v.maxLength(2))),
    rows: v.optional(v.array(v.object({ note: v.pipe(v.string(), v.maxLength(5)) }))),
  })

  test('each kind with its path and limit', () => {
    expect(issuesOf(Thing, { name: 'x'.repeat(11) })).toEqual([{ path: 'name', kind: 'max_length', limit: 10, message: expect.any(String) }])
    expect(issuesOf(Thing, { name: '' })[0]).toMatchObject({ path: 'name', kind: 'required' })
    expect(issuesOf(Thing, {})[0]).toMatchObject({ path: 'name', kind: 'required' })
    expect(issuesOf(Thing, { name: 5 })[0]).toMatchObject({ path: 'name', kind: 'type' })
    expect(issuesOf(Thing, { name: 'a', code: 'ab' })[0]).toMatchObject({ path: 'code', kind: 'min_length', limit: 3 })
    expect(issuesOf(Thing, { name: 'a', count: -3 })[0]).toMatchObject({ path: 'count', kind: 'min_value', limit: 0 })
    expect(issuesOf(Thing, { name: 'a', count: 100 })[0]).toMatchObject({ path: 'count', kind: 'max_value', limit: 99 })
    expect(issuesOf(Thing, { name: 'a', count: 1.5 })[0]).toMatchObject({ path: 'count', kind: 'integer' })
    expect(issuesOf(Thing, { name: 'a', kind: 'c' })[0]).toMatchObject({ path: 'kind', kind: 'choice' })
    expect(issuesOf(Thing, { name: 'a', key: 'nope' })[0]).toMatchObject({ path: 'key', kind: 'format' })
    expect(issuesOf(Thing, { name: 'a', tags: ['1', '2', '3'] })[0]).toMatchObject({ path: 'tags', kind: 'max_items', limit: 2 })
    expect(issuesOf(Thing, { name: 'a', rows: [{ note: 'ok' }, { note: 'too long' }] })[0]).toMatchObject({ path: 'rows.1.note', kind: 'max_length', limit: 5 })
    expect(issuesOf(Thing, { name: 'a', extra: 1 })).toEqual([{ path: 'extra', kind: 'unknown_key', message: 'unknown key' }])
    expect(issuesOf(Thing, 'text')[0]).toMatchObject({ path: '', kind: 'type' })
  })
})

describe('INVALID_INPUT answers carry the issues, over REST and tRPC alike', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await adminToken(h)
  })

  const tooLong = { code: 'P-ISSUES', notes: 'x'.repeat(20_001) }
  const notesIssue = { path: 'notes', kind: 'max_length', limit: 20_000, message: expect.stringContaining('20000') }

  test('REST: 400 with the issue and a message naming the field; nothing is created', async () => {
    const res = await h.request('POST', '/api/product', { token: admin, body: tooLong })
    expect(res.status).toBe(400)
    expect(res.body.detail).toEqual({ code: 'INVALID_INPUT', message: expect.stringMatching(/^notes /), issues: [notesIssue] })
    const negative = await h.request('POST', '/api/product', { token: admin, body: { code: 'P-ISSUES', minimum_order: -3 } })
    expect(negative.status).toBe(400)
    expect(negative.body.detail.issues).toEqual([{ path: 'minimum_order', kind: 'min_value', limit: 0, message: expect.any(String) }])
    const list = await h.request('GET', '/api/product?search=P-ISSUES', { token: admin })
    expect(list.body.detail.total).toBe(0)
  })

  test('tRPC: 400 with appCode INVALID_INPUT, the same issues and message', async () => {
    const res = await trpcCall(h, 'products.create', 'mutation', tooLong, { token: admin })
    expect(res.status).toBe(400)
    expect(res.body.error.data.appCode).toBe('INVALID_INPUT')
    expect(res.body.error.data.extra).toEqual({ issues: [notesIssue] })
    expect(res.body.error.message).toMatch(/^notes /)
    const nested = await trpcCall(h, 'products.update', 'mutation', { key: MISSING_UUID, product: { code: 'x', minimum_order: -3, description: 'd'.repeat(501) } }, { token: admin })
    expect(nested.status).toBe(400)
    expect(nested.body.error.data.extra.issues.map((i: { path: string; kind: string }) => `${i.path} ${i.kind}`)).toEqual([
      'product.description max_length',
      'product.minimum_order min_value',
    ])
  })
})

describe('INVALID_INPUT a service raises itself carries the same issues', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await adminToken(h)
  })

  test('repeated and empty choice options, a yes/no field with multiple values: the field named, nothing created', async () => {
    const cases: [unknown, object][] = [
      [{ name: 'Colore', type: 'choice', options: ['A', ' a '] }, { path: 'options', kind: 'duplicate' }],
      [{ name: 'Colore', type: 'choice', options: ['A', ''] }, { path: 'options', kind: 'empty_item' }],
      [{ name: 'Ok', type: 'boolean', multiple: true }, { path: 'multiple', kind: 'not_allowed' }],
    ]
    for (const [body, issue] of cases) {
      const res = await h.request('POST', '/api/field', { token: admin, body })
      expect(res.status).toBe(400)
      expect(res.body.detail.code).toBe('INVALID_INPUT')
      expect(res.body.detail.issues).toEqual([{ ...issue, message: expect.any(String) }])
    }
    expect((await h.request('GET', '/api/field', { token: admin })).body.detail).toEqual([])
  })

  test('text holding NUL, over REST and tRPC: the path of the text', async () => {
    const rest = await h.request('POST', '/api/product', { token: admin, body: { code: 'P-NUL', notes: 'a\u0000b' } })
    expect(rest.status).toBe(400)
    expect(rest.body.detail.issues).toEqual([{ path: 'notes', kind: 'bad_characters', message: expect.any(String) }])
    const trpc = await trpcCall(h, 'products.create', 'mutation', { code: 'P-NUL', notes: 'a\u0000b' }, { token: admin })
    expect(trpc.status).toBe(400)
    expect(trpc.body.error.data.extra.issues).toEqual([{ path: 'notes', kind: 'bad_characters', message: expect.any(String) }])
  })

  test('a tag query with a context but no item: context_key required', async () => {
    const res = await h.request('GET', '/api/tag?context=product', { token: admin })
    expect(res.status).toBe(400)
    expect(res.body.detail.issues).toEqual([{ path: 'context_key', kind: 'required', message: expect.any(String) }])
  })
})
