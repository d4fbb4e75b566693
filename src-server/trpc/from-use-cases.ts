import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server'
import type * as v from 'valibot'
import type { AnyUseCase, UseCase, UseCaseCtx, UseCaseGroup } from '../api/use-case'
import { procedure, router, type TrpcMeta } from './init'

type InputOf<I> = I extends v.GenericSchema ? v.InferInput<I> : void
type Def<I, R> = { input: InputOf<I>; output: Awaited<R>; meta: TrpcMeta }

/** The procedure type tRPC would infer for the chain written by hand, so the client's types stay exact. */
type ProcedureOf<U> =
  U extends UseCase<infer I, infer R, 'query'> ? TRPCQueryProcedure<Def<I, R>> : U extends UseCase<infer I, infer R, 'mutation'> ? TRPCMutationProcedure<Def<I, R>> : never

type ProceduresOf<U extends Record<string, AnyUseCase>> = {
  [K in keyof U as U[K]['kind'] extends 'rest' ? never : K]: ProcedureOf<U[K]>
}

/** The use case behind each derived procedure, for the plain-call path (plain-calls.ts). */
const useCases = new WeakMap<object, AnyUseCase>()
export const useCaseOf = (procedure: unknown): AnyUseCase | undefined => (procedure ? useCases.get(procedure) : undefined)

function procedureOf(u: AnyUseCase) {
  const base = procedure(u.access)
  const resolver = ({ ctx, input }: { ctx: unknown; input: unknown }) => u.run(ctx as UseCaseCtx, input)
  const built =
    u.kind === 'query'
      ? u.input
        ? base.input(u.input).query(resolver)
        : base.query(resolver)
      : u.input
        ? base.input(u.input).mutation(resolver)
        : base.mutation(resolver)
  useCases.set(built, u)
  return built
}

/** A domain's tRPC router: one procedure per use case offered to the screens (REST-only ones left out). */
export function routerOf<U extends Record<string, AnyUseCase>>(group: UseCaseGroup<U>) {
  const procedures = Object.fromEntries(
    Object.entries(group.cases)
      .filter(([, u]) => u.kind !== 'rest')
      .map(([name, u]) => [name, procedureOf(u)]),
  )
  return router(procedures) as unknown as ReturnType<typeof router<ProceduresOf<U>>>
}
