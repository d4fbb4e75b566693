import { sql } from 'kysely'
import type { Db } from '../../db/connect'
import { ms } from '../../db/epoch'
import { fullName } from '../../db/user-name'

/** An event as a record reproduces it: its key, type, record, who (with the name today) and when, and its data. */
export type SubjectEvent = {
  _key: string
  event_type: string
  subject_key: string
  user_key: string | null
  user_name: string | null
  created_at: number
  data: Record<string, unknown>
}

/**
 * Some events of some records of one type, oldest first (by event key), with the name of whoever
 * made each (name and surname, else the username). For a domain that reads back its own events
 * (the corrections a record lists); the events_subject index serves it.
 */
export async function subjectEvents(db: Db, subjectType: string, keys: readonly string[], eventTypes: readonly string[]): Promise<SubjectEvent[]> {
  if (keys.length === 0 || eventTypes.length === 0) return []
  return db
    .selectFrom('events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select([
      sql<string>`e.id::text`.as('_key'),
      'e.event_type',
      sql<string>`e.subject_key`.as('subject_key'),
      'e.user_id as user_key',
      fullName('u').as('user_name'),
      ms('e.created_at').as('created_at'),
      sql<Record<string, unknown>>`e.data`.as('data'),
    ])
    .where('e.subject_type', '=', subjectType)
    .where('e.subject_key', 'in', [...new Set(keys)])
    .where('e.event_type', 'in', [...eventTypes])
    .orderBy('e.id')
    .execute()
}
