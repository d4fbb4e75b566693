import { EventInput } from '../../../src/domains/events/schemas'
import { router, signedIn } from '../../trpc/init'
import { recordClientEvent } from './service'

export const eventsRouter = router({
  record: signedIn.input(EventInput).mutation(({ ctx, input }) => recordClientEvent(ctx.db, ctx.actor, input, ctx.clock.now())),
})
