import { TRPCError } from '@trpc/server'
import {
  getAcceptHeader,
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  isObject,
  isPromise,
  transformTRPCResponse,
} from '@trpc/server/unstable-core-do-not-import'
import type { Context } from 'hono'
import type * as v from 'valibot'
import type { AnyUseCase, UseCaseCtx } from '../api/use-case'
import type { RequestCtx } from '../context'
import type { AppEnv } from '../http-env'
import { inputIssues, invalidInput } from '../input-issues'
import { appRouter } from './app-router'
import { useCaseOf } from './from-use-cases'
import { admitCall } from './init'

/**
 * The calls the screens make all day, answered without tRPC's fetch adapter: JSON queries by GET
 * and mutations by POST, one or a batch (httpBatchLink), each a use case. The adapter's generic
 * machinery (URL parsed twice, abort controllers and signals per call, options and context copied
 * at every middleware level) cost more server CPU than the whoami it answers (bench/RESULTS.md,
 * issue 23). The answer is tRPC's own, byte for byte: the same gate (admitCall), schema, error
 * formatter, status and headers (plain-calls.test.ts compares them).
 *
 * Anything else is left to tRPC (null): subscriptions, streamed batches, other content types,
 * unknown procedures or a method that does not fit, input that is not JSON. Nothing has run
 * then, so tRPC answers it from the start (a read body is handed on in `body`).
 */
export async function answerPlainCalls(c: Context<AppEnv>, endpoint: string): Promise<{ response: Response } | { body: string | null }> {
  const req = c.req.raw
  const method = req.method
  const kind = method === 'GET' ? 'query' : method === 'POST' ? 'mutation' : null
  const contentType = req.headers.get('content-type')
  if (!kind || getAcceptHeader(req.headers) === 'application/jsonl') return { body: null }
  if (contentType !== null ? contentType.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json' : kind === 'mutation') return { body: null }

  const url = new URL(req.url)
  let path: string
  try {
    path = decodeURIComponent(url.pathname.slice(endpoint.length).replace(/^\/|\/$/g, ''))
  } catch {
    return { body: null }
  }
  const batch = url.searchParams.get('batch') === '1'
  const paths = batch ? path.split(',') : [path]
  const calls: { path: string; useCase: AnyUseCase }[] = []
  for (const p of paths) {
    const useCase = useCaseOf((appRouter._def.procedures as Record<string, unknown>)[p])
    if (!useCase || useCase.kind !== kind) return { body: null }
    calls.push({ path: p, useCase })
  }

  const body = kind === 'mutation' ? await c.req.text() : null
  // As tRPC reads them: a GET without `input` has none; a POST body must be JSON (even for no input).
  const text = kind === 'query' ? url.searchParams.get('input') || undefined : (body as string)
  let inputs: unknown
  try {
    inputs = text === undefined ? undefined : JSON.parse(text)
  } catch {
    return { body }
  }
  if (batch && inputs !== undefined && !isObject(inputs)) return { body }
  const config = appRouter._def._config
  const rawInput = (index: number) => {
    const raw = batch ? (inputs as Record<number, unknown> | undefined)?.[index] : inputs
    return raw === undefined ? undefined : config.transformer.input.deserialize(raw)
  }

  const ctx = c.get('ctx')
  const results = await Promise.all(
    calls.map(async ({ path, useCase }, index) => {
      const input = rawInput(index)
      try {
        const data = await callUseCase(useCase, ctx, input)
        if (isDataStream(data)) {
          throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink' })
        }
        return { result: { data } }
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause)
        return { error: getErrorShape({ config, ctx, error, input, path, type: kind }) }
      }
    }),
  )
  const json = batch ? results : results[0]!
  return {
    response: new Response(JSON.stringify(transformTRPCResponse(config, json as never)), {
      status: getHTTPStatusCode(json as never),
      headers: { vary: 'trpc-accept, accept', 'content-type': 'application/json' },
    }),
  }
}

/** What the use case's tRPC procedure does with the call: the gate, its input schema, the service. */
async function callUseCase(u: AnyUseCase, ctx: RequestCtx, raw: unknown): Promise<unknown> {
  const actor = await admitCall(ctx, u.access, async () => raw, u.input)
  const input = u.input ? await parsed(u.input, raw) : undefined
  return u.run({ ...ctx, actor, auth: ctx.auth } as UseCaseCtx, input)
}

/** The input schema's output; its refusal answered as tRPC's errorFormatter (init.ts) answers it. */
async function parsed(schema: v.GenericSchema, raw: unknown): Promise<unknown> {
  let result: Awaited<ReturnType<v.GenericSchema['~standard']['validate']>>
  try {
    result = await schema['~standard'].validate(raw)
  } catch (cause) {
    throw new TRPCError({ code: 'BAD_REQUEST', cause })
  }
  if (result.issues) throw invalidInput(inputIssues(result.issues as v.BaseIssue<unknown>[]))
  return result.value
}

/** tRPC's own test (resolveResponse isDataStream): a stream-like answer needs httpBatchStreamLink. */
const isDataStream = (data: unknown) =>
  isObject(data) && (isAsyncIterable(data) || Object.values(data).some((x) => isPromise(x) || isAsyncIterable(x)))
