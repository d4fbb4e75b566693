import * as v from 'valibot'
import { LIVE_RESYNC, LIVE_TOPICS, LiveStreamQuery } from '../../src/domains/live/schemas'
import { route } from '../rest/route'
import { LIVE_ACCESS } from './trpc'
import { type LiveMessage, openLiveEvents } from './stream'
import { AppError } from '../errors'

/** A comment line now and then keeps a quiet stream open (Bun closes a connection idle for 10 s; proxies too). */
export const SSE_PING_MS = 8_000

/** One SSE message per event: `id` (the event id, for Last-Event-ID), `event` (its type), `data` (JSON). */
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

const frame = (m: LiveMessage) => `id: ${m.id}\nevent: ${m.type}\ndata: ${JSON.stringify(m)}\n\n`
const encoder = new TextEncoder()

export const liveRoutes = [
  route({
    method: 'get',
    path: '/events/stream',
    tag: 'events',
    summary:
      'Live events as Server-Sent Events: each change as it commits on any instance. Topics default to all the token\'s scope allows ' +
      '(asking for one it does not allow is 403). Reconnect with the Last-Event-ID header (or last_event_id) to get what was missed; ' +
      `a gap too long to replay answers one "${LIVE_RESYNC}" event (refetch what you show). A revoked token or ended session closes the stream.`,
    access: LIVE_ACCESS,
    query: LiveStreamQuery,
    stream: {
      contentType: 'text/event-stream',
      description: 'SSE: `id:` event id, `event:` event type, `data:` the JSON below; `: ping` comments every 8 s.',
      schema: LiveEventDoc,
      headers: [{ name: 'Last-Event-ID', description: 'The id of the last event received: events after it are sent first.' }],
    },
    handler: async (ctx, { query }) => {
      const header = ctx.hono.req.header('last-event-id')
      const fromHeader = header && /^\d{1,15}$/.test(header) ? Number(header) : null
      const lastEventId = fromHeader ?? (query.last_event_id ? Number(query.last_event_id) : null)
      const abort = new AbortController()
      ctx.hono.req.raw.signal.addEventListener('abort', () => abort.abort())
      // Topics the scope does not allow are a 403 answer here, before the stream starts.
      const events = await openLiveEvents(ctx, ctx.auth!, { topics: query.topics, lastEventId, signal: abort.signal })
      let ping: ReturnType<typeof setInterval> | undefined
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const send = (text: string) => {
            if (!abort.signal.aborted) controller.enqueue(encoder.encode(text))
          }
          send(': live\n\n')
          ping = setInterval(() => send(': ping\n\n'), SSE_PING_MS)
          void (async () => {
            try {
              for await (const message of events) send(frame(message))
            } catch (e) {
              const err = e instanceof AppError ? { code: e.appCode, message: e.message } : { code: 'INTERNAL', message: 'internal error' }
              send(`event: error\ndata: ${JSON.stringify(err)}\n\n`)
            } finally {
              clearInterval(ping)
              try {
                controller.close()
              } catch {}
            }
          })()
        },
        cancel() {
          clearInterval(ping)
          abort.abort()
        },
      })
      return new Response(stream, {
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
      })
    },
  }),
]
