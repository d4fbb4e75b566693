import type * as v from 'valibot'
import type { Access } from '../auth/authorize'
import type { Actor, Auth, RequestCtx } from '../context'
import type { RestStream } from '../rest/route'

type Schema = v.GenericSchema

/** What a use case runs with: the request's services plus the acting user (null only where access is public). */
export type UseCaseCtx = RequestCtx & { actor: Actor; auth: Auth }

/**
 * How a use case is offered over REST. The input schema is shared: path parameters, the query
 * string (GET, DELETE) or the JSON body (POST, PUT, PATCH) are read from its entries.
 */
export type RestBinding = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** OpenAPI style: `/work-order/{id}`. */
  path: string
  /** A path parameter that fills an input entry of another name: `{ id: 'key' }`. */
  params?: Record<string, string>
  /** The body is this one input entry (`{ key, patch }` read as `PATCH /thing/{key}` with `patch` as the body). */
  body?: string
  /** Input entries only tRPC sends (the `direction` of infinite queries): REST neither reads nor documents them. */
  omit?: string[]
  /** The other input entries travel in the query string even on a POST/PUT/PATCH. */
  queryOnly?: true
  /** The other input entries travel in the JSON body even on a DELETE (`DELETE serial-link/{key}` with its reason). */
  jsonBody?: true
  status?: 200 | 201
  multipart?: { maxBytes: number }
  /** REST answers this (for example a list around the result, as SPEC 7 reads) with its own schema. */
  answer?: { response: Schema; from: (result: any) => unknown }
  /** A stream instead of `{detail}` JSON: `run` returns the Response itself. */
  stream?: RestStream
  /** The OpenAPI tag when it is not the group's. */
  tag?: string
}

export type UseCaseKind = 'query' | 'mutation' | 'rest'

/** One use case, declared once: who may call it, what it takes and answers, and the service call. */
export type UseCase<I extends Schema | undefined = Schema | undefined, R = unknown, K extends UseCaseKind = UseCaseKind> = {
  kind: K
  summary: string
  access: Access
  input?: I
  response?: Schema
  rest?: RestBinding
  run: (ctx: UseCaseCtx & { hono?: import('hono').Context }, input: I extends Schema ? v.InferOutput<I> : undefined) => R | Promise<R>
}

export type AnyUseCase = UseCase<any, any, UseCaseKind>

type Def<I extends Schema | undefined, R> = Omit<UseCase<I, R>, 'kind'>

// NoInfer: inside `useCases(...)` the expected type (AnyUseCase) would otherwise make a use case
// without `input` take `any` as its input, and its tRPC procedure would then ask for an argument.
/** A read: a tRPC query, and a REST path where `rest` says. */
export const query = <I extends Schema | undefined = undefined, R = unknown>(def: Def<I, R>) => ({ ...def, kind: 'query' as const }) as UseCase<NoInfer<I>, NoInfer<R>, 'query'>
/** A change: a tRPC mutation, and a REST path where `rest` says. */
export const mutation = <I extends Schema | undefined = undefined, R = unknown>(def: Def<I, R>) => ({ ...def, kind: 'mutation' as const }) as UseCase<NoInfer<I>, NoInfer<R>, 'mutation'>
/** Offered over REST only (file uploads and downloads, streams, script conveniences). */
export const restOnly = <I extends Schema | undefined = undefined, R = unknown>(def: Def<I, R> & { rest: RestBinding }) =>
  ({ ...def, kind: 'rest' as const }) as UseCase<NoInfer<I>, NoInfer<R>, 'rest'>

/** A domain's use cases under their tRPC names, with the OpenAPI tag of their REST paths. */
export type UseCaseGroup<U extends Record<string, AnyUseCase> = Record<string, AnyUseCase>> = { tag: string; cases: U }

export const useCases = <U extends Record<string, AnyUseCase>>(tag: string, cases: U): UseCaseGroup<U> => ({ tag, cases })
