import { beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { SCOPES } from '../../src/auth/scopes'
import { type AnySchema, anyJson, carriedCounts, RUNS_SHAPED, shaped } from '../test/bad-input'
import { quickUser, trpcCall } from '../test/fixtures'
import { useHarness } from '../test/harness'
import { appRouter } from './app-router'

/**
 * Property-based bad input on the tRPC procedures: whatever input arrives, the answer is never a
 * 5xx and a refused call writes nothing. Procedures are read from `appRouter`, so later issues are
 * covered as they land (the REST routes: src-server/rest/bad-input.test.ts).
 */
type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: AnySchema[] } }
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures)
const trpcWithInput = procedures.filter(([, p]) => p._def.inputs.length > 0 && p._def.type !== 'subscription')

describe('bad input: 4xx, never 5xx, and nothing written', () => {
  const h = useHarness()
  const counts = carriedCounts(h)
  let token: string

  beforeAll(async () => {
    // A dedicated all-permissions user: failed unlocks or logins may throttle it, not `admin`.
    token = (await quickUser(h, 'fuzzer', SCOPES.join(' '))).token
  })

  for (const [name, p] of trpcWithInput) {
    test(`tRPC ${name}: random input never causes a 5xx; refusals write nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyJson, shaped(p._def.inputs[0])), async (value) => {
          const before = await counts.before()
          const res = await trpcCall(h, name, p._def.type as 'query' | 'mutation', value, { token })
          expect({ name, status: res.status < 500 }).toEqual({ name, status: true })
          if (res.status >= 400) expect(await counts.after()).toEqual(before)
        }),
        { numRuns: RUNS_SHAPED },
      )
    })
  }
})
