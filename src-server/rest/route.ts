import type { Context } from 'hono'
import * as v from 'valibot'
import type { Access } from '../auth/authorize'
import type { Actor, RequestCtx } from '../context'

type Schema = v.GenericSchema
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined

export type RestCtx = RequestCtx & { actor: Actor | null; hono: Context }

/** 1 MiB for JSON bodies; uploads declare their own limit. */
export const JSON_BODY_LIMIT = 1024 * 1024

export type RestStream = { contentType: string; description: string; schema?: Schema; headers?: { name: string; description: string }[] }

export type RouteInput<P, Q, B> = { params: Out<P>; query: Out<Q>; body: Out<B> }

/**
 * One documented REST path: its access rule, input schemas (valibot, shared with tRPC and the
 * client), response schema (for OpenAPI) and a handler that only calls the domain service.
 */
export type RouteDef<P = unknown, Q = unknown, B = unknown> = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** OpenAPI style: `/user/{key}`. */
  path: string
  summary: string
  tag: string
  access: Access
  params?: P
  query?: Q
  /** JSON body schema, or a multipart form (`multipart: true`) whose fields the schema checks. */
  body?: B
  multipart?: { maxBytes: number }
  response?: Schema
  status?: 200 | 201
  /** A stream instead of `{detail}` JSON (the handler returns the Response itself), as OpenAPI documents it. */
  stream?: RestStream
  handler: (ctx: RestCtx, input: RouteInput<P, Q, B>) => Promise<unknown> | unknown
}

export type AnyRoute = RouteDef<any, any, any>

export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(def: RouteDef<P, Q, B>): AnyRoute {
  return def as AnyRoute
}
