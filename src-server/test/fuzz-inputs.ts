import fc from 'fast-check'
import { IMPORT_COLUMNS } from '../../src/domains/flows/imports'
import { TINY_PNG } from './fixtures'

/**
 * fast-check arbitraries read from a valibot schema (the use case's own input schema), so every
 * route and procedure is fuzzed without per-route code. `inputOf(schema, pools)` mixes values
 * the schema accepts with values one step off it; each kind changes one place of a valid value:
 *
 * - valid: inside every limit the schema states (lengths, ranges, picklists, uuids from the
 *   database's own keys, regexes), so calls reach the services;
 * - boundary: a limit exactly, or one past it;
 * - wrong_type: another JSON type where the schema expects one;
 * - unknown_key: a key the object does not declare;
 * - huge: very long text, very many items, very large numbers;
 * - unicode: emoji, combining marks, right-to-left, NUL, lone surrogates, look-alike digits;
 * - negative: negative numbers and text that reads as one;
 * - nan: NaN and ±Infinity (sent as `1e999` in JSON, which parses to Infinity).
 */
export const INPUT_KINDS = ['valid', 'boundary', 'wrong_type', 'unknown_key', 'huge', 'unicode', 'negative', 'nan'] as const
export type InputKind = (typeof INPUT_KINDS)[number]

/** Values from the database under test: keys that name real rows, codes and names in use. */
export type Pools = { keys: string[]; words: string[] }

type Action = { kind: 'validation' | 'transformation' | 'metadata'; type: string; requirement?: unknown }
export type SchemaNode = {
  kind: 'schema'
  type: string
  entries?: Record<string, SchemaNode>
  wrapped?: SchemaNode
  item?: SchemaNode
  options?: unknown[]
  key?: SchemaNode | string
  value?: SchemaNode
  literal?: unknown
  pipe?: (SchemaNode | Action)[]
}

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable'])
const WRAPPERS = new Set([...OPTIONAL, 'nullable', 'non_optional', 'non_nullable', 'non_nullish'])
const OBJECTS = new Set(['object', 'strict_object', 'loose_object'])

/** The limits a schema's pipe states; those after a transform apply to the transformed value. */
type Limits = {
  minLength?: number
  maxLength?: number
  min?: number
  max?: number
  integer?: boolean
  uuid?: boolean
  regex?: RegExp
  /** A digits-only text turned into a number (the query-string integers). */
  numericText?: boolean
}

function limitsOf(node: SchemaNode): Limits {
  const limits: Limits = {}
  let transformed = false
  for (const a of (node.pipe ?? []).slice(1) as Action[]) {
    const n = a.requirement as number
    if (a.type === 'transform') transformed = true
    else if (a.type === 'min_length' || a.type === 'non_empty') limits.minLength = Math.max(limits.minLength ?? 0, a.type === 'non_empty' ? 1 : n)
    else if (a.type === 'max_length') limits.maxLength = Math.min(limits.maxLength ?? Infinity, n)
    else if (a.type === 'min_value' || a.type === 'gt_value') limits.min = Math.max(limits.min ?? -Infinity, a.type === 'gt_value' ? n + 1e-9 : n)
    else if (a.type === 'max_value') limits.max = Math.min(limits.max ?? Infinity, n)
    else if (a.type === 'integer') limits.integer = true
    else if (a.type === 'uuid') limits.uuid = true
    else if (a.type === 'regex' && !transformed) limits.regex = a.requirement as RegExp
    if (transformed && node.type === 'string' && (a.type === 'min_value' || a.type === 'max_value')) limits.numericText = true
  }
  return limits
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** Text made of the characters people and scripts actually send, plus the awkward ones. */
const UNICODE_SAMPLES = [
  'café',
  'Ünïcödé',
  '😀👍🏽👨‍👩‍👧',
  'e\u0301\u0301\u0301',
  '\u202eevil\u202c',
  'zero\u200bwidth',
  '１２３',
  '٣٤٥',
  'İı',
  'ß',
  '中文字符',
  '\ufeffbom',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\r\n\t',
  "'; drop table users; --",
  '../../etc/passwd',
  '%00%2F',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
]
const unicodeText = fc.oneof(
  fc.constantFrom(...UNICODE_SAMPLES),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
)

const WRONG_TYPES: unknown[] = [0, 1, -1, 1.5, '', 'x', 'true', true, false, null, [], [1], {}, { a: 1 }]
const wrongTypeFor = (type: string) =>
  fc.constantFrom(
    ...WRONG_TYPES.filter((x) => {
      const t = x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x === 'object' ? 'object' : typeof x
      return t !== type && !(type === 'picklist' && typeof x === 'string') && !(OBJECTS.has(type) && t === 'object')
    }),
  )

const randomUuid = fc.uuid({ version: 4 })

/** Text within the schema's limits: a pool value or a regex match where it fits, else random text. */
function validText(l: Limits, pools: Pools): fc.Arbitrary<string> {
  const min = l.minLength ?? 0
  const max = Math.min(l.maxLength ?? 60, Math.max(min, 60))
  if (l.uuid) return pools.keys.length ? fc.oneof({ arbitrary: fc.constantFrom(...pools.keys), weight: 3 }, randomUuid) : randomUuid
  if (l.numericText) return fc.integer({ min: Math.ceil(l.min ?? -1000), max: Math.floor(l.max ?? 1000) }).map(String)
  const fits = (s: string) => s.length >= min && s.length <= (l.maxLength ?? Infinity) && (!l.regex || l.regex.test(s))
  const words = pools.words.filter(fits)
  const matching = l.regex && regexMatches(l.regex)
  const random = matching
    ? matching.map((s) => (s.length > (l.maxLength ?? Infinity) ? s.slice(0, l.maxLength) : s))
    : fc.string({ minLength: min, maxLength: max })
  return words.length ? fc.oneof(fc.constantFrom(...words), random) : random
}

/**
 * Text a regex matches. fast-check takes neither flags nor backreferences: a case-insensitive
 * regex is generated in its own case, and `\2` by the pattern of group 2 (then kept only where
 * the groups agree, as the original says).
 */
function regexMatches(re: RegExp): fc.Arbitrary<string> | null {
  const groups: string[] = []
  const source = re.source.replace(/\\(\d)/g, (_m, n: string) => {
    if (!groups.length) groups.push(...capturingGroups(re.source))
    return groups[Number(n) - 1] ?? '.'
  })
  try {
    const arbitrary = fc.stringMatching(new RegExp(source))
    return source === re.source ? arbitrary : arbitrary.filter((s) => re.test(s))
  } catch {
    return null
  }
}

/** The capturing groups of a regex source, in order (simple sources: no nested classes holding parentheses). */
function capturingGroups(source: string): string[] {
  const out: string[] = []
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') i++
    else if (source[i] === '(' && source[i + 1] !== '?') {
      let depth = 0
      for (let j = i; j < source.length; j++) {
        if (source[j] === '\\') j++
        else if (source[j] === '(') depth++
        else if (source[j] === ')' && --depth === 0) {
          out.push(source.slice(i, j + 1))
          break
        }
      }
    }
  }
  return out
}

function validNumber(l: Limits): fc.Arbitrary<number> {
  const min = Number.isFinite(l.min) ? l.min! : -1e6
  const max = Number.isFinite(l.max) ? l.max! : 1e6
  if (l.integer) return fc.integer({ min: Math.max(Math.ceil(min), -MAX_SAFE), max: Math.min(Math.floor(max), MAX_SAFE) })
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
  )
}

/** The values at and one past each limit the schema states. */
function boundaryValues(node: SchemaNode, l: Limits): unknown[] {
  const out: unknown[] = []
  if (node.type === 'string') {
    const lengths = [l.minLength, l.maxLength].filter((n): n is number => n !== undefined && Number.isFinite(n))
    // Limits beyond the 1 MiB body limit are met by it first.
    for (const n of lengths) for (const len of [n - 1, n, n + 1]) if (len >= 0 && len <= 200_000) out.push('a'.repeat(len))
    if (l.uuid) out.push('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF', '{00000000-0000-4000-8000-000000000000}')
    if (l.numericText) for (const n of [l.min, l.max]) if (n !== undefined) out.push(String(n), String(n - 1), String(n + 1))
    out.push('', ' ', '  padded  ')
  }
  if (node.type === 'number') {
    for (const n of [l.min, l.max]) if (n !== undefined && Number.isFinite(n)) out.push(n, n - 1, n + 1, n - 0.5, n + 0.5)
    out.push(0, -0, MAX_SAFE, MAX_SAFE + 2, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 63, Number.MIN_VALUE, 0.1 + 0.2, 1.005)
  }
  if (node.type === 'picklist' && node.options?.length) {
    const first = String(node.options[0])
    out.push(first.toUpperCase(), first.toLowerCase(), ` ${first}`, `${first} `)
  }
  if (node.type === 'array') {
    for (const n of [l.minLength, l.maxLength]) if (n !== undefined && Number.isFinite(n)) for (const len of [n - 1, n, n + 1]) if (len >= 0 && len < 5000) out.push(len)
  }
  return out
}

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')
const file = (bytes: Uint8Array<ArrayBuffer> | string, name: string, type: string) => new File([bytes], name, { type })

/** A file an upload takes: an image, a PDF, or a CSV of work orders naming products in use. */
function validFile(pools: Pools): fc.Arbitrary<File> {
  const row = fc.tuple(pools.words.length ? fc.constantFrom(...pools.words) : fc.constant('P1'), fc.integer({ min: 1, max: 50 })).map(([code, qty]) => `${code},${qty},,,,note,`)
  const csv = fc.array(row, { minLength: 1, maxLength: 5 }).map((rows) => file([IMPORT_COLUMNS.join(','), ...rows].join('\n'), 'orders.csv', 'text/csv'))
  return fc.oneof(fc.constant(file(TINY_PNG, 'image.png', 'image/png')), fc.constant(file(PDF, 'doc.pdf', 'application/pdf')), csv)
}

/** A file one step off: empty, mislabelled, huge, strangely named, or text where a file goes. */
function fileFor(kind: InputKind, valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'valid':
    case 'unknown_key':
      return valid
    case 'boundary':
      return fc.constantFrom(file('', 'empty.png', 'image/png'), file(TINY_PNG.slice(0, 20), 'cut.png', 'image/png'), file(TINY_PNG, 'image.png', ''))
    case 'wrong_type':
      return fc.constantFrom('not a file', '')
    case 'huge':
      return fc.constantFrom(file(new Uint8Array(3 * 1024 * 1024), 'huge.png', 'image/png'), file('a,'.repeat(1024 * 1024), 'huge.csv', 'text/csv'))
    case 'unicode':
      return unicodeText.map((name) => file(TINY_PNG, name || 'x', 'image/png'))
    case 'negative':
    case 'nan':
      return fc.constantFrom(file(PDF, 'doc.png', 'image/png'), file(TINY_PNG, 'image.pdf', 'application/pdf'), file('-1', '-1', 'text/plain'))
  }
}

// Past every max_length the schemas state; the 1 MiB body limit is met by the huge lists.
const hugeText = fc.oneof({ weight: 4, arbitrary: fc.constant('x'.repeat(12_000)) }, { weight: 1, arbitrary: fc.constant('😀'.repeat(50_000)) }, fc.constant('a '.repeat(20_000)))
const hugeNumber = fc.constantFrom(1e308, -1e308, 1e21, 9007199254740993, 123456789012345678901234567890)

/**
 * One input for `schema`: valid, or valid except at one place where `kind` applies.
 * `depth` guards recursive schemas.
 */
export function inputFor(node: SchemaNode | undefined, kind: InputKind, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  if (!node) return kind === 'unknown_key' ? fc.constant({ unexpected: 1 }) : fc.constant(undefined)
  if (depth > 6) return fc.constant(null)
  const t = node.type
  const inner = (n: SchemaNode | undefined, k: InputKind) => inputFor(n, k, pools, depth + 1)

  if (WRAPPERS.has(t)) {
    const absent = OPTIONAL.has(t) ? [fc.constant(undefined)] : t === 'nullable' || t === 'nullish' ? [fc.constant(null)] : []
    if (kind !== 'valid') return inner(node.wrapped, kind)
    return absent.length ? fc.oneof({ arbitrary: inner(node.wrapped, kind), weight: 3 }, ...absent) : inner(node.wrapped, kind)
  }

  if (OBJECTS.has(t)) {
    const entries = Object.entries(node.entries ?? {})
    const required = entries.filter(([, s]) => !OPTIONAL.has(s.type)).map(([k]) => k)
    const record = (mutated?: string) =>
      fc.record(Object.fromEntries(entries.map(([k, s]) => [k, inner(s, k === mutated ? kind : 'valid')])), { requiredKeys: mutated ? [...required, mutated] : required })
    if (kind === 'valid') return record()
    const choices: fc.Arbitrary<unknown>[] = entries.map(([k]) => record(k))
    if (kind === 'unknown_key' || choices.length === 0) {
      const extra = fc.constantFrom('typo_field', '__proto__', 'constructor', '_key', 'is_admin', '', 'ünï', 'a.b')
      choices.push(fc.tuple(record(), extra, fc.jsonValue({ maxDepth: 1 })).map(([value, k, x]) => ({ ...(value as object), [k]: x })))
    }
    if (kind === 'wrong_type') choices.push(wrongTypeFor(t))
    return fc.oneof(...choices)
  }

  if (t === 'array') {
    const l = limitsOf(node)
    const minLength = l.minLength ?? 0
    const maxLength = Math.min(l.maxLength ?? 5, Math.max(minLength, 5))
    const items = (k: InputKind) => fc.array(inner(node.item, k), { minLength: k === 'valid' ? minLength : Math.max(minLength, 1), maxLength: Math.max(maxLength, 1) })
    if (kind === 'valid') return items('valid')
    if (kind === 'wrong_type') return fc.oneof(wrongTypeFor(t), items('wrong_type'))
    if (kind === 'boundary') {
      const lengths = boundaryValues(node, l) as number[]
      // Lists at a length limit repeat one valid item: thousands of distinct ones cost more to make than to refuse.
      const repeated = (n: number) => inner(node.item, 'valid').map((x) => Array.from({ length: n }, () => x))
      return lengths.length ? fc.oneof(items('boundary'), fc.constantFrom(...lengths).chain(repeated)) : items('boundary')
    }
    // One past the limit, or a thousand items where none is stated (the 1 MiB body limit stops more).
    const many = Number.isFinite(l.maxLength) ? l.maxLength! + 1 : 1001
    if (kind === 'huge') return fc.oneof(items('huge'), inner(node.item, 'valid').map((x) => Array.from({ length: many }, () => x)))
    return items(kind)
  }

  if (t === 'union' || t === 'variant') {
    const options = (node.options ?? []) as SchemaNode[]
    return options.length ? fc.oneof(...options.map((o) => inner(o, kind))) : fc.constant(null)
  }

  if (t === 'record') {
    const entry = fc.tuple(inner(node.key as SchemaNode, kind === 'unknown_key' ? 'valid' : kind), inner(node.value, kind === 'unknown_key' ? 'valid' : kind))
    return fc.array(entry, { maxLength: 4 }).map((pairs) => Object.fromEntries(pairs.filter(([k]) => typeof k === 'string')))
  }

  if (t === 'lazy') return fc.constant(null)

  return leafFor(node, kind, pools)
}

function leafFor(node: SchemaNode, kind: InputKind, pools: Pools): fc.Arbitrary<unknown> {
  const t = node.type
  const l = limitsOf(node)
  const valid: fc.Arbitrary<unknown> =
    t === 'string'
      ? validText(l, pools)
      : t === 'number'
        ? validNumber(l)
        : t === 'boolean'
          ? fc.boolean()
          : t === 'picklist' || t === 'enum'
            ? fc.constantFrom(...((node.options as unknown[]) ?? [null]))
            : t === 'literal'
              ? fc.constant(node.literal)
              : t === 'null'
                ? fc.constant(null)
                : t === 'file' || t === 'blob'
                  ? validFile(pools)
                  : fc.jsonValue({ maxDepth: 2 })
  if (t === 'file' || t === 'blob') return fileFor(kind, valid)
  switch (kind) {
    case 'valid':
      return valid
    case 'boundary': {
      const values = boundaryValues(node, l)
      return values.length ? fc.constantFrom(...values) : valid
    }
    case 'wrong_type':
      return wrongTypeFor(t)
    case 'unknown_key':
      return valid
    case 'huge':
      return t === 'number' ? hugeNumber : hugeText
    case 'unicode':
      return t === 'string' && l.uuid ? fc.constantFrom('０００００００-0000-4000-8000-000000000000', '00000000\u200b-0000-4000-8000-000000000000') : unicodeText
    case 'negative':
      return t === 'number' ? fc.oneof(fc.integer({ min: -(2 ** 31), max: -1 }), fc.double({ max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }), fc.constant(-0)) : fc.constantFrom('-1', '-0', '-1e9', '−1')
    case 'nan':
      return t === 'string' ? fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999') : fc.constantFrom(Number.NaN, Infinity, -Infinity)
  }
}

/** How often each kind comes up in a route's inputs: a third valid, so calls get past the schema. */
export const KIND_WEIGHTS: Record<InputKind, number> = { valid: 35, boundary: 15, wrong_type: 12, unknown_key: 8, huge: 5, unicode: 12, negative: 7, nan: 6 }

const INFINITY = '\u0000fuzz:inf\u0000'
const MINUS_INFINITY = '\u0000fuzz:-inf\u0000'
const NOT_A_NUMBER = '\u0000fuzz:nan\u0000'

/**
 * JSON as a client could send it: ±Infinity become `1e999`/`-1e999` (which JSON.parse reads as
 * Infinity) and NaN the bare word `NaN` (which no JSON parser takes).
 */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value, (_k, x) =>
    typeof x === 'number' && !Number.isFinite(x) ? (Number.isNaN(x) ? NOT_A_NUMBER : x > 0 ? INFINITY : MINUS_INFINITY) : x,
  )
  if (text === undefined) return ''
  const quoted = (s: string) => JSON.stringify(s)
  return text.replaceAll(quoted(INFINITY), '1e999').replaceAll(quoted(MINUS_INFINITY), '-1e999').replaceAll(quoted(NOT_A_NUMBER), 'NaN')
}

/** A value as query-string or path text (lists as repeated keys are handled by the caller). */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return jsonText(value)
}
