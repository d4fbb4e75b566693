import * as v from 'valibot'
import {
  InventoryInput,
  MovementConfirmInput,
  MovementCreateInput,
  MovementListInput,
  MovementRevertInput,
  WarehouseSettingsPatch,
} from '../../../src/domains/movements/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router } from '../../trpc/init'
import { WAREHOUSE_EDITORS, WAREHOUSE_READERS, WAREHOUSE_SETTINGS_EDITORS } from './access'
import * as movements from './service'
import { getWarehouseSettings, updateWarehouseSettings } from './settings'

export const movementsRouter = router({
  list: procedure({ scope: WAREHOUSE_READERS })
    .input(MovementListInput)
    .query(({ ctx, input }) => movements.listMovements(ctx, input)),
  get: procedure({ scope: WAREHOUSE_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => movements.getMovement(ctx, input.key)),
  create: procedure({ scope: WAREHOUSE_EDITORS })
    .input(MovementCreateInput)
    .mutation(({ ctx, input }) => movements.createMovement(ctx, ctx.actor!, input)),
  confirm: procedure({ scope: WAREHOUSE_EDITORS })
    .input(v.object({ key: Key, ...MovementConfirmInput.entries }))
    .mutation(({ ctx, input }) => movements.confirmMovement(ctx, ctx.actor!, input.key, input.quantity)),
  cancel: procedure({ scope: WAREHOUSE_EDITORS })
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => movements.cancelMovement(ctx, ctx.actor!, input.key)),
  revert: procedure({ scope: WAREHOUSE_EDITORS })
    .input(v.object({ key: Key, ...MovementRevertInput.entries }))
    .mutation(({ ctx, input }) => movements.revertMovement(ctx, ctx.actor!, input.key, input.reason)),
  inventory: procedure({ scope: WAREHOUSE_READERS })
    .input(InventoryInput)
    .query(({ ctx, input }) => movements.readInventory(ctx.db, input)),
  settings: procedure({ scope: [...WAREHOUSE_READERS] }).query(({ ctx }) => getWarehouseSettings(ctx)),
  updateSettings: procedure({ scope: WAREHOUSE_SETTINGS_EDITORS })
    .input(WarehouseSettingsPatch)
    .mutation(({ ctx, input }) => updateWarehouseSettings(ctx, ctx.actor!, input)),
})
