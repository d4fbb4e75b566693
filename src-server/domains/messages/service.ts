import { sql } from 'kysely'
import type * as v from 'valibot'
import {
  MESSAGE_EVENTS,
  MESSAGE_THREAD_MAX,
  type MessageContext,
  type MessageEditInput,
  type MessagePostInput,
  type MessageRow,
  type MessageThread,
  type MessageUnreadCount,
} from '../../../src/domains/messages/schemas'
import { hasScope } from '../../../src/auth/scopes'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, forbidden, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { editData } from '../events/changes'
import { advanceReadMark, contextExists, newestFirst, operatorMayUse, operatorJobsOfThread, readMarkOf, selectMessageRows } from './queries'

type UnreadCount = v.InferOutput<typeof MessageUnreadCount>

const messageNotFound = () => notFound('NOT_FOUND', 'message not found')

function checkedBody(body: string) {
  const trimmed = body.trim()
  if (!trimmed) throw badRequest('MESSAGE_BODY_REQUIRED', 'message text required')
  return trimmed
}

const inEveryThread = (actor: Actor) => hasScope(actor.scope, 'production') || hasScope(actor.scope, 'quality')

/**
 * The thread exists, and the user may take part: production and quality in every thread,
 * an operator (only) in the threads of their own or unassigned jobs and of those jobs' work orders.
 */
async function assertContext(db: Db, actor: Actor, ctx: MessageContext) {
  if (!(await contextExists(db, ctx))) {
    throw ctx.context_type === 'job' ? notFound('UNKNOWN_JOB', 'job not found') : notFound('UNKNOWN_WORK_ORDER', 'work order not found')
  }
  if (inEveryThread(actor)) return
  if (!(await operatorMayUse(db, actor.userId, ctx))) throw forbidden('JOB_NOT_YOURS', 'operators take part in the threads of their own jobs and work orders')
}

const contextOf = (m: { context_type: MessageContext['context_type']; context_key: string }): MessageContext => ({
  context_type: m.context_type,
  context_key: m.context_key,
})

async function rowOf(db: Db, actor: Actor, key: string): Promise<MessageRow> {
  return selectMessageRows(db, actor.userId).where('m.id', '=', key).executeTakeFirstOrThrow()
}

/** `messages.thread`: the newest MESSAGE_THREAD_MAX, oldest first. Reading does not mark the thread read. */
export async function messageThread(svc: Services, actor: Actor, ctx: MessageContext): Promise<MessageThread> {
  await assertContext(svc.db, actor, ctx)
  const [rows, mark] = await Promise.all([newestFirst(svc.db, actor.userId, ctx, MESSAGE_THREAD_MAX).execute(), readMarkOf(svc.db, actor.userId, ctx)])
  return { rows: rows.reverse(), last_read_at: mark?.getTime() ?? null }
}

/**
 * `messages.markRead`: the read mark moves to the newest message the thread holds (so one posted
 * meanwhile, not yet shown, stays unread), or to now for an empty thread.
 */
export async function markThreadRead(svc: Services, actor: Actor, ctx: MessageContext): Promise<{ last_read_at: number }> {
  await assertContext(svc.db, actor, ctx)
  const [newest] = await newestFirst(svc.db, actor.userId, ctx, 1).execute()
  const mark = await advanceReadMark(svc.db, actor.userId, ctx, newest ? new Date(newest.created_at) : svc.clock.now())
  return { last_read_at: mark.getTime() }
}

/**
 * `messages.unread`: per context, the messages of others (not deleted) after the user's read
 * mark; every message of others when the thread was never read. One row per context asked; an
 * operator's count is 0 in threads they do not take part in (assertContext's rule, in the query).
 */
export async function unreadCounts(svc: Services, actor: Actor, contexts: MessageContext[]): Promise<UnreadCount[]> {
  const rows = await svc.db
    .selectFrom('messages as m')
    .leftJoin('message_reads as r', (j) =>
      j.onRef('r.context_type', '=', 'm.context_type').onRef('r.context_key', '=', 'm.context_key').on('r.user_id', '=', actor.userId),
    )
    .select(['m.context_type', 'm.context_key', (eb) => eb.fn.countAll<number>().as('unread')])
    .where((eb) => eb.or(contexts.map((c) => eb.and([eb('m.context_type', '=', c.context_type), eb('m.context_key', '=', c.context_key)]))))
    .where(sql<boolean>`m.author_id is distinct from ${actor.userId}`)
    .where('m.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('r.last_read_at', 'is', null), eb('m.created_at', '>', eb.ref('r.last_read_at'))]))
    .$if(!inEveryThread(actor), (q) => q.where((eb) => eb.exists(operatorJobsOfThread(svc.db, actor.userId))))
    .groupBy(['m.context_type', 'm.context_key'])
    .execute()
  const counts = new Map(rows.map((r) => [`${r.context_type}/${r.context_key}`, Number(r.unread)]))
  return contexts.map((c) => ({ ...contextOf(c), unread: counts.get(`${c.context_type}/${c.context_key}`) ?? 0 }))
}

/** `messages.post`: into an existing job or work order thread; the author has read the thread up to it. */
export async function postMessage(svc: Services, actor: Actor, input: MessagePostInput): Promise<MessageRow> {
  const body = checkedBody(input.body)
  const ctx = contextOf(input)
  const now = svc.clock.now()
  const key = await svc.db.transaction().execute(async (trx) => {
    await assertContext(trx, actor, ctx)
    const { id } = await trx
      .insertInto('messages')
      .values({ ...ctx, author_id: actor.userId, body, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await advanceReadMark(trx, actor.userId, ctx, now)
    await appendEvent(trx, actor, { event_type: MESSAGE_EVENTS.posted, subject_type: 'message', subject_key: id, data: ctx }, now)
    return id
  })
  return rowOf(svc.db, actor, key)
}

/** Locks a message its author is about to change: own (403) and not deleted (409). */
async function ownLiveMessage(trx: Db, actor: Actor, key: string) {
  const msg = await trx.selectFrom('messages').select(['context_type', 'context_key', 'author_id', 'body', 'deleted_at']).where('id', '=', key).forUpdate().executeTakeFirst()
  if (!msg) throw messageNotFound()
  if (msg.author_id !== actor.userId) throw forbidden('MESSAGE_NOT_OWN', 'only the author may change or delete a message')
  if (msg.deleted_at) throw conflict('MESSAGE_DELETED', 'the message was deleted')
  return msg
}

/** `messages.edit`: own messages only; the thread shows it as edited. The same text changes nothing. */
export async function editMessage(svc: Services, actor: Actor, input: MessageEditInput): Promise<MessageRow> {
  const body = checkedBody(input.body)
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const msg = await ownLiveMessage(trx, actor, input.key)
    if (msg.body === body) return
    await trx.updateTable('messages').set({ body, edited_at: now, updated_at: now }).where('id', '=', input.key).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: MESSAGE_EVENTS.updated, subject_type: 'message', subject_key: input.key, data: editData({ body: { from: msg.body, to: body } }, contextOf(msg)) },
      now,
    )
  })
  return rowOf(svc.db, actor, input.key)
}

/** `messages.remove`: own messages only; the text goes, a marker keeps the message's place in the thread. */
export async function removeMessage(svc: Services, actor: Actor, key: string): Promise<{ _key: string }> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const msg = await ownLiveMessage(trx, actor, key)
    await trx.updateTable('messages').set({ body: '', deleted_at: now, updated_at: now }).where('id', '=', key).execute()
    await appendEvent(trx, actor, { event_type: MESSAGE_EVENTS.deleted, subject_type: 'message', subject_key: key, data: contextOf(msg) }, now)
  })
  return { _key: key }
}
