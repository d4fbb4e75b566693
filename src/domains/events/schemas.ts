import * as v from 'valibot'

/**
 * The event types a client may report with `POST event` (SPEC 3 Event entity): facts only the
 * client saw. Every other type (JOB_STARTED, BACK_ONLINE, ISSUE_OPENED ...) is written by the
 * server in the transaction of the change it records; a client report of one would read like real
 * history, so the service refuses it (400 EVENT_TYPE_NOT_REPORTABLE).
 * - PAUSED_OFFLINE: this client closed a job's work session after max_offline without a
 *   connection (the server's own record is JOB_PAUSE_FORCED; "back online" is recorded once per
 *   reconnection by `POST job/{key}/back-online`).
 */
export const CLIENT_EVENT_TYPES = ['PAUSED_OFFLINE'] as const
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number]

export const isClientEventType = (type: string): type is ClientEventType => (CLIENT_EVENT_TYPES as readonly string[]).includes(type)

/** A client-reported event (SPEC Event entity). Server fills user, session and time. */
export const EventInput = v.object({
  // A word here; whether the client may report it is the service's rule (its own error code).
  // OpenAPI lists the reportable types.
  event_type: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z][A-Za-z0-9_ .-]{0,63}$/, 'event_type must be a short word'),
    v.metadata({ enum: [...CLIENT_EVENT_TYPES] }),
  ),
  subject_type: v.optional(v.pipe(v.string(), v.maxLength(64))),
  subject_key: v.optional(v.pipe(v.string(), v.maxLength(100))),
  data: v.optional(v.record(v.string(), v.unknown())),
})
export type EventInput = v.InferOutput<typeof EventInput>
