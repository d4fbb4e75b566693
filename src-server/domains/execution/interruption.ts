/**
 * Who stopped the job, when and why (issue 26): production paused it (`POST job/update` pause,
 * JOB_PAUSED with reason paused_by_production) or gave it to another operator (`POST job/assign`,
 * JOB_ASSIGNED / JOB_UNASSIGNED), with the optional reason they typed (`reason_text`). The work
 * session view carries it so the operator reads who and why, and "Resume" asks to confirm.
 */
import { sql } from 'kysely'
import type { Interruption } from '../../../src/domains/execution/schemas'
import { PRODUCTION_PAUSE_REASON } from '../../../src/domains/work-orders/history'
import type { Db } from '../../db/connect'
import { ms } from '../../db/epoch'
import { fullName } from '../../db/user-name'

/** The events that start or stop a job's work or change whose it is: the latest one decides. */
const TURNS = ['JOB_STARTED', 'JOB_RESUMED', 'JOB_PAUSED', 'JOB_PAUSE_FORCED', 'JOB_CLOSED', 'JOB_ASSIGNED', 'JOB_UNASSIGNED'] as const

export type Turn = {
  event_type: string
  user_id: string | null
  user_name: string | null
  at: number
  data: Record<string, unknown>
  operator_name: string | null
}

const text = (x: unknown) => (typeof x === 'string' && x !== '' ? x : null)

/**
 * The rule: the job's latest turn is production's pause or a reassignment, made by someone other
 * than the viewer (a pause or an assignment the viewer made themselves needs no explaining). Any
 * later start, resume, own pause, forced pause or closing supersedes it.
 */
export function interruptionOf(turn: Turn | undefined, viewerId: string): Interruption | null {
  if (!turn || turn.user_id === null || turn.user_id === viewerId) return null
  const by = { by_key: turn.user_id, by_name: turn.user_name ?? '', at: turn.at, reason: text(turn.data.reason_text) }
  if (turn.event_type === 'JOB_PAUSED' && turn.data.reason === PRODUCTION_PAUSE_REASON) {
    return { kind: 'paused', ...by, operator_key: null, operator_name: null }
  }
  if (turn.event_type === 'JOB_ASSIGNED' || turn.event_type === 'JOB_UNASSIGNED') {
    return { kind: 'reassigned', ...by, operator_key: text(turn.data.operator_key), operator_name: turn.operator_name }
  }
  return null
}

/** The job's latest turn (one row by the events_subject_key index), with the names it mentions. */
export function latestTurn(db: Db, jobId: string): Promise<Turn | undefined> {
  return db
    .selectFrom('events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select([
      'e.event_type',
      'e.user_id',
      'e.data',
      fullName('u').as('user_name'),
      ms('e.created_at').as('at'),
      sql<string | null>`(select ${fullName('o')} from users o where o.id::text = e.data->>'operator_key')`.as('operator_name'),
    ])
    .where('e.subject_key', '=', jobId)
    .where('e.subject_type', '=', 'job')
    .where('e.event_type', 'in', [...TURNS])
    .orderBy('e.id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * The job was given to another operator and away from the viewer, who can no longer read it: the
 * refusal (403 JOB_NOT_YOURS) says by whom, when, why and whose it is now. Said only to the
 * operator it was taken from.
 */
export async function reassignedAway(db: Db, jobId: string, viewerId: string): Promise<Interruption | null> {
  const turn = await latestTurn(db, jobId)
  const found = interruptionOf(turn, viewerId)
  return found?.kind === 'reassigned' && turn?.data.previous_operator_key === viewerId ? found : null
}

/** What the viewer reads about a stopped job (null while it runs, once closed, or when nothing explains). */
export async function readInterruption(db: Db, job: { id: string; active: boolean; status: string }, viewerId: string): Promise<Interruption | null> {
  if (job.active || job.status === 'closed') return null
  return interruptionOf(await latestTurn(db, job.id), viewerId)
}
