import type { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as v from 'valibot'
import { authorize } from '../auth/authorize'
import { AppError, badRequest } from '../errors'
import type { AppEnv } from '../http-env'
import { assertStorableInput } from '../input-guard'
import { inputIssues, invalidInput } from '../input-issues'
import { unexpectedInputIssues, unknownKeyIssues } from '../unknown-keys'
import { type AnyRoute, JSON_BODY_LIMIT } from './route'

export const honoPath = (openapiPath: string) => openapiPath.replace(/\{(\w+)\}/g, ':$1')

/**
 * Validates with valibot; refusals are 400 INVALID_INPUT with structured `issues` (src-server/input-issues.ts).
 * Keys the schema does not declare are refused too, listed first: a typo is the likely cause of the rest.
 */
export function parseInput<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  assertStorableInput(value)
  const unknown = unknownKeyIssues(schema, value)
  const result = v.safeParse(schema, value)
  if (result.success && unknown.length === 0) return result.output
  throw invalidInput([...unknown, ...(result.success ? [] : inputIssues(result.issues))])
}

/** A query string or body sent to a path that declares none is refused like an unknown key. */
function refuseUnexpected(value: unknown, what: string): undefined {
  const issues = unexpectedInputIssues(value, what)
  if (issues.length) throw invalidInput(issues)
  return undefined
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

async function readBody(route: AnyRoute, req: Request): Promise<unknown> {
  if (route.multipart) {
    let form: FormData
    try {
      form = await req.formData()
    } catch {
      throw badRequest('INVALID_INPUT', 'expected a multipart/form-data body')
    }
    // A name given more than once (several files under `contents`) becomes a list.
    const fields = new Map<string, FormDataEntryValue | FormDataEntryValue[]>()
    for (const [name, value] of form.entries()) {
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
      const params = r.params ? parseInput(r.params, c.req.param()) : undefined
      const query = r.query ? parseInput(r.query, c.req.query()) : refuseUnexpected(c.req.query(), 'query parameters')
      const body = r.body ? parseInput(r.body, await readBody(r, c.req.raw)) : refuseUnexpected(readJson(await c.req.text()), 'request body')
      const result = await r.handler({ ...ctx, actor, hono: c }, { params, query, body })
      return c.json({ detail: result ?? null }, r.status ?? 200)
    })
  }
}
