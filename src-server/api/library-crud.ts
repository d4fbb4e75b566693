import * as v from 'valibot'
import { Key } from '../../src/valibot-helpers'
import type { Access } from '../auth/authorize'
import type { Actor } from '../context'
import { mutation, query, type RestBinding, type UseCaseCtx } from './use-case'

type Schema = v.GenericSchema
type KeySchema = v.GenericSchema<string, string>
type Run<A extends unknown[], R> = (ctx: UseCaseCtx, ...args: A) => R | Promise<R>

/** What `delete` answers unless the library says otherwise. */
const Deleted = v.object({ _key: v.string() })

/**
 * The list / get / create / patch / delete use cases of a simple library (things an admin keeps
 * under one REST path), each still declared in the domain's api.ts under its own tRPC name with
 * its summary, schemas and service call. What every such library repeats is said once here:
 * `GET path`, `GET path/{key}`, `POST path` (201), `PATCH path/{key}` with the patch as the body,
 * `DELETE path/{key}`; the `{ key }` and `{ key, patch }` inputs; readers list and get, writers
 * change. The service functions take the key and the patch as arguments, the acting user first.
 */
export function libraryCrud(lib: { path: string; read: Access; write: Access; key?: KeySchema }) {
  const key = lib.key ?? Key
  const ByKey = v.object({ key })
  const item = `${lib.path}/{key}`
  return {
    /** `GET path`; `rest` adds what scripts read differently (omitted entries, a reshaped answer). */
    list: <I extends Schema | undefined = undefined, R = unknown>(d: {
      summary: string
      input?: I
      response?: Schema
      rest?: Pick<RestBinding, 'omit' | 'answer'>
      run: (ctx: UseCaseCtx, input: I extends Schema ? v.InferOutput<I> : undefined) => R | Promise<R>
    }) => query<I, R>({ summary: d.summary, access: lib.read, input: d.input, response: d.response, rest: { method: 'get', path: lib.path, ...d.rest }, run: d.run }),
    get: <R>(d: { summary: string; response: Schema; run: Run<[key: string], R> }) =>
      query({ summary: d.summary, access: lib.read, input: ByKey, response: d.response, rest: { method: 'get', path: item }, run: (ctx, input) => d.run(ctx, input.key) }),
    create: <I extends Schema, R>(d: { summary: string; input: I; response: Schema; run: Run<[actor: Actor, input: v.InferOutput<I>], R> }) =>
      mutation({
        summary: d.summary,
        access: lib.write,
        input: d.input,
        response: d.response,
        rest: { method: 'post', path: lib.path, status: 201 },
        run: (ctx, input) => d.run(ctx, ctx.actor, input),
      }),
    patch: <P extends Schema, R>(d: { summary: string; patch: P; response: Schema; run: Run<[actor: Actor, key: string, patch: v.InferOutput<P>], R> }) =>
      mutation({
        summary: d.summary,
        access: lib.write,
        input: v.object({ key, patch: d.patch }),
        response: d.response,
        rest: { method: 'patch', path: item, body: 'patch' },
        // A generic patch schema hides from the compiler that both entries are required.
        run: (ctx, input) => {
          const { key, patch } = input as { key: string; patch: v.InferOutput<P> }
          return d.run(ctx, ctx.actor, key, patch)
        },
      }),
    /** `DELETE path/{key}`; answers `{ _key }` unless `response` says otherwise (null: no answer schema). */
    delete: <R>(d: { summary: string; response?: Schema | null; run: Run<[actor: Actor, key: string], R> }) =>
      mutation({
        summary: d.summary,
        access: lib.write,
        input: ByKey,
        response: d.response === null ? undefined : (d.response ?? Deleted),
        rest: { method: 'delete', path: item },
        run: (ctx, input) => d.run(ctx, ctx.actor, input.key),
      }),
  }
}
