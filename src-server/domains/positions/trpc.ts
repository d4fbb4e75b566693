import * as v from 'valibot'
import { CountInput } from '../../../src/domains/movements/schemas'
import { PositionCreateInput, PositionListInput, PositionPatchInput } from '../../../src/domains/positions/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router } from '../../trpc/init'
import { WAREHOUSE_EDITORS, WAREHOUSE_READERS } from '../movements/access'
import { countPosition } from '../movements/service'
import * as positions from './service'

export const positionsRouter = router({
  list: procedure({ scope: WAREHOUSE_READERS })
    .input(PositionListInput)
    .query(({ ctx, input }) => positions.listPositions(ctx, input)),
  get: procedure({ scope: WAREHOUSE_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => positions.getPosition(ctx, input.key)),
  create: procedure({ scope: WAREHOUSE_EDITORS })
    .input(PositionCreateInput)
    .mutation(({ ctx, input }) => positions.createPosition(ctx, ctx.actor!, input)),
  update: procedure({ scope: WAREHOUSE_EDITORS })
    .input(v.object({ key: Key, patch: PositionPatchInput }))
    .mutation(({ ctx, input }) => positions.updatePosition(ctx, ctx.actor!, input.key, input.patch)),
  count: procedure({ scope: WAREHOUSE_EDITORS })
    .input(v.object({ key: Key, ...CountInput.entries }))
    .mutation(({ ctx, input: { key, ...count } }) => countPosition(ctx, ctx.actor!, key, count)),
})
