import * as v from 'valibot'
import { Bom, BomInput } from '../../../src/domains/products/bom'
import { Key } from '../../../src/valibot-helpers'
import { PROCESS_READERS } from '../process/trpc'
import { route } from '../../rest/route'
import * as boms from './service'

const tag = 'bom'
const ProductParams = v.object({ key: Key })

export const bomRoutes = [
  route({
    method: 'get',
    path: '/product/{key}/bom',
    tag,
    summary: 'The bill of materials of a product: lines by phase with item, quantity per item/job/batch, traceability level and declared_serials (the serials of the component must be declared)',
    access: { scope: PROCESS_READERS },
    params: ProductParams,
    response: Bom,
    handler: (ctx, { params }) => boms.getBom(ctx, params.key),
  }),
  route({
    method: 'put',
    path: '/product/{key}/bom',
    tag,
    summary:
      'Replace the bill of materials with all its lines (phase_key: a phase of this product; item_key: another active product). Errors: 400 BOM_QUANTITY_NOT_POSITIVE, BOM_ITEM_REPEATED; 422 UNKNOWN_PHASE, UNKNOWN_PRODUCT, BOM_ITEM_INACTIVE, BOM_CYCLE',
    access: { scope: 'library' },
    params: ProductParams,
    body: BomInput,
    response: Bom,
    handler: (ctx, { params, body }) => boms.updateBom(ctx, ctx.actor!, params.key, body),
  }),
]
