import type { CountInput, MovementRow } from '../../../src/domains/movements/schemas'
import { QUANTITY_DECIMALS } from '../../../src/domains/movements/schemas'
import { decimalCount } from '../../../src/i18n/number-text'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { lockNumbering } from '../../db/numbering'
import { badRequest, notFound, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { findPosition } from '../positions/service'
import { cleanSerial, createMovementInTrx, inOwnTransaction, underSavepoint } from './service'

/**
 * Counts a position (itself, not below it): each counted line is compared with the stock; every
 * difference becomes a confirmed adjustment movement with the reason (origin 'count'). Stock
 * lines not counted are taken as 0 unless `missing_are_zero` is false.
 */
export async function countPositionInTrx(trx: Db, actor: Actor | null, positionKey: string, input: CountInput, now: Date): Promise<{ position_key: string; movements: MovementRow[] }> {
  const reason = (input.reason ?? '').trim()
  if (!reason) throw badRequest('MOVEMENT_REASON_REQUIRED', 'an inventory count needs a reason')
  const seen = new Set<string>()
  input.lines.forEach((l, i) => {
    if (l.quantity !== 0 && decimalCount(l.quantity) > QUANTITY_DECIMALS) {
      throw invalidField({ path: `lines.${i}.quantity`, kind: 'max_decimals', limit: QUANTITY_DECIMALS, message: `at most ${QUANTITY_DECIMALS} decimals` })
    }
    const k = `${l.product_key}|${cleanSerial(l.serial)}|${l.owned ?? true}`
    if (seen.has(k)) throw invalidField({ path: `lines.${i}`, kind: 'duplicate', message: 'the same product, serial and owned flag is counted twice' })
    seen.add(k)
  })
  return underSavepoint(trx, async (trx) => {
    const pos = await findPosition(trx, positionKey)
    if (!pos) throw notFound('NOT_FOUND', 'position not found')
    if (!pos.active) throw unprocessable('POSITION_INACTIVE', `position ${pos.code} is deactivated`)
    const products = [...new Set(input.lines.map((l) => l.product_key))]
    if (products.length > 0) {
      const found = await trx.selectFrom('products').select('id').where('id', 'in', products).execute()
      if (found.length !== products.length) throw unprocessable('UNKNOWN_PRODUCT', 'product not found')
    }
    await lockNumbering(trx, 'movement')
    const stock = await trx.selectFrom('stock').selectAll().where('position_id', '=', pos.id).orderBy('product_id').orderBy('serial').orderBy('owned').forUpdate().execute()
    const current = new Map(stock.map((s) => [`${s.product_id}|${s.serial}|${s.owned}`, Number(s.quantity)]))
    const wanted = new Map<string, { product_id: string; serial: string; owned: boolean; quantity: number }>()
    for (const l of input.lines) {
      const line = { product_id: l.product_key, serial: cleanSerial(l.serial), owned: l.owned ?? true, quantity: l.quantity }
      wanted.set(`${line.product_id}|${line.serial}|${line.owned}`, line)
    }
    if (input.missing_are_zero !== false) {
      for (const s of stock) {
        const k = `${s.product_id}|${s.serial}|${s.owned}`
        if (!wanted.has(k) && Number(s.quantity) !== 0) wanted.set(k, { product_id: s.product_id, serial: s.serial, owned: s.owned, quantity: 0 })
      }
    }
    const countKey = crypto.randomUUID()
    const movements: MovementRow[] = []
    const diffs = [...wanted].map(([k, line]) => ({ line, diff: Math.round((line.quantity - (current.get(k) ?? 0)) * 10 ** QUANTITY_DECIMALS) / 10 ** QUANTITY_DECIMALS }))
    // What is found more first: a disposable position emptied by a decrease is deactivated at once.
    diffs.sort((a, b) => Number(b.diff > 0) - Number(a.diff > 0))
    for (const { line, diff } of diffs) {
      if (diff === 0) continue
      movements.push(
        await createMovementInTrx(
          trx,
          actor,
          {
            product_key: line.product_id,
            type: 'adjustment',
            from_position_key: diff < 0 ? pos.id : null,
            to_position_key: diff > 0 ? pos.id : null,
            quantity: Math.abs(diff),
            serial: line.serial || null,
            owned: line.owned,
            reason,
            origin_type: 'count',
            origin_key: countKey,
          },
          now,
        ),
      )
    }
    await appendEvent(
      trx,
      actor,
      { event_type: 'INVENTORY_COUNTED', subject_type: 'position', subject_key: pos.id, data: { reason, count_key: countKey, lines: input.lines.length, adjustments: movements.map((m) => m._key) } },
      now,
    )
    return { position_key: pos.id, movements }
  })
}

export function countPosition(svc: Services, actor: Actor, positionKey: string, input: CountInput) {
  const now = svc.clock.now()
  return inOwnTransaction(svc.db, (trx) => countPositionInTrx(trx, actor, positionKey, input, now))
}
