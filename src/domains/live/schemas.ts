import * as v from 'valibot'
import type { Scope } from '../../auth/scopes'

/**
 * Live updates (issue 17): every appended event is announced to the screens and scripts that may
 * see it. An announcement says WHAT changed (event id, type, topic, entity keys), never the data:
 * the client refetches through the matching query, which applies its own row rules.
 *
 * A topic groups events by the screens that show them; a user (or API token) may follow a topic
 * when the scope holds one of the topic's scopes: the same scopes as the topic's queries.
 */
export const LIVE_TOPICS = ['jobs', 'work_orders', 'issues', 'messages', 'library', 'traceability', 'admin'] as const
export type LiveTopic = (typeof LIVE_TOPICS)[number]

export const LIVE_TOPIC_SCOPES: Record<LiveTopic, readonly Scope[]> = {
  // jobs.list / jobs.get / execution.workSession
  jobs: ['production', 'operator'],
  // workOrders.get (WORK_ORDER_DETAIL_READERS)
  work_orders: ['production', 'quality', 'traceability', 'reporting', 'operator'],
  // issues.list / issues.get (ISSUE_USERS)
  issues: ['quality', 'production', 'operator'],
  // messages.thread / messages.unread (MESSAGE_ACCESS)
  messages: ['operator', 'production', 'quality'],
  library: ['library'],
  traceability: ['traceability'],
  admin: ['admin'],
}

/** The topics a scope string may follow (whole-word match, as hasScope). */
export function topicsForScope(scope: string): LiveTopic[] {
  const words = new Set(scope.split(/\s+/))
  return LIVE_TOPICS.filter((t) => LIVE_TOPIC_SCOPES[t].some((s) => words.has(s)))
}

/** One announcement: its number in the event chain (commit order; also the SSE id and the cursor a reconnect sends), the event type, topic and the keys screens match on. */
export type LiveEvent = {
  id: number
  type: string
  topic: LiveTopic
  subject_type: string | null
  subject_key: string | null
  /** Keys named by the event that other screens show (a job's work order, a message's thread ...). */
  keys: LiveKeys
  /** Any one of these scopes lets a subscriber receive it. */
  scopes: readonly Scope[]
}
export type LiveKeys = {
  work_order?: string
  job?: string
  operator?: string
  previous_operator?: string
  context_type?: string
  context_key?: string
}

/** Sent instead of events when a reconnecting client's gap is too long to replay: refetch all. */
export const LIVE_RESYNC = 'RESYNC'

/** Digits only: the id of the last event the client got (tRPC sends it on reconnect). */
const EventId = v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'lastEventId must be an event id (digits)'))

/** `live.events`: the topics to follow (default: every topic the scope allows). */
export const LiveSubscribeInput = v.object({
  topics: v.optional(
    v.pipe(
      v.array(v.picklist(LIVE_TOPICS, `topics may hold: ${LIVE_TOPICS.join(', ')}`)),
      v.maxLength(LIVE_TOPICS.length * 2, 'too many topics'),
    ),
  ),
  lastEventId: v.nullish(EventId),
})
export type LiveSubscribeInput = v.InferOutput<typeof LiveSubscribeInput>

/** `GET events/stream` query string: topics as a comma list; `last_event_id` when the Last-Event-ID header cannot be set. */
export const LiveStreamQuery = v.object({
  topics: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
      v.array(v.picklist(LIVE_TOPICS, `topics may hold: ${LIVE_TOPICS.join(', ')}`)),
    ),
  ),
  last_event_id: v.optional(EventId),
})
