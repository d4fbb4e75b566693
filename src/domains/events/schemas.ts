import * as v from 'valibot'

/** A client-reported event (SPEC Event entity). Server fills user, session and time. */
export const EventInput = v.object({
  event_type: v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9_ .-]{0,63}$/, 'event_type must be a short word')),
  subject_type: v.optional(v.pipe(v.string(), v.maxLength(64))),
  subject_key: v.optional(v.pipe(v.string(), v.maxLength(100))),
  data: v.optional(v.record(v.string(), v.unknown())),
})
export type EventInput = v.InferOutput<typeof EventInput>
