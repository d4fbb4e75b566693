/**
 * The site queue: every work order not archived, in the order production works them. Reading it
 * a page at a time, saving it whole and moving one work order in it; saves and moves are serialised by one lock.
 */
import { sql } from 'kysely'
import {
  type QueueMoveInput,
  type QueueMoveResult,
  type QueueSaveInput,
  SITE_QUEUE_PAGE_DEFAULT,
  type SiteQueue,
  type SiteQueueInput,
} from '../../../src/domains/work-orders/schemas'
import { isUuid } from '../../../src/uuid'
import { mergeQueue } from '../../../src/domains/work-orders/rules'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, notFound, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { edgeDate } from './queries'
import { archivedRefusal, SUBJECT } from './shared'

/** The keyset position after a page: the (sequence, key) of its last work order. */
function encodeCursor(row: { sequence: number; _key: string }): string {
  return Buffer.from(JSON.stringify([row.sequence, row._key])).toString('base64url')
}

function decodeCursor(cursor: string): { sequence: number; key: string } {
  try {
    const [sequence, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Number.isSafeInteger(sequence) && typeof key === 'string' && isUuid(key)) return { sequence, key }
  } catch {}
  throw invalidField({ path: 'cursor', kind: 'invalid', message: 'not a cursor this queue gave' })
}

/**
 * `GET queue/site/0`: one page of the work orders not archived, in queue order, keyset-paged on
 * (sequence, id) through work_orders_queue, so a page costs the same at 80 or 80,000 work orders.
 */
export async function getSiteQueue(svc: Pick<Services, 'db'>, input: Partial<SiteQueueInput> = {}): Promise<SiteQueue> {
  if ((input.site_key ?? '0') !== '0') throw notFound('NOT_FOUND', 'site not found: the site queue is 0')
  const limit = input.limit ?? SITE_QUEUE_PAGE_DEFAULT
  let q = svc.db
    .selectFrom('work_orders as w')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .select(['w.id as _key', 'w.code', 'p.code as product_code', 'w.status', 'w.planned_qt', 'w.completed_qt', edgeDate('w.due_by').as('due_by'), 'w.sequence'])
    .where(sql<boolean>`(w.archived_at is null)`, '=', true)
  if (input.cursor) {
    const c = decodeCursor(input.cursor)
    // The first condition lets the index start at the cursor; the row comparison breaks ties.
    q = q.where('w.sequence', '>=', c.sequence).where(sql<boolean>`(w.sequence, w.id) > (${c.sequence}::int8, ${c.key}::uuid)`)
  }
  const rows = await q
    .orderBy('w.sequence')
    .orderBy('w.id')
    .limit(limit + 1)
    .execute()
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return { type: 's', site_key: '0', work_orders: page, next_cursor: more ? encodeCursor(page[page.length - 1]!) : null }
}

/**
 * `PUT queue` with the SPEC payload {type: 's', site_key: '0', work_orders: [keys]}. Last writer
 * wins without losing work orders: saves are serialised (advisory lock); the listed work orders
 * take the front of the queue in the given order and every other one not archived (created or
 * restored meanwhile, or simply left out) follows in its previous relative order. Unknown keys
 * are 400 UNKNOWN_WORK_ORDER; archived ones are ignored. The queue reuses its own sequence
 * numbers, so a work order created during the save still lands at the end.
 */
export async function saveSiteQueue(svc: Services, actor: Actor, input: QueueSaveInput): Promise<SiteQueue> {
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockSiteQueue(trx)
    if (input.work_orders.length) {
      const known = await trx
        .selectFrom('work_orders')
        .select('id')
        .where(sql<boolean>`id = any(${input.work_orders}::uuid[])`)
        .execute()
      const knownIds = new Set(known.map((r) => r.id))
      const unknown = input.work_orders.filter((k) => !knownIds.has(k))
      if (unknown.length) {
        throw badRequest('UNKNOWN_WORK_ORDER', `unknown work order: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' ...' : ''}`, {
          keys: unknown.slice(0, 50),
        })
      }
    }
    const current = await currentQueue(trx)
    const order = mergeQueue(
      current.map((r) => r.id),
      input.work_orders,
    )
    const moves = await writeQueueOrder(trx, current, order, now)
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'SITE_QUEUE_SAVED',
        subject_type: 'queue',
        subject_key: 's:0',
        data: { work_orders: order.length, listed: input.work_orders.length, moved: moves.length, moved_keys: moves.slice(0, 100).map((m) => m.id) },
      },
      now,
    )
  })
  return getSiteQueue(svc)
}

/**
 * `POST queue/move` / `workOrders.moveInQueue`: one work order to an absolute place of the whole
 * site queue (not only of the page a screen shows). Serialised with every other queue save, so
 * the place is counted on the queue as it is when the move runs (WORK_ORDER_QUEUE_MOVED).
 */
export async function moveInSiteQueue(svc: Services, actor: Actor, input: QueueMoveInput): Promise<QueueMoveResult> {
  const now = svc.clock.now()
  return svc.db.transaction().execute(async (trx) => {
    await lockSiteQueue(trx)
    const wo = await trx.selectFrom('work_orders').select(['id', 'code', 'archived_at']).where('id', '=', input.work_order_key).executeTakeFirst()
    if (!wo) throw notFound('UNKNOWN_WORK_ORDER', 'work order not found')
    if (wo.archived_at !== null) throw archivedRefusal()
    const current = await currentQueue(trx)
    const ids = current.map((r) => r.id)
    const from = ids.indexOf(wo.id)
    const to = input.position === 'last' ? ids.length - 1 : input.position - 1
    if (to >= ids.length) {
      throw unprocessable('QUEUE_POSITION_OUT_OF_RANGE', `position ${input.position} is beyond the end of the queue (${ids.length} work orders)`, {
        total: ids.length,
      })
    }
    if (from !== to) {
      const order = ids.filter((id) => id !== wo.id)
      order.splice(to, 0, wo.id)
      await writeQueueOrder(trx, current, order, now)
      await appendEvent(
        trx,
        actor,
        { event_type: 'WORK_ORDER_QUEUE_MOVED', subject_type: SUBJECT, subject_key: wo.id, data: { code: wo.code, position: { from: from + 1, to: to + 1 }, total: ids.length, changes: { queue_position: { from: from + 1, to: to + 1 } } } },
        now,
      )
    }
    return { _key: wo.id, from: from + 1, to: to + 1, total: ids.length }
  })
}

/** Every queue change holds this lock for its transaction: saves and moves never interleave. */
const lockSiteQueue = (trx: Db) => sql`select pg_advisory_xact_lock(hashtext('mes.site_queue'))`.execute(trx)

/** The work orders not archived, in queue order, with their sequence numbers. */
const currentQueue = (trx: Db) =>
  trx
    .selectFrom('work_orders')
    .select(['id', 'sequence'])
    .where(sql<boolean>`(archived_at is null)`, '=', true)
    .orderBy('sequence')
    .orderBy('id')
    .execute()

/**
 * Gives `order` the queue's own sequence numbers (so a work order created meanwhile still lands
 * at the end) and writes only the rows whose number changes.
 */
async function writeQueueOrder(trx: Db, current: { id: string; sequence: number }[], order: string[], now: Date) {
  const sequences = current.map((r) => r.sequence)
  const was = new Map(current.map((r) => [r.id, r.sequence]))
  const moves = order.map((id, i) => ({ id, sequence: sequences[i]! })).filter((m) => was.get(m.id) !== m.sequence)
  for (let i = 0; i < moves.length; i += 2000) {
    const chunk = moves.slice(i, i + 2000)
    await sql`
      update work_orders as w set sequence = v.sequence, updated_at = ${now}
      from (values ${sql.join(chunk.map((m) => sql`(${m.id}::uuid, ${m.sequence}::int8)`))}) as v(id, sequence)
      where w.id = v.id`.execute(trx)
  }
  return moves
}
