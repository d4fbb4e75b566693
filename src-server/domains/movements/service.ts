import { sql } from 'kysely'
import {
  type MovementCreateInput,
  type MovementRow,
  movementSidesProblem,
  QUANTITY_DECIMALS,
} from '../../../src/domains/movements/schemas'
import { decimalCount } from '../../../src/i18n/number-text'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { drawNumber } from '../../db/numbering'
import type { MovementsTable } from '../../db/schema'
import { AppError, badRequest, conflict, notFound, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { lockPositionTree } from '../positions/queries'
import { findPosition } from '../positions/service'
import { readWarehouseSettings } from './settings'
import { changeStock, checkOnePieceOfSerial, lockSerialStock, type StockKey, stockHeldIn } from './stock'
import type { SignatureInput } from '../../../src/domains/signatures/schemas'
import { type ActionSignature, actionSignature, signRecord } from '../signatures/actions'
import { correctionSubject } from '../signatures/records'

export { readWarehouseSettings } from './settings'
export { readInventory, serialInStock, stockByPosition, stockForProducts, stockOfProduct } from './stock'

/**
 * Movements (issue 14). Functions named `...InTrx` run inside the caller's transaction (production
 * moves stock inside BATCH_COMPLETED's): each works under a savepoint, so when it refuses (409
 * INSUFFICIENT_STOCK ...) nothing of it is left and the caller's transaction is still usable.
 * The others open their own transaction (tRPC, REST) and retry a deadlock a few times before
 * answering 409 STOCK_BUSY.
 */

export const movementNotFound = () => notFound('NOT_FOUND', 'movement not found')
const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`

/** Movement rows with product, position and user names. */
export function selectMovementRows(db: Db) {
  return db
    .selectFrom('movements as m')
    .innerJoin('products as pr', 'pr.id', 'm.product_id')
    .leftJoin('positions as f', 'f.id', 'm.from_position_id')
    .leftJoin('positions as t', 't.id', 'm.to_position_id')
    .leftJoin('users as u', (j) => j.on(sql<boolean>`u.id = coalesce(m.confirmed_by, m.created_by)`))
    .select([
      'm.id as _key',
      'm.number',
      'm.product_id as product_key',
      'pr.code as product_code',
      'pr.description as product_description',
      sql<string | null>`nullif(m.serial, '')`.as('serial'),
      'm.owned',
      'm.from_position_id as from_position_key',
      'f.code as from_position_code',
      'm.to_position_id as to_position_key',
      't.code as to_position_code',
      'm.type',
      'm.status',
      'm.planned_quantity',
      'm.confirmed_quantity',
      'm.reason',
      ms('m.started_at').as('started_at'),
      sql<number | null>`(extract(epoch from m.ended_at) * 1000)::float8`.as('ended_at'),
      'u.id as user_key',
      sql<string | null>`case when u.id is null then null else trim(u.name || ' ' || u.surname) end`.as('user_name'),
      'm.reverts_id as reverts_key',
      sql<number | null>`(select r.number from movements r where r.id = m.reverts_id)`.as('reverts_number'),
      'm.reverted_by_id as reverted_by_key',
      sql<number | null>`(select r.number from movements r where r.id = m.reverted_by_id)`.as('reverted_by_number'),
      'm.revert_reason',
      'm.work_order_id as work_order_key',
      'm.batch_id as batch_key',
      'm.origin_type',
      'm.origin_key',
    ])
    .$castTo<MovementRow>()
}

export async function movementRow(db: Db, id: string): Promise<MovementRow> {
  const row = await selectMovementRows(db).where('m.id', '=', id).executeTakeFirst()
  if (!row) throw movementNotFound()
  return row
}

// ---------------------------------------------------------------------------------------------
// Transactions: savepoints for callers' transactions, retries for our own

let savepointSeq = 0
const isDeadlock = (e: unknown) => typeof e === 'object' && e !== null && ['40P01', '40001'].includes((e as { code?: string }).code ?? '')
const busy = () => conflict('STOCK_BUSY', 'the stock is being changed by another operation at the same moment: try again')
const ATTEMPTS = 4

/**
 * Runs `fn` in the caller's transaction under a savepoint: on any error the savepoint is rolled
 * back (nothing of `fn` stays, the transaction stays usable) and the error is thrown; a deadlock
 * is retried from the savepoint. A database that is not a transaction gets one of its own.
 */
export async function underSavepoint<T>(trx: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (!trx.isTransaction) return inOwnTransaction(trx, fn)
  const name = sql.raw(`warehouse_${++savepointSeq}`)
  for (let attempt = 1; ; attempt++) {
    await sql`savepoint ${name}`.execute(trx)
    try {
      const out = await fn(trx)
      await sql`release savepoint ${name}`.execute(trx)
      return out
    } catch (e) {
      await sql`rollback to savepoint ${name}`.execute(trx)
      await sql`release savepoint ${name}`.execute(trx)
      if (!isDeadlock(e)) throw e
      if (attempt >= ATTEMPTS) throw busy()
    }
  }
}

/** Our own transaction, retried when PostgreSQL picks it as a deadlock victim; then 409 STOCK_BUSY. */
export async function inOwnTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn)
    } catch (e) {
      if (!isDeadlock(e)) throw e
      if (attempt >= ATTEMPTS) throw busy()
      await Bun.sleep(5 * attempt + Math.random() * 20)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rules

function checkQuantity(quantity: number, path = 'quantity'): number {
  if (!Number.isFinite(quantity) || quantity <= 0) throw invalidField({ path, kind: 'min_value', limit: 0, message: 'quantity must be greater than 0' })
  if (decimalCount(quantity) > QUANTITY_DECIMALS) throw invalidField({ path, kind: 'max_decimals', limit: QUANTITY_DECIMALS, message: `at most ${QUANTITY_DECIMALS} decimals` })
  return quantity
}
export const cleanSerial = (serial: string | null | undefined) => (serial ?? '').trim()

/** A position a movement uses: it must exist and be active. */
async function activePosition(trx: Db, key: string | null | undefined, which: 'origin' | 'destination') {
  if (!key) return null
  const pos = await findPosition(trx, key)
  if (!pos) throw unprocessable('UNKNOWN_POSITION', `${which} position not found`, { field: which === 'origin' ? 'from_position_key' : 'to_position_key' })
  if (!pos.active) throw unprocessable('POSITION_INACTIVE', `position ${pos.code} is deactivated`, { position_key: pos.id })
  return pos
}

type RawMovement = {
  id: string
  product_id: string
  serial: string
  owned: boolean
  from_position_id: string | null
  to_position_id: string | null
  planned_quantity: number
}

/**
 * Applies a movement's quantity to the stock: taken from `from`, added to `to`, the two lines
 * touched in position-key order so two opposite transfers lock in the same order.
 */
async function applyToStock(trx: Db, m: RawMovement, quantity: number, now: Date, allowNegative: boolean, codes: Record<string, string>): Promise<void> {
  const ops: { key: StockKey; delta: number }[] = []
  const line = (position_id: string) => ({ position_id, product_id: m.product_id, serial: m.serial, owned: m.owned })
  if (m.from_position_id) ops.push({ key: line(m.from_position_id), delta: -quantity })
  if (m.to_position_id) ops.push({ key: line(m.to_position_id), delta: quantity })
  ops.sort((a, b) => (a.key.position_id < b.key.position_id ? -1 : a.key.position_id > b.key.position_id ? 1 : 0))
  const serialArrives = m.serial !== '' && m.to_position_id !== null
  if (serialArrives) await lockSerialStock(trx, m.product_id, m.serial)
  for (const op of ops) await changeStock(trx, op.key, op.delta, allowNegative, now, codes[op.key.position_id])
  if (serialArrives) await checkOnePieceOfSerial(trx, m.product_id, m.serial, { position_id: m.to_position_id!, quantity })
}

async function confirmLocked(trx: Db, actor: Actor | null, m: RawMovement, quantity: number, now: Date, codes: Record<string, string>): Promise<void> {
  const settings = await readWarehouseSettings(trx)
  await applyToStock(trx, m, quantity, now, settings.negative_stock_allowed, codes)
  await trx
    .updateTable('movements')
    .set({ status: 'confirmed', confirmed_quantity: quantity, ended_at: now, confirmed_by: actor?.userId ?? null })
    .where('id', '=', m.id)
    .execute()
  await appendEvent(trx, actor, { event_type: 'MOVEMENT_CONFIRMED', subject_type: 'movement', subject_key: m.id, data: { quantity } }, now)
  if (m.from_position_id) await disposeIfEmptied(trx, actor, m.from_position_id, m.id, now)
}

/**
 * A disposable position (a container thrown away when empty, SPEC 3) that a confirmed movement
 * left holding nothing is deactivated in the same transaction (POSITION_UPDATED with
 * `reason: 'disposable_emptied'` and the movement), as the deactivation rules allow: not while it
 * has active positions inside. Under the tree lock, as every deactivation and move.
 */
async function disposeIfEmptied(trx: Db, actor: Actor | null, positionId: string, movementId: string, now: Date): Promise<void> {
  const pos = await trx.selectFrom('positions').select(['disposable', 'active']).where('id', '=', positionId).executeTakeFirst()
  if (!pos?.disposable || !pos.active) return
  if (await stockHeldIn(trx, positionId)) return
  await lockPositionTree(trx)
  const child = await trx.selectFrom('positions').select('id').where('parent_id', '=', positionId).where('active', '=', true).limit(1).executeTakeFirst()
  if (child) return
  const done = await trx.updateTable('positions').set({ active: false, updated_at: now }).where('id', '=', positionId).where('active', '=', true).executeTakeFirst()
  if (Number(done.numUpdatedRows) !== 1) return
  await appendEvent(
    trx,
    actor,
    { event_type: 'POSITION_UPDATED', subject_type: 'position', subject_key: positionId, data: { changes: { active: { from: true, to: false } }, reason: 'disposable_emptied', movement_key: movementId } },
    now,
  )
}

export type MovementInput = MovementCreateInput

/**
 * What a planned movement became (confirmed or cancelled), told to the domains that planned it
 * (missions register theirs: a mission line follows its movement wherever it is confirmed or
 * cancelled: scan, list, movements screen, REST). Called inside the movement's savepoint, so a
 * hook's refusal undoes the movement too. The arrow stays missions -> movements.
 */
export type MovementSettled = { id: string; status: 'confirmed' | 'cancelled'; origin_type: string | null; origin_key: string | null }
export type MovementSettledHook = (trx: Db, actor: Actor | null, movement: MovementSettled, now: Date) => Promise<void>
const settledHooks = new Map<string, MovementSettledHook>()

/** Registers the hook for movements of one origin type (one per origin: registering again replaces it). */
export function onMovementSettled(originType: string, hook: MovementSettledHook): void {
  settledHooks.set(originType, hook)
}

async function settled(trx: Db, actor: Actor | null, m: { id: string; origin_type: string | null; origin_key: string | null }, status: MovementSettled['status'], now: Date) {
  const hook = m.origin_type ? settledHooks.get(m.origin_type) : undefined
  if (hook) await hook(trx, actor, { id: m.id, status, origin_type: m.origin_type, origin_key: m.origin_key }, now)
}

/**
 * Creates a movement in the caller's transaction; confirmed at once unless `confirm: false`
 * (then it is planned and changes nothing until confirmMovementInTrx). Refusals: unknown
 * product or position (422), a deactivated position (422), from/to not fitting the type (400
 * MOVEMENT_POSITIONS_INVALID), an adjustment without a reason (400), not enough stock (409
 * INSUFFICIENT_STOCK unless negative stock is allowed).
 */
export async function createMovementInTrx(trx: Db, actor: Actor | null, input: MovementInput, now: Date): Promise<MovementRow> {
  const quantity = checkQuantity(input.quantity)
  const problem = movementSidesProblem(input.type, input.from_position_key, input.to_position_key)
  if (problem) throw badRequest('MOVEMENT_POSITIONS_INVALID', problem)
  const reason = (input.reason ?? '').trim()
  if (input.type === 'adjustment' && !reason) throw badRequest('MOVEMENT_REASON_REQUIRED', 'an adjustment needs a reason')
  if (cleanSerial(input.serial) && quantity > 1) throw invalidField({ path: 'quantity', kind: 'max_value', limit: 1, message: 'a serial is one piece: quantity at most 1' })
  return underSavepoint(trx, async (trx) => {
    const product = isUuid(input.product_key) ? await trx.selectFrom('products').select(['id', 'code']).where('id', '=', input.product_key).executeTakeFirst() : undefined
    if (!product) throw unprocessable('UNKNOWN_PRODUCT', 'product not found')
    const from = await activePosition(trx, input.from_position_key, 'origin')
    const to = await activePosition(trx, input.to_position_key, 'destination')
    if (input.work_order_key && !(await trx.selectFrom('work_orders').select('id').where('id', '=', input.work_order_key).executeTakeFirst())) {
      throw unprocessable('NOT_FOUND', 'work order not found', { field: 'work_order_key' })
    }
    if (input.batch_key && !(await trx.selectFrom('batches').select('id').where('id', '=', input.batch_key).executeTakeFirst())) {
      throw unprocessable('NOT_FOUND', 'batch not found', { field: 'batch_key' })
    }
    const values = {
      product_id: product.id,
      serial: cleanSerial(input.serial),
      owned: input.owned ?? true,
      from_position_id: from?.id ?? null,
      to_position_id: to?.id ?? null,
      type: input.type,
      status: 'planned' as const,
      planned_quantity: quantity,
      reason,
      started_at: now,
      created_by: actor?.userId ?? null,
      work_order_id: input.work_order_key ?? null,
      batch_id: input.batch_key ?? null,
      origin_type: input.origin_type?.trim() || null,
      origin_key: input.origin_key?.trim() || null,
      created_at: now,
    }
    const { id } = await trx
      .insertInto('movements')
      .values({ ...values, number: await drawNumber(trx, 'movement') })
      .returning('id')
      .executeTakeFirstOrThrow()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'MOVEMENT_CREATED',
        subject_type: 'movement',
        subject_key: id,
        data: { type: input.type, product_key: product.id, from_position_key: values.from_position_id, to_position_key: values.to_position_id, quantity, serial: values.serial || null },
      },
      now,
    )
    if (input.confirm !== false) {
      const codes = Object.fromEntries([from, to].flatMap((p) => (p ? [[p.id, p.code]] : [])))
      await confirmLocked(trx, actor, { id, ...values }, quantity, now, codes)
    }
    return movementRow(trx, id)
  })
}

async function lockMovement(trx: Db, key: string) {
  if (!isUuid(key)) throw movementNotFound()
  const m = await trx.selectFrom('movements').selectAll().where('id', '=', key).forUpdate().executeTakeFirst()
  if (!m) throw movementNotFound()
  return m as typeof m & Pick<MovementsTable, never>
}

async function positionCodes(trx: Db, ids: (string | null)[]): Promise<Record<string, string>> {
  const keys = ids.filter((x): x is string => Boolean(x))
  if (keys.length === 0) return {}
  const rows = await trx.selectFrom('positions').select(['id', 'code', 'active']).where('id', 'in', keys).execute()
  return Object.fromEntries(rows.map((r) => [r.id, r.code]))
}

/** Confirms a planned movement (with the quantity actually moved, default the planned one). */
export async function confirmMovementInTrx(trx: Db, actor: Actor | null, key: string, quantity: number | undefined, now: Date): Promise<MovementRow> {
  if (quantity !== undefined) checkQuantity(quantity)
  return underSavepoint(trx, async (trx) => {
    const m = await lockMovement(trx, key)
    if (m.status !== 'planned') throw conflict('MOVEMENT_NOT_PLANNED', `movement ${m.number} is ${m.status}, not planned`)
    await activePosition(trx, m.from_position_id, 'origin')
    await activePosition(trx, m.to_position_id, 'destination')
    const codes = await positionCodes(trx, [m.from_position_id, m.to_position_id])
    await confirmLocked(trx, actor, m, quantity ?? Number(m.planned_quantity), now, codes)
    await settled(trx, actor, m, 'confirmed', now)
    return movementRow(trx, m.id)
  })
}

/** Cancels a planned movement (nothing moved). */
export async function cancelMovementInTrx(trx: Db, actor: Actor | null, key: string, now: Date): Promise<MovementRow> {
  return underSavepoint(trx, async (trx) => {
    const m = await lockMovement(trx, key)
    if (m.status !== 'planned') throw conflict('MOVEMENT_NOT_PLANNED', `movement ${m.number} is ${m.status}, not planned`)
    await trx.updateTable('movements').set({ status: 'cancelled', ended_at: now }).where('id', '=', m.id).execute()
    await appendEvent(trx, actor, { event_type: 'MOVEMENT_CANCELLED', subject_type: 'movement', subject_key: m.id }, now)
    await settled(trx, actor, m, 'cancelled', now)
    return movementRow(trx, m.id)
  })
}

/**
 * Reverts a confirmed movement (SPEC 4): writes the opposite movement (same product, serial and
 * quantity, from and to swapped), confirmed at once, and marks the original as reverted by it with
 * the reason. When the stock has already left the original destination (and negative stock is not
 * allowed): 409 MOVEMENT_REVERT_ERROR, nothing written.
 */
export async function revertMovementInTrx(
  trx: Db,
  actor: Actor | null,
  key: string,
  reasonText: string,
  now: Date,
  signature: ActionSignature | null = null,
): Promise<{ original: MovementRow; revert: MovementRow }> {
  const reason = (reasonText ?? '').trim()
  if (!reason) throw badRequest('MOVEMENT_REASON_REQUIRED', 'a revert needs a reason')
  return underSavepoint(trx, async (trx) => {
    const m = await lockMovement(trx, key)
    if (m.status !== 'confirmed') throw conflict('MOVEMENT_NOT_CONFIRMED', `movement ${m.number} is ${m.status}: only a confirmed movement can be reverted`)
    if (m.reverted_by_id) throw conflict('MOVEMENT_ALREADY_REVERTED', `movement ${m.number} is already reverted`)
    await activePosition(trx, m.from_position_id, 'destination')
    const codes = await positionCodes(trx, [m.from_position_id, m.to_position_id])
    const quantity = Number(m.confirmed_quantity)
    const values = {
      product_id: m.product_id,
      serial: m.serial,
      owned: m.owned,
      from_position_id: m.to_position_id,
      to_position_id: m.from_position_id,
      type: m.type,
      status: 'planned' as const,
      planned_quantity: quantity,
      reason,
      started_at: now,
      created_by: actor?.userId ?? null,
      reverts_id: m.id,
      work_order_id: m.work_order_id,
      batch_id: m.batch_id,
      origin_type: m.origin_type,
      origin_key: m.origin_key,
      created_at: now,
    }
    const { id } = await trx
      .insertInto('movements')
      .values({ ...values, number: await drawNumber(trx, 'movement') })
      .returning('id')
      .executeTakeFirstOrThrow()
    try {
      await confirmLocked(trx, actor, { id, ...values }, quantity, now, codes)
    } catch (e) {
      if (e instanceof AppError && e.appCode === 'INSUFFICIENT_STOCK') {
        throw conflict('MOVEMENT_REVERT_ERROR', `movement ${m.number} cannot be reverted: ${e.message}`, { ...e.extra })
      }
      throw e
    }
    await trx.updateTable('movements').set({ reverted_by_id: id, revert_reason: reason }).where('id', '=', m.id).execute()
    const eventId = await appendEvent(trx, actor, { event_type: 'MOVEMENT_REVERTED', subject_type: 'movement', subject_key: m.id, data: { reason, revert_key: id } }, now)
    if (signature && actor) {
      const subject = { type: 'movement_revert', key: correctionSubject(m.id, eventId), workOrderId: m.work_order_id, event: { subject_type: 'movement', subject_key: m.id } } as const
      await signRecord(trx, actor, signature, subject, now)
    }
    return { original: await movementRow(trx, m.id), revert: await movementRow(trx, id) }
  })
}

// ---------------------------------------------------------------------------------------------
// Own transactions (tRPC and REST)

export function createMovement(svc: Services, actor: Actor, input: MovementInput): Promise<MovementRow> {
  const now = svc.clock.now()
  return inOwnTransaction(svc.db, (trx) => createMovementInTrx(trx, actor, input, now))
}
export function confirmMovement(svc: Services, actor: Actor, key: string, quantity?: number): Promise<MovementRow> {
  const now = svc.clock.now()
  return inOwnTransaction(svc.db, (trx) => confirmMovementInTrx(trx, actor, key, quantity, now))
}
export function cancelMovement(svc: Services, actor: Actor, key: string): Promise<MovementRow> {
  const now = svc.clock.now()
  return inOwnTransaction(svc.db, (trx) => cancelMovementInTrx(trx, actor, key, now))
}
/** Signed when the settings require it: the signature is checked before the transaction. */
export async function revertMovement(svc: Services, actor: Actor, key: string, reason: string, signatureInput?: SignatureInput, ip: string | null = null) {
  const signature = await actionSignature(svc, actor, 'movement_revert', signatureInput, ip)
  const now = svc.clock.now()
  return inOwnTransaction(svc.db, (trx) => revertMovementInTrx(trx, actor, key, reason, now, signature))
}
