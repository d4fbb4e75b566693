import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { requiredScopes } from '../auth/authorize'
import type { AnyRoute } from './route'
import { takesVisibleCode } from './visible-codes'

type JsonSchema = Record<string, unknown>

const schemaOf = (schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema => {
  const { $schema: _, ...rest } = toJsonSchema(schema, {
    errorMode: 'ignore',
    typeMode,
    // Inputs refuse keys they do not declare (rest/mount.ts); loose objects and records take any.
    overrideSchema: ({ valibotSchema, jsonSchema }) =>
      typeMode === 'input' && valibotSchema.type === 'object' ? { ...jsonSchema, additionalProperties: false } : undefined,
  }) as JsonSchema
  return rest
}

const ERROR = {
  type: 'object',
  properties: {
    detail: {
      type: 'object',
      properties: { message: { type: 'string' }, code: { type: 'string' } },
      required: ['message', 'code'],
    },
  },
}

function parameters(r: AnyRoute) {
  const out: JsonSchema[] = []
  for (const [where, schema] of [
    ['path', r.params],
    ['query', r.query],
  ] as const) {
    if (!schema) continue
    const json = schemaOf(schema, 'input')
    const props = (json.properties ?? {}) as Record<string, JsonSchema>
    const required = new Set((json.required as string[] | undefined) ?? [])
    for (const [name, s] of Object.entries(props)) {
      const schema = where === 'path' && takesVisibleCode(r.path, name) ? { type: 'string', description: 'The work order key or its code (WO000007)' } : s
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema })
    }
  }
  return out
}

function requestBody(r: AnyRoute) {
  if (!r.body) return undefined
  if (r.multipart) {
    const json = schemaOf(r.body, 'input')
    const props = Object.fromEntries(
      Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([k, s]) => [
        k,
        Object.keys(s).length === 0 ? { type: 'string', format: 'binary' } : s,
      ]),
    )
    return { required: true, content: { 'multipart/form-data': { schema: { ...json, properties: props } } } }
  }
  return { required: true, content: { 'application/json': { schema: schemaOf(r.body, 'input') } } }
}

function accessText(r: AnyRoute): string {
  if (r.access.scope === 'public') return 'Public.'
  if (r.access.scope === 'signed-in') return 'Any signed-in user.'
  return `Needs permission: ${requiredScopes(r.access).join(' or ')}.`
}

/** OpenAPI 3.1 for every REST path, generated from the same valibot schemas the routes validate with. */
export function buildOpenApi(routes: readonly AnyRoute[], apiPrefix: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const success = r.response
      ? { type: 'object', properties: { detail: schemaOf(r.response, 'output') }, required: ['detail'] }
      : { type: 'object', properties: { detail: {} } }
    paths[r.path] ??= {}
    paths[r.path]![r.method] = {
      tags: [r.tag],
      summary: r.summary,
      description: accessText(r),
      operationId: `${r.method}_${r.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      parameters: [...parameters(r), ...(r.stream?.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: false, description: h.description, schema: { type: 'string' } }))],
      requestBody: requestBody(r),
      security: r.access.scope === 'public' ? [] : [{ bearer: [] }, { cookie: [] }],
      responses: {
        [String(r.status ?? 200)]: r.stream
          ? { description: r.stream.description, content: { [r.stream.contentType]: { schema: r.stream.schema ? schemaOf(r.stream.schema, 'output') : { type: 'string' } } } }
          : { description: 'Success', content: { 'application/json': { schema: success } } },
        default: { description: 'Error (4xx) with detail.message and detail.code', content: { 'application/json': { schema: ERROR } } },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'MES REST API',
      version: '1.0.0',
      description:
        'Success answers `{"detail": ...}`; failures answer 4xx with `{"detail":{"message","code"}}`. ' +
        'Bad input is 400 INVALID_INPUT with `detail.issues` ({path, kind, message}); a key, query parameter or form field a path ' +
        'does not declare is refused with kind `unknown_key` naming it (a typo is never silently ignored). ' +
        'Dates are written YYYY/MM/DD (ISO 8601 YYYY-MM-DD is accepted too) and answered YYYY/MM/DD; instants are UTC milliseconds. ' +
        'Authenticate with `Authorization: Bearer <token>` (a session token from POST /login or an API token).',
    },
    servers: [{ url: apiPrefix }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'Authorization' },
      },
    },
    paths,
  }
}
