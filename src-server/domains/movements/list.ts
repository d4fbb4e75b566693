import { sql } from 'kysely'
import { LIST_TOTAL_CAP, type MovementList, type MovementListInput, type MovementRow } from '../../../src/domains/movements/schemas'
import { isUuid } from '../../../src/uuid'
import type { Services } from '../../context'
import { escapeLike } from '../positions/queries'
import { findPosition } from '../positions/service'
import { movementNotFound, movementRow, selectMovementRows } from './service'

/** Reading movements: one movement, and the list with its filters (the writes are in service.ts). */

/** `GET movement/{key}`. */
export function getMovement(svc: Pick<Services, 'db'>, key: string): Promise<MovementRow> {
  if (!isUuid(key)) throw movementNotFound()
  return movementRow(svc.db, key)
}

/** `GET movement` with params: newest first, one page, the total counted up to LIST_TOTAL_CAP. */
export async function listMovements(svc: Pick<Services, 'db'>, input: MovementListInput): Promise<MovementList> {
  const pageSize = input.page_size ?? 50
  const page = input.page ?? 1
  let positionIds: string[] | null = null
  if (input.position_key) {
    const pos = await findPosition(svc.db, input.position_key)
    if (!pos) return { rows: [], total: 0, total_capped: false }
    positionIds =
      input.subtree === true
        ? (await svc.db.selectFrom('positions').select('id').where('path', 'like', `${escapeLike(pos.path)}%`).execute()).map((r) => r.id)
        : [pos.id]
  }
  // biome-ignore lint/suspicious/noExplicitAny: one filter list for the page and the count
  const filtered = <Q extends { where: any }>(q: Q, withPosition = true): Q => {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    let f: any = q
    if (input.product_key) f = f.where('m.product_id', '=', input.product_key)
    if (positionIds && withPosition) {
      const ids = positionIds
      // biome-ignore lint/suspicious/noExplicitAny: expression builder of either query
      f = f.where((eb: any) => eb.or([eb('m.from_position_id', 'in', ids), eb('m.to_position_id', 'in', ids)]))
    }
    if (input.type) f = f.where('m.type', '=', input.type)
    if (input.status) f = f.where('m.status', '=', input.status)
    if (input.serial !== undefined) f = f.where('m.serial', '=', input.serial.trim())
    if (input.work_order_key) f = f.where('m.work_order_id', '=', input.work_order_key)
    if (input.batch_key) f = f.where('m.batch_id', '=', input.batch_key)
    if (input.origin_type !== undefined) f = f.where('m.origin_type', '=', input.origin_type)
    if (input.origin_key !== undefined) f = f.where('m.origin_key', '=', input.origin_key)
    return f
  }
  let page$ = filtered(selectMovementRows(svc.db))
  let capped = filtered(svc.db.selectFrom('movements as m').select('m.number')).limit(LIST_TOTAL_CAP + 1)
  if (positionIds) {
    // A position's movements: each side read newest first on its (position, number) index, only as
    // many as the page needs, then merged; the count the same way, capped. No OR over two indexes
    // that fetches every movement the position ever had.
    const ids = positionIds
    const side = (column: 'm.from_position_id' | 'm.to_position_id', limit: number) =>
      filtered(svc.db.selectFrom('movements as m').select('m.number'), false).where(column, 'in', ids).orderBy('m.number', 'desc').limit(limit)
    const upTo = page * pageSize
    page$ = page$.where('m.number', 'in', sql<number>`(select number from ((${side('m.from_position_id', upTo)}) union (${side('m.to_position_id', upTo)})) u)`)
    capped = svc.db
      .selectFrom(sql<{ number: number }>`((${side('m.from_position_id', LIST_TOTAL_CAP + 1)}) union (${side('m.to_position_id', LIST_TOTAL_CAP + 1)}))`.as('u'))
      .select('u.number')
      .limit(LIST_TOTAL_CAP + 1) as unknown as typeof capped
  }
  const [rows, count] = await Promise.all([
    page$
      .orderBy('m.number', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    svc.db.selectFrom(capped.as('c')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  const n = Number(count.n)
  return { rows, total: Math.min(n, LIST_TOTAL_CAP), total_capped: n > LIST_TOTAL_CAP }
}
