import * as v from 'valibot'
import { Bom, BomInput } from '../../../src/domains/products/bom'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import { PROCESS_READERS } from '../process/access'
import * as boms from './service'

export const bomApi = useCases('bom', {
  get: query({
    summary: 'The bill of materials of a product: lines by phase with item, quantity per item/job/batch, traceability level and declared_serials (the serials of the component must be declared)',
    access: { scope: PROCESS_READERS },
    input: v.object({ key: Key }),
    response: Bom,
    rest: { method: 'get', path: '/product/{key}/bom' },
    run: (ctx, input) => boms.getBom(ctx, input.key),
  }),
  update: mutation({
    summary:
      'Replace the bill of materials with all its lines (phase_key: a phase of this product; item_key: another active product). Errors: 400 BOM_QUANTITY_NOT_POSITIVE, BOM_ITEM_REPEATED; 422 UNKNOWN_PHASE, UNKNOWN_PRODUCT, BOM_ITEM_INACTIVE, BOM_CYCLE',
    access: { scope: 'library' },
    input: v.object({ key: Key, ...BomInput.entries }),
    response: Bom,
    rest: { method: 'put', path: '/product/{key}/bom' },
    run: (ctx, { key, ...bom }) => boms.updateBom(ctx, ctx.actor, key, bom),
  }),
})
