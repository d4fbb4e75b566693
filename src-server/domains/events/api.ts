import { EventInput } from '../../../src/domains/events/schemas'
import { mutation, useCases } from '../../api/use-case'
import { recordClientEvent } from './service'

export const eventsApi = useCases('events', {
  record: mutation({
    summary: 'Record an event (stored append-only with server time, user and session)',
    access: { scope: 'signed-in' },
    input: EventInput,
    rest: { method: 'post', path: '/event', status: 201 },
    run: (ctx, input) => recordClientEvent(ctx.db, ctx.actor, input, ctx.clock.now()),
  }),
})
