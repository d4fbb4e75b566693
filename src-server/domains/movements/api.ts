import * as v from 'valibot'
import {
  Inventory,
  InventoryInput,
  MovementConfirmInput,
  MovementCreateInput,
  MovementList,
  MovementListInput,
  MovementRevertInput,
  MovementRow,
  RevertResult,
  WarehouseSettingsPatch,
  WarehouseSettingsRow,
} from '../../../src/domains/movements/schemas'
import { SignatureView } from '../../../src/domains/signatures/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import { WAREHOUSE_EDITORS, WAREHOUSE_READERS, WAREHOUSE_SETTINGS_EDITORS } from './access'
import * as reads from './list'
import * as movements from './service'
import { recordSignatures } from '../signatures/service'
import { getWarehouseSettings, updateWarehouseSettings } from './settings'

const read = { scope: WAREHOUSE_READERS }
const edit = { scope: WAREHOUSE_EDITORS }
const ByKey = v.object({ key: Key })

export const movementsApi = useCases('warehouse', {
  list: query({
    summary:
      'Movements with params: product_key, position_key (from or to; subtree=true: or any position inside it), type, status, serial, work_order_key, batch_key, origin_type, origin_key; newest first, page (1-based) of page_size (default 50, at most 200); total counted up to 10,000 (total_capped beyond)',
    access: read,
    input: MovementListInput,
    response: MovementList,
    rest: { method: 'get', path: '/movement' },
    run: (ctx, input) => reads.listMovements(ctx, input),
  }),
  create: mutation({
    summary:
      'Create a movement: product_key, type (load/production: to only; unload/consumption: from only; transfer: both; adjustment: one, with a reason), quantity > 0 (at most 4 decimals), serial, owned (default true); confirmed at once unless confirm=false. 409 INSUFFICIENT_STOCK when the origin has too little (unless negative stock is allowed), 422 UNKNOWN_POSITION / UNKNOWN_PRODUCT / POSITION_INACTIVE, 400 MOVEMENT_POSITIONS_INVALID',
    access: edit,
    input: MovementCreateInput,
    response: MovementRow,
    rest: { method: 'post', path: '/movement', status: 201 },
    run: (ctx, input) => movements.createMovement(ctx, ctx.actor, input),
  }),
  get: query({
    summary: 'One movement (status, quantities, who, when, what reverted it and why)',
    access: read,
    input: ByKey,
    response: MovementRow,
    rest: { method: 'get', path: '/movement/{key}' },
    run: (ctx, input) => reads.getMovement(ctx, input.key),
  }),
  signatures: query({
    summary: "The signatures of a movement's reverts (when the settings require them), oldest first, each with valid: the signed revert is unchanged",
    access: read,
    input: ByKey,
    response: v.array(SignatureView),
    rest: { method: 'get', path: '/movement/{key}/signatures' },
    run: (ctx, input) => recordSignatures(ctx.db, 'movement_revert', input.key),
  }),
  confirm: mutation({
    summary: 'Confirm a planned movement (quantity: what actually moved, default the planned one); the stock changes in the same transaction. 409 MOVEMENT_NOT_PLANNED, INSUFFICIENT_STOCK',
    access: edit,
    input: v.object({ key: Key, ...MovementConfirmInput.entries }),
    response: MovementRow,
    rest: { method: 'post', path: '/movement/{key}/confirm' },
    run: (ctx, input) => movements.confirmMovement(ctx, ctx.actor, input.key, input.quantity),
  }),
  cancel: mutation({
    summary: 'Cancel a planned movement (nothing moves). 409 MOVEMENT_NOT_PLANNED',
    access: edit,
    input: ByKey,
    response: MovementRow,
    rest: { method: 'post', path: '/movement/{key}/cancel' },
    run: (ctx, input) => movements.cancelMovement(ctx, ctx.actor, input.key),
  }),
  revert: mutation({
    summary:
      'Revert a confirmed movement with a reason: writes the opposite movement (confirmed) and marks the original as reverted by it. 409 MOVEMENT_REVERT_ERROR when the stock has already left, MOVEMENT_ALREADY_REVERTED, MOVEMENT_NOT_CONFIRMED; ' +
      'signature: {password} when the settings require reverts to be signed (signature_movement_revert: 422 SIGNATURE_REQUIRED, 400 SIGNATURE_INVALID, 429 LOGIN_THROTTLED)',
    access: edit,
    input: v.object({ key: Key, ...MovementRevertInput.entries }),
    response: RevertResult,
    rest: { method: 'post', path: '/movement/{key}/revert' },
    run: (ctx, input) => movements.revertMovement(ctx, ctx.actor, input.key, input.reason, input.signature, ctx.client.ip),
  }),
  inventory: query({
    summary:
      'Inventory lines (position, product, quantity, serial, owned; non-zero stock) with params position_key (with everything inside it unless subtree=false), product_key, serial, owned; at most 500 lines (`more` beyond) and the totals per product over all matching lines',
    access: read,
    input: InventoryInput,
    response: Inventory,
    rest: { method: 'get', path: '/inventory' },
    run: (ctx, input) => movements.readInventory(ctx.db, input),
  }),
  settings: query({
    summary: 'Warehouse settings: inventory management, default production and consumption positions, negative stock allowed',
    access: read,
    response: WarehouseSettingsRow,
    rest: { method: 'get', path: '/settings/warehouse' },
    run: (ctx) => getWarehouseSettings(ctx),
  }),
  updateSettings: mutation({
    summary: 'Change warehouse settings (positions must exist and be active: 422 UNKNOWN_POSITION / POSITION_INACTIVE)',
    access: { scope: WAREHOUSE_SETTINGS_EDITORS },
    input: WarehouseSettingsPatch,
    response: WarehouseSettingsRow,
    rest: { method: 'patch', path: '/settings/warehouse' },
    run: (ctx, input) => updateWarehouseSettings(ctx, ctx.actor, input),
  }),
})
