import type { Kysely } from 'kysely'
import { CLIENT_EVENT_TYPES, isClientEventType } from '../../../src/domains/events/schemas'
import type { Actor } from '../../context'
import type { Database } from '../../db/schema'
import { badRequest } from '../../errors'
import { queueFlowDeliveries } from '../flows/queue'
import { nudgeEventChainers } from './chainer'

export type NewEvent = {
  event_type: string
  subject_type?: string | null
  subject_key?: string | null
  data?: Record<string, unknown>
}

/**
 * Appends one event row (append-only; the database refuses edits). Call it inside the same
 * transaction as the change it records. Server time comes from the database. Returns the event id.
 * Once its transaction has committed, the event chainer links it (its number in the order the
 * commits were seen, and its hash) and wakes the live hubs of every instance (./chainer.ts,
 * docs/audit.md; nothing on ROLLBACK).
 */
export async function appendEvent(db: Kysely<Database>, actor: Actor | null, event: NewEvent, at?: Date): Promise<number> {
  const { id, created_at } = await db
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
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow()
  // Webhook deliveries of the data flows that chose this type, queued in this same transaction.
  await queueFlowDeliveries(db, {
    id,
    event_type: event.event_type,
    created_at,
    user_id: actor?.userId ?? null,
    subject_type: event.subject_type ?? null,
    subject_key: event.subject_key ?? null,
    data: event.data ?? {},
  })
  nudgeEventChainers()
  return id
}

/** Appends several events of one actor at one time in a single INSERT (same rules as appendEvent). */
export async function appendEvents(db: Kysely<Database>, actor: Actor | null, events: readonly NewEvent[], at: Date): Promise<void> {
  if (events.length === 0) return
  const rows = await db
    .insertInto('events')
    .values(
      events.map((event) => ({
        event_type: event.event_type,
        user_id: actor?.userId ?? null,
        session_id: actor?.sessionId ?? null,
        subject_type: event.subject_type ?? null,
        subject_key: event.subject_key ?? null,
        data: JSON.stringify({ ...event.data, ...(actor?.tokenId ? { api_token: actor.tokenId } : {}) }),
        created_at: at,
      })),
    )
    .returning(['id', 'event_type', 'subject_type', 'subject_key', 'data'])
    .execute()
  for (const row of rows) await queueFlowDeliveries(db, { ...row, created_at: at, user_id: actor?.userId ?? null })
  nudgeEventChainers()
}

/**
 * `POST event`: an event only the client saw (CLIENT_EVENT_TYPES); server time and identity.
 * A type the server records itself is refused: nothing is written.
 */
export async function recordClientEvent(
  db: Kysely<Database>,
  actor: Actor,
  input: { event_type: string; subject_type?: string; subject_key?: string; data?: Record<string, unknown> },
  at: Date,
): Promise<void> {
  if (!isClientEventType(input.event_type)) {
    throw badRequest(
      'EVENT_TYPE_NOT_REPORTABLE',
      `event_type ${input.event_type} is recorded by the server itself; a client may report only: ${CLIENT_EVENT_TYPES.join(', ')}`,
      { allowed: [...CLIENT_EVENT_TYPES] },
    )
  }
  await appendEvent(db, actor, { ...input, data: { ...input.data, reported_by_client: true } }, at)
}
