import type { Kysely } from 'kysely'
import type { Actor } from '../../context'
import type { Database } from '../../db/schema'

export type NewEvent = {
  event_type: string
  subject_type?: string | null
  subject_key?: string | null
  data?: Record<string, unknown>
}

/**
 * Appends one event row (append-only; the database refuses edits). Call it inside the same
 * transaction as the change it records. Server time comes from the database.
 */
export async function appendEvent(db: Kysely<Database>, actor: Actor | null, event: NewEvent, at?: Date): Promise<void> {
  await db
    .insertInto('events')
    .values({
      event_type: event.event_type,
      user_id: actor?.userId ?? null,
      session_id: actor?.sessionId ?? null,
      subject_type: event.subject_type ?? null,
      subject_key: event.subject_key ?? null,
      data: JSON.stringify({ ...event.data, ...(actor?.tokenId ? { api_token: actor.tokenId } : {}) }),
      ...(at ? { created_at: at } : {}),
    })
    .execute()
}

/** `POST event`: an event the client reports (paused offline, back online ...); server time and identity. */
export async function recordClientEvent(
  db: Kysely<Database>,
  actor: Actor,
  input: { event_type: string; subject_type?: string; subject_key?: string; data?: Record<string, unknown> },
  at: Date,
): Promise<void> {
  await appendEvent(db, actor, { ...input, data: { ...input.data, reported_by_client: true } }, at)
}
