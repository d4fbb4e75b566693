import type { HonoRequest } from 'hono'
import type { LiveTopic } from '../../src/domains/live/schemas'
import type { Auth, Services } from '../context'
import { AppError } from '../errors'
import { type LiveMessage, openLiveEvents } from './stream'

/** A comment line now and then keeps a quiet stream open (Bun closes a connection idle for 10 s; proxies too). */
export const SSE_PING_MS = 8_000

/** One SSE message per event: `id` (the event id, for Last-Event-ID), `event` (its type), `data` (JSON). */
const frame = (m: LiveMessage) => `id: ${m.id}\nevent: ${m.type}\ndata: ${JSON.stringify(m)}\n\n`
const encoder = new TextEncoder()

/**
 * `GET events/stream`: live events as Server-Sent Events, after the Last-Event-ID header (or
 * `last_event_id`) when the client reconnects; the stream ends when the request is aborted.
 */
export async function liveEventStream(svc: Services, auth: Auth, req: HonoRequest, query: { topics?: LiveTopic[]; last_event_id?: string }): Promise<Response> {
  const header = req.header('last-event-id')
  const fromHeader = header && /^\d{1,15}$/.test(header) ? Number(header) : null
  const lastEventId = fromHeader ?? (query.last_event_id ? Number(query.last_event_id) : null)
  const abort = new AbortController()
  req.raw.signal.addEventListener('abort', () => abort.abort())
  // Topics the scope does not allow are a 403 answer here, before the stream starts.
  const events = await openLiveEvents(svc, auth, { topics: query.topics, lastEventId, signal: abort.signal })
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
}
