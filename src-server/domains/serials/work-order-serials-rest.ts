import * as v from 'valibot'
import { WorkOrderSerials } from '../../../src/domains/serials/work-order-serials'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { SERIAL_READERS } from './trpc'
import { getWorkOrderSerials } from './work-order-serials'

export const workOrderSerialRoutes = [
  route({
    method: 'get',
    path: '/work-order/{id}/serials',
    tag: 'serials',
    summary:
      "A work order's serials (its Tracciabilità tab): the serials it produced (with how many components each holds) and the component serials it consumed (linked into a serial it produced or in one of its batches); the first 500 of each and the totals",
    access: { scope: SERIAL_READERS },
    params: v.object({ id: Key }),
    response: WorkOrderSerials,
    handler: (ctx, { params }) => getWorkOrderSerials(ctx, params.id),
  }),
]
