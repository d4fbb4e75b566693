/**
 * The released revision a work order runs on (issue 21, docs/revisions.md): made from the
 * product's latest revision; moved to a newer one only while none of its jobs has started.
 */
import { sql } from 'kysely'
import type { Step } from '../../../src/domains/process/steps'
import type { WorkOrderDetail } from '../../../src/domains/work-orders/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { conflict } from '../../errors'
import { appendEvent } from '../events/service'
import { readDetail } from './detail'
import { lockWorkOrder } from './queries'
import { archivedRefusal, requireWorkOrderId, SUBJECT, todayOf, workOrderNotFound } from './shared'

/** The product's newest released revision (id and number), if any. */
export function latestRevisionRef(db: Db, productId: string) {
  return db.selectFrom('product_revisions').select(['id', 'number']).where('product_id', '=', productId).orderBy('number', 'desc').limit(1).executeTakeFirst()
}

/** A revision's phases in process order: the jobs of a work order on it are made from these. */
export function revisionPhases(db: Db, revisionId: string) {
  return db.selectFrom('product_phases').select(['id', 'name', 'steps', 'lineage']).where('revision_id', '=', revisionId).orderBy('position').orderBy('id').execute()
}

/** The lineage of each of these phase keys among the product's phases (draft or any revision). */
export async function phaseLineages(db: Db, productId: string, keys: readonly string[]): Promise<Map<string, string>> {
  const uuids = keys.filter((k) => /^[0-9a-f-]{36}$/i.test(k))
  if (uuids.length === 0) return new Map()
  const rows = await db.selectFrom('product_phases').select(['id', 'lineage']).where('product_id', '=', productId).where('id', 'in', uuids).execute()
  return new Map(rows.map((r) => [r.id, r.lineage]))
}

/** What a job keeps of its phase's steps: their keys and types in order. */
export const stepSequence = (steps: readonly Step[]) => JSON.stringify(steps.map((s) => ({ _key: s._key, type: s.type })))

/**
 * `POST work-order/{id}/revision`: a work order none of whose jobs has started (no batch, no
 * job out of the queue: 409 WORK_ORDER_STARTED) moves to the product's latest revision (409
 * REVISION_NOT_NEWER when it is already there). Each job follows its phase (by lineage) with the
 * new steps; the jobs of phases the revision removed go, a phase it added gets one unassigned job
 * with the whole quantity. Event WORK_ORDER_REVISION_CHANGED.
 */
export async function changeRevision(svc: Services, actor: Actor, key: string): Promise<WorkOrderDetail> {
  const id = await requireWorkOrderId(svc.db, key)
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const wo = await lockWorkOrder(trx, id)
    if (!wo) throw workOrderNotFound()
    if (wo.archived_at) throw archivedRefusal()
    const started = await trx
      .selectFrom('jobs as j')
      .select('j.id')
      .where('j.work_order_id', '=', id)
      .where((eb) => eb.or([eb('j.status', '<>', 'queued'), eb('j.started_at', 'is not', null), eb.exists(eb.selectFrom('batches as b').select('b.id').whereRef('b.job_id', '=', 'j.id'))]))
      .limit(1)
      .execute()
    if (wo.status !== 'active' || started.length) throw conflict('WORK_ORDER_STARTED', `work order ${wo.code} has started: it keeps its revision to the end`)
    const current = await trx.selectFrom('product_revisions').select(['id', 'number']).where('id', '=', sql<string>`(select revision_id from work_orders where id = ${id})`).executeTakeFirstOrThrow()
    const latest = (await latestRevisionRef(trx, wo.product_id))!
    if (latest.number <= current.number) throw conflict('REVISION_NOT_NEWER', `work order ${wo.code} is on revision ${current.number}, the latest`, { revision: current.number })

    const phases = await revisionPhases(trx, latest.id)
    const oldPhases = await trx
      .selectFrom('work_order_phases as wp')
      .innerJoin('product_phases as ph', 'ph.id', 'wp.phase_id')
      .select(['wp.phase_id', 'ph.lineage'])
      .where('wp.work_order_id', '=', id)
      .execute()
    const newByLineage = new Map(phases.map((p, i) => [p.lineage, { ...p, position: i + 1 }]))
    const oldByLineage = new Map(oldPhases.map((p) => [p.lineage, p.phase_id]))
    for (const old of oldPhases) {
      const next = newByLineage.get(old.lineage)
      if (!next) {
        await trx.deleteFrom('jobs').where('work_order_id', '=', id).where('phase_id', '=', old.phase_id).execute()
        await trx.deleteFrom('work_order_phases').where('work_order_id', '=', id).where('phase_id', '=', old.phase_id).execute()
        continue
      }
      await trx
        .updateTable('jobs')
        .set({ phase_id: next.id, position: next.position, step_sequence: stepSequence(next.steps), updated_at: now })
        .where('work_order_id', '=', id)
        .where('phase_id', '=', old.phase_id)
        .execute()
      await trx.updateTable('work_order_phases').set({ phase_id: next.id, position: next.position }).where('work_order_id', '=', id).where('phase_id', '=', old.phase_id).execute()
    }
    for (const p of newByLineage.values()) {
      if (oldByLineage.has(p.lineage)) continue
      await trx.insertInto('work_order_phases').values({ work_order_id: id, phase_id: p.id, position: p.position }).execute()
      await trx
        .insertInto('jobs')
        .values({ work_order_id: id, phase_id: p.id, position: p.position, quantity: wo.planned_qt, step_sequence: stepSequence(p.steps), created_at: now, updated_at: now })
        .execute()
    }
    // Nothing has started: the whole quantity waits at the (possibly new) first phase.
    await trx
      .updateTable('work_order_phases')
      .set({ released_in_qt: sql<number>`case when position = 1 then ${wo.planned_qt}::int else 0 end` })
      .where('work_order_id', '=', id)
      .execute()
    await trx.updateTable('work_orders').set({ revision_id: latest.id, updated_at: now }).where('id', '=', id).execute()
    await appendEvent(
      trx,
      actor,
      { event_type: 'WORK_ORDER_REVISION_CHANGED', subject_type: SUBJECT, subject_key: id, data: { code: wo.code, from: current.number, to: latest.number, revision_key: latest.id, changes: { revision: { from: current.number, to: latest.number } } } },
      now,
    )
  })
  return readDetail(svc.db, id, todayOf(svc))
}
