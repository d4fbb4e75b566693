import { tracked } from '@trpc/server'
import * as v from 'valibot'
import { LIVE_RESYNC, LIVE_TOPICS, LiveStreamQuery, LiveSubscribeInput } from '../../src/domains/live/schemas'
import { restOnly, useCases } from '../api/use-case'
import type { Access } from '../auth/authorize'
import { procedure, router } from '../trpc/init'
import { liveEventStream } from './sse-writer'
import { liveEvents } from './stream'

/**
 * Any signed-in user; the topics asked for must fit the scope (stream.ts checkedTopics). Keeping
 * a screen live is not user activity: it never keeps an idle session unlocked.
 */
const LIVE_ACCESS: Access = { scope: 'signed-in', notActivity: true }

/** What OpenAPI shows of one SSE message's `data`. */
const LiveEventDoc = v.object({
  id: v.number(),
  type: v.string(),
  topic: v.picklist(LIVE_TOPICS),
  subject_type: v.nullable(v.string()),
  subject_key: v.nullable(v.string()),
  keys: v.object({
    work_order: v.optional(v.string()),
    job: v.optional(v.string()),
    operator: v.optional(v.string()),
    previous_operator: v.optional(v.string()),
    context_type: v.optional(v.string()),
    context_key: v.optional(v.string()),
  }),
  scopes: v.array(v.string()),
})

export const liveApi = useCases('events', {
  stream: restOnly({
    summary:
      'Live events as Server-Sent Events: each change as it commits on any instance. Topics default to all the token\'s scope allows ' +
      '(asking for one it does not allow is 403). Reconnect with the Last-Event-ID header (or last_event_id) to get what was missed; ' +
      `a gap too long to replay answers one "${LIVE_RESYNC}" event (refetch what you show). A revoked token or ended session closes the stream.`,
    access: LIVE_ACCESS,
    input: LiveStreamQuery,
    rest: {
      method: 'get',
      path: '/events/stream',
      stream: {
        contentType: 'text/event-stream',
        description: 'SSE: `id:` event id, `event:` event type, `data:` the JSON below; `: ping` comments every 8 s.',
        schema: LiveEventDoc,
        headers: [{ name: 'Last-Event-ID', description: 'The id of the last event received: events after it are sent first.' }],
      },
    },
    run: (ctx, input) => liveEventStream(ctx, ctx.auth, ctx.hono!.req, input),
  }),
})

/**
 * `live.events`, written by hand (use cases declare queries and mutations, not subscriptions):
 * live events over SSE (httpSubscriptionLink). Each carries its event id (tracked), so the client
 * reconnects with `lastEventId` and gets what it missed, or a RESYNC when the gap is too long.
 */
export const liveRouter = router({
  events: procedure(LIVE_ACCESS)
    .input(LiveSubscribeInput)
    .subscription(async function* ({ ctx, input, signal }) {
      const lastEventId = input.lastEventId ? Number(input.lastEventId) : null
      for await (const message of liveEvents(ctx, ctx.auth, { topics: input.topics, lastEventId, signal })) {
        yield tracked(String(message.id), message)
      }
    }),
})
