import * as v from 'valibot'
import { CountInput, CountResult } from '../../../src/domains/movements/schemas'
import { PositionCreateInput, PositionDetail, PositionList, PositionListQuery, PositionPatchInput, PositionRow } from '../../../src/domains/positions/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { WAREHOUSE_EDITORS, WAREHOUSE_READERS } from '../movements/access'
import { countPosition } from '../movements/service'
import * as positions from './service'

const tag = 'warehouse'
const KeyParams = v.object({ key: Key })

export const positionRoutes = [
  route({
    method: 'get',
    path: '/position',
    tag,
    summary:
      'Warehouse positions with params: search (code starts with or description contains, any case, at least 3 characters: POSITION_SEARCH_TOO_SHORT), code (exact, any case: a scanned code), parent_key (its children), root=true (top level), active; the first 100 by code (`more` when there are others)',
    access: { scope: WAREHOUSE_READERS },
    query: PositionListQuery,
    response: PositionList,
    handler: (ctx, { query }) => positions.listPositions(ctx, query),
  }),
  route({
    method: 'post',
    path: '/position',
    tag,
    summary:
      'Create a position: code (unique in any case: 409 POSITION_CODE_TAKEN), description, parent_key (inside that position; 422 UNKNOWN_POSITION / POSITION_INACTIVE), flags owned, fixed, available, disposable',
    access: { scope: WAREHOUSE_EDITORS },
    body: PositionCreateInput,
    response: PositionRow,
    status: 201,
    handler: (ctx, { body }) => positions.createPosition(ctx, ctx.actor!, body),
  }),
  route({
    method: 'get',
    path: '/position/{key}',
    tag,
    summary: 'One position with the codes from the top down and the positions directly inside it (what it holds: GET inventory?position_key=)',
    access: { scope: WAREHOUSE_READERS },
    params: KeyParams,
    response: PositionDetail,
    handler: (ctx, { params }) => positions.getPosition(ctx, params.key),
  }),
  route({
    method: 'patch',
    path: '/position/{key}',
    tag,
    summary:
      'Change a position: code, description, flags; parent_key moves it with everything inside (null: to the top; into itself or below itself: 422 POSITION_INSIDE_ITSELF); active=false deactivates it (409 POSITION_NOT_EMPTY while it holds stock, POSITION_HAS_CHILDREN while active positions are inside)',
    access: { scope: WAREHOUSE_EDITORS },
    params: KeyParams,
    body: PositionPatchInput,
    response: PositionRow,
    handler: (ctx, { params, body }) => positions.updatePosition(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/position/{key}/count',
    tag,
    summary:
      'Inventory count of the position (itself, not below it): lines found (product_key, serial, owned, quantity >= 0); uncounted stock lines count as 0 unless missing_are_zero=false; each difference becomes a confirmed adjustment movement with the reason (origin_type "count")',
    access: { scope: WAREHOUSE_EDITORS },
    params: KeyParams,
    body: CountInput,
    response: CountResult,
    handler: (ctx, { params, body }) => countPosition(ctx, ctx.actor!, params.key, body),
  }),
]
