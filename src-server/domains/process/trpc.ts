import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { CopyProcessInput, ProcessInput } from '../../../src/domains/process/process'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as processes from './service'
import * as stepMedia from './step-media'

/**
 * Who reads processes and boms: the library that writes them and the areas that work from them
 * (production plans jobs by phase, operators run the steps, quality, traceability and the
 * warehouse follow components).
 */
export const PROCESS_READERS = ['library', 'production', 'operator', 'quality', 'traceability', 'warehouse'] as const satisfies readonly Scope[]

export const processRouter = router({
  get: procedure({ scope: PROCESS_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => processes.getProcess(ctx, input.key)),
  update: scoped('library')
    .input(v.object({ key: Key, ...ProcessInput.entries }))
    .mutation(({ ctx, input }) => processes.updateProcess(ctx, ctx.actor, input.key, { phases: input.phases })),
  copy: scoped('library')
    .input(v.object({ key: Key, ...CopyProcessInput.entries }))
    .mutation(({ ctx, input }) => processes.copyProcess(ctx, ctx.actor, input.key, { from_product_key: input.from_product_key, phase_keys: input.phase_keys })),
  counterChoices: scoped('library').query(({ ctx }) => processes.listCounterChoices(ctx)),
  stepMedia: procedure({ scope: PROCESS_READERS })
    .input(v.object({ step_key: Key }))
    .query(({ ctx, input }) => stepMedia.listStepMedia(ctx, input.step_key)),
})
