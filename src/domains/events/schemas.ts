import * as v from 'valibot'

/** A client-reported event (SPEC Event entity). Server fills user, session and time. */
export const EventInput = v.object({
  event_type: v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9_ .-]{0,63}$/, 'event_type must be a short word')),
  subject_type: v.optional(v.pipe(v.string(), v.maxLength(64))),
  subject_key: v.optional(v.pipe(v.string(), v.maxLength(100))),
  data: v.optional(v.record(v.string(), v.unknown())),
})
export type EventInput = v.InferOutput<typeof EventInput>

export const EventRow = v.object({
  _key: v.string(),
  event_type: v.string(),
  user_key: v.nullable(v.string()),
  user_session_key: v.nullable(v.string()),
  timestamp: v.number(),
  subject_type: v.nullable(v.string()),
  subject_key: v.nullable(v.string()),
  data: v.record(v.string(), v.unknown()),
})
