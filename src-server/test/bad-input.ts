import fc from 'fast-check'
import { MISSING_UUID, tableCounts } from './fixtures'
import type { Harness } from './harness'

/**
 * Arbitraries for the property-based bad-input tests (src-server/rest/bad-input.test.ts for the
 * REST routes, src-server/trpc/bad-input.test.ts for the procedures): awkward JSON, and values
 * shaped by a route's valibot schema with bad leaves mixed in. Runs are few per route to stay fast.
 */
export const RUNS_REFUSED = 20
export const RUNS_SHAPED = 20

export type AnySchema = { type: string; entries?: Record<string, AnySchema>; wrapped?: AnySchema; options?: unknown[]; item?: AnySchema; value?: unknown }

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
export const anyJson = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' })

/** A value shaped by a valibot schema (right keys and mostly right types), with bad leaves mixed in. */
export function shaped(schema: AnySchema | undefined, depth = 0): fc.Arbitrary<unknown> {
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


/**
 * Table counts carried from one run to the next: a refused request writes nothing, so the counts
 * read after it are the next run's counts before, read once instead of twice.
 */
export function carriedCounts(h: Harness) {
  let known: Record<string, number> | undefined
  return {
    /** The counts before a request: the carried ones, or read afresh after one that may have written. */
    async before() {
      const counts = known ?? (await tableCounts(h))
      known = undefined
      return counts
    },
    /** The counts after a request; the next run starts from them. */
    async after() {
      known = await tableCounts(h)
      return known
    },
  }
}
