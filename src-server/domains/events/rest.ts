import { EventInput } from '../../../src/domains/events/schemas'
import { route } from '../../rest/route'
import { recordClientEvent } from './service'

export const eventRoutes = [
  route({
    method: 'post',
    path: '/event',
    tag: 'events',
    summary: 'Record an event (stored append-only with server time, user and session)',
    access: { scope: 'signed-in' },
    body: EventInput,
    status: 201,
    handler: (ctx, { body }) => recordClientEvent(ctx.db, ctx.actor!, body, ctx.clock.now()),
  }),
]
