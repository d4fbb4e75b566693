import * as v from 'valibot'
import type { AnyUseCase, RestBinding, UseCaseCtx, UseCaseGroup } from '../api/use-case'
import type { AnyRoute } from './route'

type Entries = v.ObjectEntries

const WRAPPERS = new Set(['optional', 'nullish', 'undefinedable'])

/** The entries of an object input (also one wrapped in optional), or null for any other input. */
function entriesOf(schema: v.GenericSchema | undefined): Entries | null {
  let node = schema as unknown as { type: string; entries?: Entries; wrapped?: v.GenericSchema } | undefined
  while (node && WRAPPERS.has(node.type)) node = node.wrapped as typeof node
  return node && node.type === 'object' ? node.entries! : null
}

const pathNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)

const pick = (entries: Entries, keys: string[]) => (keys.length ? v.object(Object.fromEntries(keys.map((k) => [k, entries[k]!]))) : undefined)

function fail(where: string, message: string): never {
  throw new Error(`use case ${where}: ${message}`)
}

/**
 * The REST route of one use case: path parameters, query string and body are the input
 * schema's own entries (so OpenAPI documents the same types tRPC takes), read back into one input.
 */
function routeOf(u: AnyUseCase, rest: RestBinding, tag: string): AnyRoute {
  const where = `${rest.method.toUpperCase()} ${rest.path}`
  const entries = entriesOf(u.input)
  const inputKeyOf = (param: string) => rest.params?.[param] ?? param
  const params = pathNames(rest.path)
  const rest_ = (keys: string[]) => (entries ? Object.keys(entries).filter((k) => !keys.includes(k)) : [])
  if (!entries && u.input && params.length) fail(where, 'path parameters need an object input')
  for (const p of params) if (entries && !entries[inputKeyOf(p)]) fail(where, `no input entry for path parameter ${p}`)

  const taken = [...params.map(inputKeyOf), ...(rest.omit ?? [])]
  const bodyKey = rest.body
  if (bodyKey && !entries?.[bodyKey]) fail(where, `no input entry ${bodyKey} for the body`)
  const others = rest_(bodyKey ? [...taken, bodyKey] : taken)
  const readsBody = rest.jsonBody || (rest.method !== 'get' && rest.method !== 'delete' && !rest.queryOnly)
  const paramsSchema = entries && params.length ? v.object(Object.fromEntries(params.map((p) => [p, entries[inputKeyOf(p)]!]))) : undefined
  const querySchema = entries && (bodyKey || !readsBody) ? pick(entries, others) : undefined
  const bodySchema = bodyKey ? entries![bodyKey] : readsBody ? (entries ? pick(entries, others) : u.input) : undefined
  if (!readsBody && !entries && u.input) fail(where, 'a query string needs an object input')

  return {
    method: rest.method,
    path: rest.path,
    tag: rest.tag ?? tag,
    summary: u.summary,
    access: u.access,
    params: paramsSchema,
    query: querySchema,
    body: bodySchema,
    multipart: rest.multipart,
    response: rest.answer?.response ?? u.response,
    status: rest.status,
    stream: rest.stream,
    handler: async (ctx, parts) => {
      const fromParams = Object.fromEntries(params.map((p) => [inputKeyOf(p), (parts.params as Record<string, unknown>)[p]]))
      const input = !entries
        ? parts.body
        : { ...fromParams, ...(parts.query as object), ...(bodyKey ? { [bodyKey]: parts.body } : (readsBody ? (parts.body as object) : {})) }
      const result = await u.run(ctx as UseCaseCtx, input)
      return rest.answer ? rest.answer.from(result) : result
    },
  }
}

/** A domain's REST routes: every use case that declares a REST binding. */
export function routesOf(group: UseCaseGroup): AnyRoute[] {
  return Object.values(group.cases).flatMap((u) => (u.rest ? [routeOf(u, u.rest, group.tag)] : []))
}
