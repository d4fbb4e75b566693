import * as v from 'valibot'
import { BomInput } from '../../../src/domains/products/bom'
import { Key } from '../../../src/valibot-helpers'
import { PROCESS_READERS } from '../process/trpc'
import { procedure, router, scoped } from '../../trpc/init'
import * as boms from './service'

export const bomRouter = router({
  get: procedure({ scope: PROCESS_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => boms.getBom(ctx, input.key)),
  update: scoped('library')
    .input(v.object({ key: Key, ...BomInput.entries }))
    .mutation(({ ctx, input }) => boms.updateBom(ctx, ctx.actor, input.key, { lines: input.lines })),
})
