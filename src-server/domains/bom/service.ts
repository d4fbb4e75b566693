import { BOM_QUANTITY_DECIMALS, type Bom, type BomInput, bomLineProblems } from '../../../src/domains/products/bom'
import { decimalCount } from '../../../src/i18n/number-text'
import { invalidInput } from '../../input-issues'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import { badRequest, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { type Changes, changesOf } from '../events/changes'
import { lockProduct, productNotFound } from '../products/service'
import { componentsLeadingBack, lockBoms, selectBomLines } from './queries'

/**
 * A product's bill of materials (SPEC 3 Bom line, 5): lines per phase of its process, each an
 * item (another product), a quantity per item / job / batch, the component's traceability
 * level and whether its serials must be declared. `PUT product/{key}/bom` sends every line; rules, each with its code:
 * - the phase is a phase of this product (422 UNKNOWN_PHASE);
 * - the quantity is positive as stored with 4 decimals (400 BOM_QUANTITY_NOT_POSITIVE);
 * - an item cannot repeat in a phase (400 BOM_ITEM_REPEATED);
 * - the item is a product (422 UNKNOWN_PRODUCT), active and not in the trash unless the bom
 *   already had it (422 BOM_ITEM_INACTIVE);
 * - the product cannot contain itself, directly or through its components (422 BOM_CYCLE);
 * - a product in the trash is read-only (409 PRODUCT_IN_TRASH).
 * Lines keep their key while their phase and item stay the same. One BOM_UPDATED event.
 */

/** `GET product/{key}/bom`: the lines in phase order, then in their order within the phase. */
export async function getBom(svc: Pick<Services, 'db'>, productKey: string): Promise<Bom> {
  const product = isUuid(productKey) ? await svc.db.selectFrom('products').select('id').where('id', '=', productKey).executeTakeFirst() : undefined
  if (!product) throw productNotFound()
  return { product_key: product.id, lines: await selectBomLines(svc.db).where('b.product_id', '=', product.id).where('b.revision_id', 'is', null).execute() }
}

const lineLabel = (index: number) => `line ${index + 1}`

/** A quantity with more decimals than the database keeps is refused, never rounded (a typed value is never changed silently). */
function assertStorableQuantities(input: BomInput) {
  const lines = input.lines.flatMap((l, index) => (decimalCount(l.quantity) > BOM_QUANTITY_DECIMALS ? [index] : []))
  if (lines.length === 0) return
  const message = `at most ${BOM_QUANTITY_DECIMALS} decimals`
  const issues = lines.map((index) => ({ path: `lines.${index}.quantity`, kind: 'max_decimals' as const, limit: BOM_QUANTITY_DECIMALS, message }))
  throw invalidInput(issues, { line: lines[0], lines })
}

export async function updateBom(svc: Services, actor: Actor, productKey: string, input: BomInput): Promise<Bom> {
  if (!isUuid(productKey)) throw productNotFound()
  assertStorableQuantities(input)
  const problems = bomLineProblems(input.lines)
  const first = problems[0]
  if (first) {
    const extra = { line: first.index, lines: problems.filter((p) => p.code === first.code).map((p) => p.index) }
    if (first.code === 'BOM_QUANTITY_NOT_POSITIVE') throw badRequest(first.code, `${lineLabel(first.index)}: quantity must be positive`, extra)
    throw badRequest(first.code, `${lineLabel(first.index)}: an item cannot repeat in a phase`, extra)
  }
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    await lockBoms(trx)
    const product = await lockProduct(trx, productKey)

    // The draft's phases: released revisions are frozen.
    const phases = new Set((await trx.selectFrom('product_phases').select('id').where('product_id', '=', product.id).where('revision_id', 'is', null).execute()).map((p) => p.id))
    const unknownPhases = [...new Set(input.lines.map((l) => l.phase_key).filter((k) => !phases.has(k)))]
    if (unknownPhases.length) {
      throw unprocessable('UNKNOWN_PHASE', `unknown phase of this product: ${unknownPhases.join(', ')}`, {
        phases: unknownPhases,
        line: input.lines.findIndex((l) => !phases.has(l.phase_key)),
      })
    }

    const self = input.lines.findIndex((l) => l.item_key === product.id)
    if (self >= 0) throw unprocessable('BOM_CYCLE', `${lineLabel(self)}: a product cannot be a component of itself`, { line: self, items: [product.id] })

    const itemKeys = [...new Set(input.lines.map((l) => l.item_key))]
    const items = itemKeys.length
      ? await trx.selectFrom('products').select(['id', 'code', 'active', 'trashed_at']).where('id', 'in', itemKeys).forShare().execute()
      : []
    const itemById = new Map(items.map((i) => [i.id, i]))
    const unknownItems = itemKeys.filter((k) => !itemById.has(k))
    if (unknownItems.length) {
      throw unprocessable('UNKNOWN_PRODUCT', `unknown product: ${unknownItems.join(', ')}`, {
        products: unknownItems,
        line: input.lines.findIndex((l) => !itemById.has(l.item_key)),
      })
    }

    const current = await trx
      .selectFrom('bom_lines')
      .select(['id', 'phase_id', 'item_id', 'position', 'quantity', 'quantity_per', 'traceability', 'declared_serials'])
      .where('product_id', '=', product.id)
      .where('revision_id', 'is', null)
      .execute()
    const hadItem = new Set(current.map((l) => l.item_id))
    const inactive = input.lines.findIndex((l) => {
      const item = itemById.get(l.item_key)!
      return !hadItem.has(item.id) && (!item.active || item.trashed_at !== null)
    })
    if (inactive >= 0) {
      const code = itemById.get(input.lines[inactive]!.item_key)!.code
      throw unprocessable('BOM_ITEM_INACTIVE', `${lineLabel(inactive)}: ${code} is not an active product`, { line: inactive })
    }

    const back = await componentsLeadingBack(trx, product.id, itemKeys)
    if (back.length) {
      const codes = back.map((k) => itemById.get(k)!.code)
      throw unprocessable('BOM_CYCLE', `the product would contain itself through its components (${codes.join(', ')})`, {
        items: back,
        line: input.lines.findIndex((l) => back.includes(l.item_key)),
      })
    }

    // Same phase and item: the same line (its key stays); the rest is added or removed.
    const pairKey = (phase: string, item: string) => `${phase}/${item}`
    const byPair = new Map(current.map((l) => [pairKey(l.phase_id, l.item_id), l]))
    const wanted = new Set(input.lines.map((l) => pairKey(l.phase_key, l.item_key)))
    const removed = current.filter((l) => !wanted.has(pairKey(l.phase_id, l.item_id)))
    const removedCodes = new Map(
      removed.length
        ? (await trx.selectFrom('products').select(['id', 'code']).where('id', 'in', removed.map((l) => l.item_id)).execute()).map((p) => [p.id, p.code])
        : [],
    )
    const code = (item: string) => itemById.get(item)?.code ?? removedCodes.get(item) ?? item
    const added: Record<string, unknown>[] = []
    const changed: Record<string, unknown>[] = []
    // Reordered: the lines that stay are not in the order they were.
    const keptBefore = current.filter((l) => wanted.has(pairKey(l.phase_id, l.item_id))).sort((a, b) => a.position - b.position).map((l) => l.id)
    const keptAfter = input.lines.flatMap((l) => byPair.get(pairKey(l.phase_key, l.item_key))?.id ?? [])
    const reordered = JSON.stringify(keptBefore) !== JSON.stringify(keptAfter)
    if (removed.length) await trx.deleteFrom('bom_lines').where('id', 'in', removed.map((l) => l.id)).execute()
    const inserts = []
    for (const [position, line] of input.lines.entries()) {
      const values = {
        quantity: line.quantity,
        quantity_per: line.quantity_per,
        traceability: line.traceability ?? 'none',
        declared_serials: line.declared_serials ?? false,
        position,
      }
      const old = byPair.get(pairKey(line.phase_key, line.item_key))
      const summary = { phase_key: line.phase_key, item_key: line.item_key, item_code: code(line.item_key), ...values }
      if (!old) {
        inserts.push({ product_id: product.id, phase_id: line.phase_key, item_id: line.item_key, ...values })
        added.push(summary)
        continue
      }
      const fields = (['quantity', 'quantity_per', 'traceability', 'declared_serials'] as const).filter((f) => old[f] !== values[f])
      if (fields.length === 0 && old.position === position) continue
      await trx.updateTable('bom_lines').set(values).where('id', '=', old.id).execute()
      if (fields.length) changed.push({ ...summary, changed: fields, changes: changesOf(old, values, fields) })
    }
    // One statement for the new lines (up to MAX_BOM_LINES rows of 8 parameters).
    if (inserts.length) await trx.insertInto('bom_lines').values(inserts).execute()
    if (added.length === 0 && removed.length === 0 && changed.length === 0 && !reordered) return
    await trx.updateTable('products').set({ updated_at: now }).where('id', '=', product.id).execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'BOM_UPDATED',
        subject_type: 'product',
        subject_key: product.id,
        data: {
          code: product.code,
          added,
          removed: removed.map((l) => ({ phase_key: l.phase_id, item_key: l.item_id, item_code: code(l.item_id), quantity: l.quantity })),
          changed,
          reordered,
          lines: input.lines.length,
          // Old and new values for the trail, `<item code>@<phase>.<field>`; a line added or removed as a whole.
          changes: {
            ...Object.fromEntries(removed.map((l) => [`${code(l.item_id)}@${l.phase_id}`, { from: { quantity: l.quantity }, to: null }])),
            ...Object.fromEntries(added.map((l) => [`${l.item_code}@${l.phase_key}`, { from: null, to: { quantity: l.quantity, quantity_per: l.quantity_per } }])),
            ...Object.fromEntries(
              changed.flatMap((l) => Object.entries(l.changes as Changes).map(([f, c]) => [`${l.item_code}@${l.phase_key}.${f}`, c])),
            ),
            ...(reordered ? { order: { from: keptBefore, to: keptAfter } } : {}),
          },
        },
      },
      now,
    )
  })
  return getBom(svc, productKey)
}
