import { beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import * as v from 'valibot'
import { SCOPES } from '../../src/auth/scopes'
import { appCode, MISSING_UUID, quickUser, tableCounts, trpcCall } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { appRouter } from '../trpc/app-router'
import type { AnyRoute } from './route'
import { restRoutes } from './routes'

/**
 * Property-based bad input: whatever JSON arrives, the answer is a 4xx (never a 5xx) and a
 * refused request writes nothing. Routes and procedures are read from `restRoutes` and
 * `appRouter`, so later issues are covered as they land. Runs are few per route to stay fast.
 */
const RUNS_REFUSED = 20
const RUNS_SHAPED = 20

type AnySchema = { type: string; entries?: Record<string, AnySchema>; wrapped?: AnySchema; options?: unknown[]; item?: AnySchema; value?: unknown }

/** Awkward strings: NUL, lone surrogates, control characters, SQL and path tricks, long text. */
const nasty = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\u202e',
  '\n\r\t',
  "'; drop table users; --",
  '../../etc/passwd',
  '%00',
  'x'.repeat(5000),
  MISSING_UUID,
  'not-a-uuid',
  '__proto__',
  'constructor',
  'admin',
  'operator',
)
const anyString = fc.oneof(
  { arbitrary: nasty, weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
)
const anyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1, -0.5, 1e308, -1e308, 2 ** 53, 2 ** 31, -(2 ** 31) - 1, 1e-320),
)
const anyJson = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' })

/** A value shaped by a valibot schema (right keys and mostly right types), with bad leaves mixed in. */
function shaped(schema: AnySchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyJson
  const inner = (s: AnySchema | undefined) => shaped(s, depth + 1)
  let good: fc.Arbitrary<unknown>
  switch (schema.type) {
    case 'object':
    case 'loose_object':
    case 'strict_object': {
      const entries = Object.entries(schema.entries ?? {})
      good = fc.record(Object.fromEntries(entries.map(([k, s]) => [k, inner(s)])), { requiredKeys: [] })
      break
    }
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'exact_optional':
    case 'undefinedable':
      good = fc.oneof(inner(schema.wrapped), fc.constant(null))
      break
    case 'string':
      good = anyString
      break
    case 'number':
      good = anyNumber
      break
    case 'boolean':
      good = fc.boolean()
      break
    case 'picklist':
      good = fc.oneof(fc.constantFrom(...((schema.options as unknown[]) ?? [''])), anyString)
      break
    case 'literal':
      good = fc.constant(schema.value)
      break
    case 'array':
      good = fc.array(inner(schema.item), { maxLength: 4 })
      break
    case 'union':
    case 'variant':
      good = fc.oneof(...((schema.options as AnySchema[]) ?? []).map(inner), anyJson)
      break
    case 'record':
      good = fc.dictionary(anyString, anyJson, { maxKeys: 4 })
      break
    default:
      good = anyJson
  }
  return fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: anyJson, weight: 1 })
}

const restLabel = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: AnySchema[] } }
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures)

const jsonRoutes = restRoutes.filter((r) => r.body && !r.multipart)
const trpcWithInput = procedures.filter(([, p]) => p._def.inputs.length > 0 && p._def.type !== 'subscription')

describe('bad input: 4xx, never 5xx, and nothing written', () => {
  const h = useHarness()
  let token: string
  let victim: string

  beforeAll(async () => {
    // A dedicated all-permissions user: failed unlocks or logins may throttle it, not `admin`.
    token = (await quickUser(h, 'fuzzer', SCOPES.join(' '))).token
    victim = (await quickUser(h, 'victim', 'operator')).key
  })

  /** A path value the route's params schema accepts (a real user key where a key is expected). */
  function pathFor(r: AnyRoute): string {
    return `/api${r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const fits = [victim, MISSING_UUID, '1', 'x'].find((c) => !r.params || v.safeParse(r.params, { [name]: c }).success)
      return fits ?? 'x'
    })}`
  }

  const send = (r: AnyRoute, value: unknown) =>
    h.request(r.method.toUpperCase(), pathFor(r), { token, body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })

  test('the fuzzed routes include the platform ones', () => {
    const labels = jsonRoutes.map(restLabel)
    for (const l of ['POST /login', 'POST /session', 'POST /session/unlock', 'POST /password', 'POST /user', 'PATCH /user/{key}', 'POST /event']) {
      expect(labels).toContain(l)
    }
  })

  for (const r of jsonRoutes) {
    test(`${restLabel(r)}: JSON its schema refuses is 400 INVALID_INPUT and writes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyJson, shaped(r.body as AnySchema)), async (value) => {
          fc.pre(!v.safeParse(r.body, value).success)
          const before = await tableCounts(h)
          const res = await send(r, value)
          expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
          expect(await tableCounts(h)).toEqual(before)
        }),
        { numRuns: RUNS_REFUSED },
      )
    })

    test(`${restLabel(r)}: values shaped like its schema never cause a 5xx; refusals write nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(shaped(r.body as AnySchema), async (value) => {
          const before = await tableCounts(h)
          const res = await send(r, value)
          expect(res.status).toBeGreaterThanOrEqual(200)
          expect(res.status).toBeLessThan(500)
          expect(res.headers.get('content-type') ?? '').toContain('application/json')
          if (res.status >= 400) {
            expect(typeof res.body.detail.code).toBe('string')
            expect(await tableCounts(h)).toEqual(before)
          }
        }),
        { numRuns: RUNS_SHAPED },
      )
    })
  }

  test('multipart routes: JSON or junk bodies are 4xx and write nothing', async () => {
    for (const r of restRoutes.filter((x) => x.multipart)) {
      for (const body of ['{"new_image":"x"}', 'garbage', '']) {
        const before = await tableCounts(h)
        const res = await h.request(r.method.toUpperCase(), pathFor(r), { token, body, headers: { 'content-type': 'multipart/form-data; boundary=nope' } })
        expect({ route: restLabel(r), body, client: res.status >= 400 && res.status < 500 }).toEqual({ route: restLabel(r), body, client: true })
        expect(await tableCounts(h)).toEqual(before)
      }
    }
  })

  for (const [name, p] of trpcWithInput) {
    test(`tRPC ${name}: random input never causes a 5xx; refusals write nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyJson, shaped(p._def.inputs[0])), async (value) => {
          const before = await tableCounts(h)
          const res = await trpcCall(h, name, p._def.type as 'query' | 'mutation', value, { token })
          expect({ name, status: res.status < 500 }).toEqual({ name, status: true })
          if (res.status >= 400) expect(await tableCounts(h)).toEqual(before)
        }),
        { numRuns: RUNS_SHAPED },
      )
    })
  }
})
