import { sql } from 'kysely'
import type { MessageContext, MessageRow } from '../../../src/domains/messages/schemas'
import type { Db } from '../../db/connect'
import { ms } from '../../db/epoch'


/** Messages as one user sees them: author's display name, `own`, deleted ones without their text. */
export function selectMessageRows(db: Db, viewerId: string) {
  return db
    .selectFrom('messages as m')
    .leftJoin('users as u', 'u.id', 'm.author_id')
    .select([
      'm.id as _key',
      'm.context_type',
      'm.context_key',
      'm.author_id as author_key',
      sql<string | null>`case when u.id is null then null else coalesce(nullif(trim(u.name || ' ' || u.surname), ''), u.username) end`.as('author_name'),
      sql<string>`case when m.deleted_at is null then m.body else '' end`.as('body'),
      ms('m.created_at').as('created_at'),
      sql<number | null>`(extract(epoch from m.edited_at) * 1000)::float8`.as('edited_at'),
      sql<boolean>`m.deleted_at is not null`.as('deleted'),
      sql<boolean>`coalesce(m.author_id = ${viewerId}, false)`.as('own'),
    ])
    .$castTo<MessageRow>()
}

/** The thread's messages (all of them, deleted ones too), newest first. */
export function newestFirst(db: Db, viewerId: string, ctx: MessageContext, limit: number) {
  return selectMessageRows(db, viewerId)
    .where('m.context_type', '=', ctx.context_type)
    .where('m.context_key', '=', ctx.context_key)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
}

/** A thread's context is a job or a work order that exists (archived ones included). */
export async function contextExists(db: Db, ctx: MessageContext): Promise<boolean> {
  const table = ctx.context_type === 'job' ? 'jobs' : 'work_orders'
  return (await db.selectFrom(table).select('id').where('id', '=', ctx.context_key).executeTakeFirst()) !== undefined
}

/** The jobs an operator may see: their own and unassigned ones. */
const operatorJobs = (db: Db, userId: string) =>
  db
    .selectFrom('jobs as j')
    .select('j.id')
    .where((eb) => eb.or([eb('j.operator_id', '=', userId), eb('j.operator_id', 'is', null)]))

/** The job is the operator's or unassigned; for a work order, one of its jobs is (the jobs an operator may see). */
export async function operatorMayUse(db: Db, userId: string, ctx: MessageContext): Promise<boolean> {
  const row = await operatorJobs(db, userId)
    .where(ctx.context_type === 'job' ? 'j.id' : 'j.work_order_id', '=', ctx.context_key)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The same rule as operatorMayUse for the thread of each message `m` of an outer query (many
 * threads in one statement): use as `where((eb) => eb.exists(operatorJobsOfThread(...)))`.
 */
export const operatorJobsOfThread = (db: Db, userId: string) =>
  operatorJobs(db, userId).where(
    sql<boolean>`((m.context_type = 'job' and j.id = m.context_key) or (m.context_type = 'work_order' and j.work_order_id = m.context_key))`,
  )

export async function readMarkOf(db: Db, userId: string, ctx: MessageContext): Promise<Date | null> {
  const row = await db
    .selectFrom('message_reads')
    .select('last_read_at')
    .where('user_id', '=', userId)
    .where('context_type', '=', ctx.context_type)
    .where('context_key', '=', ctx.context_key)
    .executeTakeFirst()
  return row?.last_read_at ?? null
}

/** Moves a read mark forward to `at` (never back: an older mark from a slow request loses). */
export async function advanceReadMark(db: Db, userId: string, ctx: MessageContext, at: Date): Promise<Date> {
  const row = await db
    .insertInto('message_reads')
    .values({ user_id: userId, context_type: ctx.context_type, context_key: ctx.context_key, last_read_at: at })
    .onConflict((oc) =>
      oc.columns(['user_id', 'context_type', 'context_key']).doUpdateSet({ last_read_at: sql`greatest(message_reads.last_read_at, excluded.last_read_at)` }),
    )
    .returning('last_read_at')
    .executeTakeFirstOrThrow()
  return row.last_read_at
}
