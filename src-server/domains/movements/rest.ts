import * as v from 'valibot'
import {
  Inventory,
  InventoryQuery,
  MovementConfirmInput,
  MovementCreateInput,
  MovementList,
  MovementListQuery,
  MovementRevertInput,
  MovementRow,
  RevertResult,
  WarehouseSettingsPatch,
  WarehouseSettingsRow,
} from '../../../src/domains/movements/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { WAREHOUSE_EDITORS, WAREHOUSE_READERS, WAREHOUSE_SETTINGS_EDITORS } from './access'
import * as movements from './service'
import { getWarehouseSettings, updateWarehouseSettings } from './settings'

const tag = 'warehouse'
const KeyParams = v.object({ key: Key })

export const movementRoutes = [
  route({
    method: 'get',
    path: '/movement',
    tag,
    summary:
      'Movements with params: product_key, position_key (from or to; subtree=true: or any position inside it), type, status, serial, work_order_key, batch_key, origin_type, origin_key; newest first, page (1-based) of page_size (default 50, at most 200); total counted up to 10,000 (total_capped beyond)',
    access: { scope: WAREHOUSE_READERS },
    query: MovementListQuery,
    response: MovementList,
    handler: (ctx, { query }) => movements.listMovements(ctx, query),
  }),
  route({
    method: 'post',
    path: '/movement',
    tag,
    summary:
      'Create a movement: product_key, type (load/production: to only; unload/consumption: from only; transfer: both; adjustment: one, with a reason), quantity > 0 (at most 4 decimals), serial, owned (default true); confirmed at once unless confirm=false. 409 INSUFFICIENT_STOCK when the origin has too little (unless negative stock is allowed), 422 UNKNOWN_POSITION / UNKNOWN_PRODUCT / POSITION_INACTIVE, 400 MOVEMENT_POSITIONS_INVALID',
    access: { scope: WAREHOUSE_EDITORS },
    body: MovementCreateInput,
    response: MovementRow,
    status: 201,
    handler: (ctx, { body }) => movements.createMovement(ctx, ctx.actor!, body),
  }),
  route({
    method: 'get',
    path: '/movement/{key}',
    tag,
    summary: 'One movement (status, quantities, who, when, what reverted it and why)',
    access: { scope: WAREHOUSE_READERS },
    params: KeyParams,
    response: MovementRow,
    handler: (ctx, { params }) => movements.getMovement(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/movement/{key}/confirm',
    tag,
    summary: 'Confirm a planned movement (quantity: what actually moved, default the planned one); the stock changes in the same transaction. 409 MOVEMENT_NOT_PLANNED, INSUFFICIENT_STOCK',
    access: { scope: WAREHOUSE_EDITORS },
    params: KeyParams,
    body: MovementConfirmInput,
    response: MovementRow,
    handler: (ctx, { params, body }) => movements.confirmMovement(ctx, ctx.actor!, params.key, body.quantity),
  }),
  route({
    method: 'post',
    path: '/movement/{key}/cancel',
    tag,
    summary: 'Cancel a planned movement (nothing moves). 409 MOVEMENT_NOT_PLANNED',
    access: { scope: WAREHOUSE_EDITORS },
    params: KeyParams,
    response: MovementRow,
    handler: (ctx, { params }) => movements.cancelMovement(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/movement/{key}/revert',
    tag,
    summary:
      'Revert a confirmed movement with a reason: writes the opposite movement (confirmed) and marks the original as reverted by it. 409 MOVEMENT_REVERT_ERROR when the stock has already left, MOVEMENT_ALREADY_REVERTED, MOVEMENT_NOT_CONFIRMED',
    access: { scope: WAREHOUSE_EDITORS },
    params: KeyParams,
    body: MovementRevertInput,
    response: RevertResult,
    handler: (ctx, { params, body }) => movements.revertMovement(ctx, ctx.actor!, params.key, body.reason),
  }),
  route({
    method: 'get',
    path: '/inventory',
    tag,
    summary:
      'Inventory lines (position, product, quantity, serial, owned; non-zero stock) with params position_key (with everything inside it unless subtree=false), product_key, serial, owned; at most 500 lines (`more` beyond) and the totals per product over all matching lines',
    access: { scope: WAREHOUSE_READERS },
    query: InventoryQuery,
    response: Inventory,
    handler: (ctx, { query }) => movements.readInventory(ctx.db, query),
  }),
  route({
    method: 'get',
    path: '/settings/warehouse',
    tag,
    summary: 'Warehouse settings: inventory management, default production and consumption positions, negative stock allowed',
    access: { scope: WAREHOUSE_READERS },
    response: WarehouseSettingsRow,
    handler: (ctx) => getWarehouseSettings(ctx),
  }),
  route({
    method: 'patch',
    path: '/settings/warehouse',
    tag,
    summary: 'Change warehouse settings (positions must exist and be active: 422 UNKNOWN_POSITION / POSITION_INACTIVE)',
    access: { scope: WAREHOUSE_SETTINGS_EDITORS },
    body: WarehouseSettingsPatch,
    response: WarehouseSettingsRow,
    handler: (ctx, { body }) => updateWarehouseSettings(ctx, ctx.actor!, body),
  }),
]
