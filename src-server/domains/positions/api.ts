import * as v from 'valibot'
import { CountInput, CountResult } from '../../../src/domains/movements/schemas'
import { PositionCreateInput, PositionDetail, PositionList, PositionListInput, PositionPatchInput, PositionRow } from '../../../src/domains/positions/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import { WAREHOUSE_EDITORS, WAREHOUSE_READERS } from '../movements/access'
import { countPosition } from '../movements/count'
import * as positions from './service'

const edit = { scope: WAREHOUSE_EDITORS }

export const positionsApi = useCases('warehouse', {
  list: query({
    summary:
      'Warehouse positions with params: search (code starts with or description contains, any case, at least 3 characters: POSITION_SEARCH_TOO_SHORT), code (exact, any case: a scanned code), parent_key (its children), root=true (top level), active; the first 100 by code (`more` when there are others)',
    access: { scope: WAREHOUSE_READERS },
    input: PositionListInput,
    response: PositionList,
    rest: { method: 'get', path: '/position' },
    run: (ctx, input) => positions.listPositions(ctx, input),
  }),
  create: mutation({
    summary:
      'Create a position: code (unique in any case: 409 POSITION_CODE_TAKEN), description, parent_key (inside that position; 422 UNKNOWN_POSITION / POSITION_INACTIVE), flags owned, fixed, available, disposable',
    access: edit,
    input: PositionCreateInput,
    response: PositionRow,
    rest: { method: 'post', path: '/position', status: 201 },
    run: (ctx, input) => positions.createPosition(ctx, ctx.actor, input),
  }),
  get: query({
    summary: 'One position with the codes from the top down and the positions directly inside it (what it holds: GET inventory?position_key=)',
    access: { scope: WAREHOUSE_READERS },
    input: v.object({ key: Key }),
    response: PositionDetail,
    rest: { method: 'get', path: '/position/{key}' },
    run: (ctx, input) => positions.getPosition(ctx, input.key),
  }),
  update: mutation({
    summary:
      'Change a position: code, description, flags; parent_key moves it with everything inside (null: to the top; into itself or below itself: 422 POSITION_INSIDE_ITSELF); active=false deactivates it (409 POSITION_NOT_EMPTY while it holds stock, POSITION_HAS_CHILDREN while active positions are inside)',
    access: edit,
    input: v.object({ key: Key, patch: PositionPatchInput }),
    response: PositionRow,
    rest: { method: 'patch', path: '/position/{key}', body: 'patch' },
    run: (ctx, input) => positions.updatePosition(ctx, ctx.actor, input.key, input.patch),
  }),
  count: mutation({
    summary:
      'Inventory count of the position (itself, not below it): lines found (product_key, serial, owned, quantity >= 0); uncounted stock lines count as 0 unless missing_are_zero=false; each difference becomes a confirmed adjustment movement with the reason (origin_type "count")',
    access: edit,
    input: v.object({ key: Key, ...CountInput.entries }),
    response: CountResult,
    rest: { method: 'post', path: '/position/{key}/count' },
    run: (ctx, { key, ...count }) => countPosition(ctx, ctx.actor, key, count),
  }),
})
