import { beforeAll, describe, expect, test } from 'bun:test'
import * as v from 'valibot'
import { SCOPES } from '../../src/auth/scopes'
import { MISSING_UUID, quickUser, tableCounts, trpcCall } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { appRouter } from '../trpc/app-router'
import { unknownKeyIssues } from '../unknown-keys'
import { buildOpenApi } from './openapi'
import type { AnyRoute } from './route'
import { restRoutes } from './routes'

/**
 * One rule for every route and procedure: a key the input does not declare is refused with 400
 * INVALID_INPUT naming it (issue kind `unknown_key`, the key as path), and nothing is written.
 * Routes and procedures are read from `restRoutes` and `appRouter`, so later ones are covered.
 */
const TYPO = 'typo_field'

type Node = { type: string; entries?: Record<string, Node>; wrapped?: Node; item?: Node; options?: Node[] }

/** An input holding `typo_field` where the schema takes an object, and the path it is at. */
function withTypo(schema: Node, path = ''): { value: unknown; path: string } | null {
  const at = (k: string | number) => (path ? `${path}.${k}` : String(k))
  switch (schema.type) {
    case 'object':
    case 'strict_object':
      return { value: { [TYPO]: 1 }, path: at(TYPO) }
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'exact_optional':
      return withTypo(schema.wrapped!, path)
    case 'array': {
      const inner = withTypo(schema.item!, at(0))
      return inner && { value: [inner.value], path: inner.path }
    }
    case 'union':
    case 'variant':
      for (const o of schema.options ?? []) {
        const found = withTypo(o, path)
        if (found) return found
      }
      return null
    default:
      return null
  }
}

const label = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`
type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: Node[] } }
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures).filter(
  ([, p]) => p._def.type !== 'subscription',
)

/** The refusal as the test compares it: status, code, the first message and the typo's issue. */
function refusal(res: { status: number; body: any }) {
  const detail = res.body?.detail ?? { ...res.body?.error?.data?.extra, message: res.body?.error?.message, code: res.body?.error?.data?.appCode }
  return {
    status: res.status,
    code: detail.code,
    message: String(detail.message ?? '').split(' (')[0],
    issue: (detail.issues ?? []).find((i: { kind: string }) => i.kind === 'unknown_key'),
  }
}
const expected = (path: string) => ({
  status: 400,
  code: 'INVALID_INPUT',
  message: `${path}: unknown key`,
  issue: expect.objectContaining({ path, kind: 'unknown_key' }),
})

describe('unknown keys: 400 INVALID_INPUT naming them on every route and procedure; nothing written', () => {
  const h = useHarness()
  let token: string
  let victim: string

  beforeAll(async () => {
    token = (await quickUser(h, 'typist', SCOPES.join(' '))).token
    victim = (await quickUser(h, 'victim', 'operator')).key
  })

  /** Path values the route's params schema accepts (a real user key where keys are expected). */
  function pathFor(r: AnyRoute): string {
    const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
    const fits = [victim, MISSING_UUID, '1', 'x'].find((c) => !r.params || v.safeParse(r.params, Object.fromEntries(names.map((n) => [n, c]))).success)
    return `/api${r.path.replace(/\{(\w+)\}/g, fits ?? 'x')}`
  }

  async function refusedWritingNothing(send: () => Promise<{ status: number; body: any }>) {
    const before = await tableCounts(h)
    const res = await send()
    expect(await tableCounts(h)).toEqual(before)
    return refusal(res)
  }

  for (const r of restRoutes) {
    test(`${label(r)}: an unknown query parameter`, async () => {
      const body = r.multipart ? new FormData() : undefined
      const got = await refusedWritingNothing(() => h.request(r.method.toUpperCase(), `${pathFor(r)}?${TYPO}=1`, { token, body }))
      expect({ route: label(r), ...got }).toEqual({ route: label(r), ...expected(TYPO) })
    })

    const typo = r.multipart ? { value: null, path: TYPO } : r.body ? withTypo(r.body as Node) : { value: { [TYPO]: 1 }, path: TYPO }
    if (!typo) continue
    test(`${label(r)}: an unknown key in the body${r.body ? '' : ' (it takes none)'}`, async () => {
      let body: FormData | unknown = typo.value
      if (r.multipart) {
        const form = new FormData()
        form.append(TYPO, 'x')
        body = form
      }
      const got = await refusedWritingNothing(() => h.request(r.method.toUpperCase(), pathFor(r), { token, body }))
      expect({ route: label(r), ...got }).toEqual({ route: label(r), ...expected(typo.path) })
    })
  }

  test('every JSON body that takes an object is walked', () => {
    const skipped = restRoutes.filter((r) => r.body && !r.multipart && !withTypo(r.body as Node)).map(label)
    // No loose body left (the batch's serial links were one until they got their own shape).
    expect(skipped).toEqual([])
  })

  for (const [name, p] of procedures) {
    const typo = p._def.inputs[0] ? withTypo(p._def.inputs[0]) : { value: { [TYPO]: 1 }, path: TYPO }
    if (!typo) continue
    test(`tRPC ${name}: an unknown key in the input${p._def.inputs[0] ? '' : ' (it takes none)'}`, async () => {
      const got = await refusedWritingNothing(() => trpcCall(h, name, p._def.type as 'query' | 'mutation', typo.value, { token }))
      expect({ name, ...got }).toEqual({ name, ...expected(typo.path) })
    })
  }

  test('the message lists the keys that are known there; several unknown keys are all named', async () => {
    const res = await h.request('POST', '/api/user', { token, body: { username: 'nuovo', scope: 'operator', surnmae: 'Rossi', emial: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.detail.message).toBe('surnmae: unknown key (known keys here: username, name, surname, email, department_key, hourly_cost, scope, badge)')
    expect(res.body.detail.issues.filter((i: { kind: string }) => i.kind === 'unknown_key').map((i: { path: string }) => i.path)).toEqual(['surnmae', 'emial'])
    // Nested keys are named by their path.
    const nested = unknownKeyIssues(v.object({ items: v.array(v.object({ qty: v.number() })) }), { items: [{ qty: 1 }, { qty: 2, qyt: 3 }] })
    expect(nested.map((i) => i.path)).toEqual(['items.1.qyt'])
    // A variant: the keys of the option its discriminator names (a key of another option is unknown here).
    const variant = v.variant('action', [v.object({ action: v.literal('reset') }), v.object({ action: v.literal('set'), qt: v.number() })])
    expect(unknownKeyIssues(variant, { action: 'reset', qt: 3 }).map((i) => i.path)).toEqual(['qt'])
    expect(unknownKeyIssues(variant, { action: 'set', qt: 3 })).toEqual([])
    expect(unknownKeyIssues(variant, { action: 'nope', qt: 3, qtt: 1 }).map((i) => i.path)).toEqual(['qtt'])
    // Loose objects and records take any key.
    expect(unknownKeyIssues(v.looseObject({ a: v.string() }), { a: 'x', b: 1 })).toEqual([])
    expect(unknownKeyIssues(v.record(v.string(), v.number()), { a: 1, b: 2 })).toEqual([])
  })

  test('OpenAPI says so: input objects have additionalProperties false (loose objects and records excepted)', () => {
    const doc = buildOpenApi(restRoutes, '/api') as any
    const bodyOf = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema
    expect(bodyOf('/user', 'post').additionalProperties).toBe(false)
    expect(bodyOf('/message/{key}', 'patch').additionalProperties).toBe(false)
    expect(bodyOf('/batch/{key}/serial-temp-links', 'put').items.additionalProperties).toBe(false)
    expect(doc.info.description).toContain('unknown_key')
  })

  test('POST user, POST product and PATCH settings answer alike', async () => {
    for (const [method, path, body] of [
      ['POST', '/api/user', { username: 'u1', scope: 'operator', [TYPO]: 1 }],
      ['POST', '/api/product', { code: 'P-TYPO', [TYPO]: 1 }],
      ['PATCH', '/api/settings', { company_name: 'X', [TYPO]: 1 }],
    ] as const) {
      const got = await refusedWritingNothing(() => h.request(method, path, { token, body }))
      expect({ path, ...got }).toEqual({ path, ...expected(TYPO) })
    }
  })
})
