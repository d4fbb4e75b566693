import { beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import * as v from 'valibot'
import { SCOPES } from '../../src/auth/scopes'
import { type AnySchema, anyJson, carriedCounts, RUNS_REFUSED, RUNS_SHAPED, shaped } from '../test/bad-input'
import { appCode, MISSING_UUID, quickUser, tableCounts } from '../test/fixtures'
import { useHarness } from '../test/harness'
import type { AnyRoute } from './route'
import { restRoutes } from './routes'

/**
 * Property-based bad input on the REST routes: whatever JSON arrives, the answer is a 4xx (never
 * a 5xx) and a refused request writes nothing. Routes are read from `restRoutes`, so later issues
 * are covered as they land. The procedures have their own file (src-server/trpc/bad-input.test.ts),
 * so the two halves can run side by side.
 */
const restLabel = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`

const jsonRoutes = restRoutes.filter((r) => r.body && !r.multipart)

describe('bad input: 4xx, never 5xx, and nothing written', () => {
  const h = useHarness()
  const counts = carriedCounts(h)
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
          const before = await counts.before()
          const res = await send(r, value)
          expect({ status: res.status, code: appCode(res.body) }).toEqual({ status: 400, code: 'INVALID_INPUT' })
          expect(await counts.after()).toEqual(before)
        }),
        { numRuns: RUNS_REFUSED },
      )
    })

    test(`${restLabel(r)}: values shaped like its schema never cause a 5xx; refusals write nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(shaped(r.body as AnySchema), async (value) => {
          const before = await counts.before()
          const res = await send(r, value)
          expect(res.status).toBeGreaterThanOrEqual(200)
          expect(res.status).toBeLessThan(500)
          expect(res.headers.get('content-type') ?? '').toContain('application/json')
          if (res.status >= 400) {
            expect(typeof res.body.detail.code).toBe('string')
            expect(await counts.after()).toEqual(before)
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

})
