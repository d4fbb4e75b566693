import { tracked } from '@trpc/server'
import { LiveSubscribeInput } from '../../src/domains/live/schemas'
import type { Access } from '../auth/authorize'
import { procedure, router } from '../trpc/init'
import { liveEvents } from './stream'

/**
 * Any signed-in user; the topics asked for must fit the scope (stream.ts checkedTopics). Keeping
 * a screen live is not user activity: it never keeps an idle session unlocked.
 */
export const LIVE_ACCESS: Access = { scope: 'signed-in', notActivity: true }

export const liveRouter = router({
  /**
   * Live events over SSE (httpSubscriptionLink). Each carries its event id (tracked), so the
   * client reconnects with `lastEventId` and gets what it missed, or a RESYNC when the gap is
   * too long.
   */
  events: procedure(LIVE_ACCESS)
    .input(LiveSubscribeInput)
    .subscription(async function* ({ ctx, input, signal }) {
      const lastEventId = input.lastEventId ? Number(input.lastEventId) : null
      for await (const message of liveEvents(ctx, ctx.auth, { topics: input.topics, lastEventId, signal })) {
        yield tracked(String(message.id), message)
      }
    }),
})
