/**
 * What the work order use cases share: the event subject, the two refusals several of them give
 * (not found, archived), the plant's today, the visible code format, the key-or-code lookup and
 * the input checks both creation and editing apply (dates, operators). Kept apart so each use
 * case file imports only this and never another use case for these.
 */
import { hasScope } from '../../../src/auth/scopes'
import { dayOf } from '../../../src/domains/work-orders/rules'
import type { Services } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, conflict, notFound } from '../../errors'
import { findWorkOrderId } from './queries'

export const SUBJECT = 'work_order'

export const workOrderNotFound = () => notFound('NOT_FOUND', 'work order not found')
export const archivedRefusal = () => conflict('WORK_ORDER_ARCHIVED', 'the work order is archived: restore it first')

/** Today as the plant sees it (the server's local calendar), YYYY/MM/DD. */
export const todayOf = (svc: Pick<Services, 'clock'>) => dayOf(svc.clock.now())

/** Code shown to people: 'WO' and at least six digits from the work_order_code numbering. */
export const formatWorkOrderCode = (n: number) => `WO${String(n).padStart(6, '0')}`

export async function requireWorkOrderId(db: Db, key: string): Promise<string> {
  const id = await findWorkOrderId(db, key)
  if (!id) throw workOrderNotFound()
  return id
}

export function assertDates(startFrom: string | null, dueBy: string | null) {
  if (startFrom && dueBy && dueBy < startFrom) {
    throw badRequest('DUE_BEFORE_START', 'due_by must not be before start_from', { start_from: startFrom, due_by: dueBy })
  }
}

/**
 * The operators among `keys` (enabled, not archived, holding the operator permission);
 * any other key is 400 WRONG_OPERATOR.
 */
export async function assertOperators(db: Db, keys: readonly string[]): Promise<void> {
  const wanted = [...new Set(keys)]
  if (wanted.length === 0) return
  const rows = await db.selectFrom('users').select(['id', 'scope', 'enabled', 'archived_at']).where('id', 'in', wanted).execute()
  const ok = new Set(rows.filter((u) => u.enabled && !u.archived_at && hasScope(u.scope, 'operator')).map((u) => u.id))
  const wrong = wanted.filter((k) => !ok.has(k))
  if (wrong.length) throw badRequest('WRONG_OPERATOR', 'not an active operator: choose users with the operator permission', { operator_keys: wrong })
}
