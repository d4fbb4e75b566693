/**
 * Creating a work order: the work order itself, its phases and one job per phase, in one
 * transaction (also inside an import's transaction).
 */
import { toDbDate, type WorkOrderCreateInput, type WorkOrderDetail } from '../../../src/domains/work-orders/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { drawNumber } from '../../db/numbering'
import { badRequest, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { readSettings } from '../settings/queries'
import { readDetail } from './detail'
import { latestRevisionRef, phaseLineages, revisionPhases, stepSequence } from './revision'
import { assertDates, assertOperators, formatWorkOrderCode, SUBJECT, todayOf } from './shared'

/**
 * `POST work-order`: product active, not in the trash, with a released revision (422
 * PRODUCT_NOT_RELEASED; WORK_ORDER_PRODUCT_NO_PROCESS without even a draft process); quantity > 0;
 * due_by not before start_from. The work order runs on the latest revision, its jobs on that revision's phases. In one transaction: the work order (code WO000123, at the end of the site
 * queue), one work_order_phases row per phase (phase 1 released_in_qt = the whole quantity) and
 * one job per phase with the whole quantity and the phase's steps; event WORK_ORDER_CREATED.
 */
export async function createWorkOrder(svc: Services, actor: Actor, input: WorkOrderCreateInput): Promise<WorkOrderDetail> {
  assertDates(input.start_from ?? null, input.due_by ?? null)
  const now = svc.clock.now()
  const today = todayOf(svc)
  // Inside a caller's transaction (an import: all rows or none) it runs in that transaction.
  const inTransaction = <T>(fn: (trx: Db) => Promise<T>) => (svc.db.isTransaction ? fn(svc.db) : svc.db.transaction().execute(fn))
  const id = await inTransaction(async (trx) => {
    // FOR SHARE: a process change on this product waits until the work order holds its phases.
    const product = await trx
      .selectFrom('products')
      .select(['id', 'code', 'active', 'trashed_at'])
      .where('id', '=', input.product_key)
      .forShare()
      .executeTakeFirst()
    if (!product) throw badRequest('UNKNOWN_PRODUCT', 'product not found')
    if (!product.active || product.trashed_at) throw unprocessable('WORK_ORDER_PRODUCT_INACTIVE', 'the product is not active or is in the trash')
    const revision = await latestRevisionRef(trx, product.id)
    if (!revision) {
      const draft = await trx.selectFrom('product_phases').select('id').where('product_id', '=', product.id).where('revision_id', 'is', null).limit(1).execute()
      if (draft.length === 0) throw unprocessable('WORK_ORDER_PRODUCT_NO_PROCESS', 'the product has no process: add at least one phase')
      throw unprocessable('PRODUCT_NOT_RELEASED', `product ${product.code} has no released revision: release its process in the library first`)
    }
    const phases = await revisionPhases(trx, revision.id)

    // Who runs each phase's job.
    const perPhase = new Map<string, string>()
    // A phase is named by its key in the revision or in any other revision or the draft (its lineage).
    const lineages = await phaseLineages(trx, product.id, (input.phase_operators ?? []).map((po) => po.phase_key))
    for (const po of input.phase_operators ?? []) {
      const phase = phases.find((p) => p.lineage === lineages.get(po.phase_key))
      if (!phase) throw badRequest('UNKNOWN_PHASE', 'phase_operators names a phase of another product', { phase_key: po.phase_key })
      if (perPhase.has(phase.id)) throw invalidField({ path: 'phase_operators', kind: 'duplicate', message: 'a phase is repeated' }, { phase_key: po.phase_key })
      perPhase.set(phase.id, po.operator_key)
    }
    const operators = phases.map((p) => perPhase.get(p.id) ?? input.operator_key ?? null)
    await assertOperators(trx, operators.filter((o): o is string => o !== null))
    const { allow_unassigned_jobs } = await readSettings(trx)
    const missing = phases.findIndex((_, i) => operators[i] === null)
    if (!allow_unassigned_jobs && missing >= 0) {
      const phase = phases[missing]!
      throw unprocessable('OPERATOR_REQUIRED', `unassigned jobs are not allowed: choose an operator for phase ${missing + 1} (${phase.name})`, {
        phase_key: phase.id,
        phase_name: phase.name,
        position: missing + 1,
      })
    }

    const code = formatWorkOrderCode(await drawNumber(trx, 'work_order_code'))
    const { id } = await trx
      .insertInto('work_orders')
      .values({
        code,
        product_id: product.id,
        planned_qt: input.quantity,
        line: input.line ?? '',
        start_from: toDbDate(input.start_from ?? null) ?? null,
        due_by: toDbDate(input.due_by ?? null) ?? null,
        // The day the work order was released to the shop floor.
        release_date: toDbDate(today)!,
        notes: input.notes ?? '',
        revision_id: revision.id,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('work_order_phases')
      .values(phases.map((p, i) => ({ work_order_id: id, phase_id: p.id, position: i + 1, released_in_qt: i === 0 ? input.quantity : 0 })))
      .execute()
    const jobs = await trx
      .insertInto('jobs')
      .values(
        phases.map((p, i) => ({
          work_order_id: id,
          phase_id: p.id,
          position: i + 1,
          quantity: input.quantity,
          operator_id: operators[i],
          step_sequence: stepSequence(p.steps),
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(['id', 'phase_id', 'operator_id'])
      .execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: 'WORK_ORDER_CREATED',
        subject_type: SUBJECT,
        subject_key: id,
        data: {
          code,
          product_key: product.id,
          product_code: product.code,
          quantity: input.quantity,
          start_from: input.start_from ?? null,
          due_by: input.due_by ?? null,
          line: input.line ?? '',
          revision: revision.number,
          jobs: jobs.map((j) => ({ job_key: j.id, phase_key: j.phase_id, operator_key: j.operator_id })),
        },
      },
      now,
    )
    return id
  })
  return readDetail(svc.db, id, today)
}
