import type { Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as v from 'valibot'
import { authorize } from '../auth/authorize'
import { AppError, badRequest } from '../errors'
import type { AppEnv } from '../http-env'
import { assertStorableInput } from '../input-guard'
import type { InputIssue } from '../../src/input-issues'
import { inputIssues, invalidInput, invalidField } from '../input-issues'
import { unexpectedInputIssues, unknownKeyIssues } from '../unknown-keys'
import { type AnyRoute, JSON_BODY_LIMIT } from './route'
import { keysForVisibleCodes } from './visible-codes'

export const honoPath = (openapiPath: string) => openapiPath.replace(/\{(\w+)\}/g, ':$1')

type CheckedPart = { output: unknown; unknown: InputIssue[]; issues: InputIssue[] }

/**
 * One part of a request (query string or body) against its valibot schema; a part without a
 * schema takes nothing. Keys the schema does not declare are refused as well (kind unknown_key).
 */
function checkPart(schema: v.GenericSchema | undefined, value: unknown, what: string): CheckedPart {
  if (!schema) return { output: undefined, unknown: unexpectedInputIssues(value, what), issues: [] }
  assertStorableInput(value)
  const result = v.safeParse(schema, value)
  return { output: result.output, unknown: unknownKeyIssues(schema, value), issues: result.success ? [] : inputIssues(result.issues, schema) }
}

const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish'])

/** The base type of a schema under its optional/nullable wrappers ('number', 'boolean', 'array' ...). */
function baseType(schema: v.GenericSchema | undefined): string | undefined {
  let node = schema as unknown as { type: string; wrapped?: v.GenericSchema } | undefined
  while (node && WRAPPERS.has(node.type)) node = node.wrapped as typeof node
  return node?.type
}

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const BOOLEAN_TEXT: Record<string, boolean> = { true: true, '1': true, false: false, '0': false }

/**
 * A query string holds text; the input schema says which entries are numbers, booleans or lists
 * (so OpenAPI types `page_size` as an integer). Text that is not such a value is left as it is,
 * and the schema then refuses it naming the entry.
 */
function queryValues(schema: v.GenericSchema | undefined, c: Context<AppEnv>): Record<string, unknown> {
  const entries = (schema as unknown as { entries?: Record<string, v.GenericSchema> } | undefined)?.entries ?? {}
  const out: Record<string, unknown> = {}
  for (const [key, text] of Object.entries(c.req.query())) {
    const type = baseType(entries[key])
    if (type === 'number' && NUMBER_TEXT.test(text)) out[key] = Number(text)
    else if (type === 'boolean' && text in BOOLEAN_TEXT) out[key] = BOOLEAN_TEXT[text]
    else if (type === 'array') out[key] = c.req.queries(key)
    else out[key] = text
  }
  return out
}

const tooLarge = () => {
  throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'request body too large')
}

function readJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('MALFORMED_JSON', 'malformed JSON body')
  }
}

/**
 * Bun's multipart parser gives a file part whose filename is empty (or only NUL) no `name` at
 * all; every upload service reads the name as text, so such a file arrives named ''.
 */
const named = (entry: FormDataEntryValue): FormDataEntryValue =>
  entry instanceof File && typeof entry.name !== 'string' ? new File([entry], '', { type: entry.type }) : entry

async function readBody(route: AnyRoute, req: Request): Promise<unknown> {
  if (route.multipart) {
    let form: FormData
    try {
      form = await req.formData()
    } catch {
      throw invalidField({ path: '', kind: 'type', message: 'expected a multipart/form-data body' })
    }
    // A name given more than once (several files under `contents`) becomes a list.
    const fields = new Map<string, FormDataEntryValue | FormDataEntryValue[]>()
    for (const [name, entry] of form.entries()) {
      const value = named(entry)
      const seen = fields.get(name)
      fields.set(name, seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value])
    }
    return Object.fromEntries(fields)
  }
  return readJson(await req.text())
}

export function mountRoutes(api: Hono<AppEnv>, routes: readonly AnyRoute[]) {
  for (const r of routes) {
    const limit = bodyLimit({ maxSize: r.multipart?.maxBytes ?? JSON_BODY_LIMIT, onError: tooLarge })
    api.on(r.method.toUpperCase(), honoPath(r.path), limit, async (c) => {
      const ctx = c.get('ctx')
      // Authorisation comes first: a caller without the scope learns nothing about the input.
      const actor = await authorize(ctx, r.access)
      // Every part is checked before any refusal: one answer lists all that is wrong, unknown keys
      // first (a typo is the likely cause of the rest). Path parameters come from the route itself.
      const parts = [
        r.params ? checkPart(r.params, await keysForVisibleCodes(ctx.db, r.path, c.req.param()), 'path parameters') : null,
        checkPart(r.query, queryValues(r.query, c), 'query parameters'),
        checkPart(r.body, r.body ? await readBody(r, c.req.raw) : readJson(await c.req.text()), 'request body'),
      ] as const
      const issues = [...parts.flatMap((p) => p?.unknown ?? []), ...parts.flatMap((p) => p?.issues ?? [])]
      if (issues.length) throw invalidInput(issues)
      const [params, query, body] = parts.map((p) => p?.output)
      const result = await r.handler({ ...ctx, actor, hono: c }, { params, query, body })
      if (r.stream && result instanceof Response) return result
      return c.json({ detail: result ?? null }, r.status ?? 200)
    })
  }
}
