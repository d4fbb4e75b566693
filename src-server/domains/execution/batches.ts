/**
 * Batches: completing one (by hand, or through its last step: finishBatch, with progress,
 * consumption, release downstream, stock and the next batch or the job's close) and reading one
 * (the batch, the components it consumes).
 */
import { batchConsumption, nextBatchQt } from '../../../src/domains/execution/rules'
import type { Batch, CompleteBatchInput, CompletedBatch, ComponentBatch, Consumption, ExecutionOutcome, FormDataEntry } from '../../../src/domains/execution/schemas'
import { releaseDue } from '../../../src/domains/jobs/rules'
import { signatureOf } from '../../../src/domains/process/steps'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, unprocessable } from '../../errors'
import { invalidField } from '../../input-issues'
import { appendEvent } from '../events/service'
import { moveStockForCompletedBatch } from '../production-stock/service'
import { assertBatchSerialsDeclared } from '../serials/batch-serials'
import { finalizeBatchSerials } from '../serials/service'
import { refreshWorkOrderProgress } from '../work-orders/progress'
import { batchSerialPlace } from './batch-serials'
import { factTime, lockForStep } from './client-time'
import { idempotent } from './idempotency'
import { outcome } from './job-state'
import { type JobRow, type MaterialRow, type PhaseInfo, phaseBomLines, readBatch } from './queries'
import { addMaterial, isFirstBatch, jobEvent, readableBatchJob, stopWork, type Svc, updateJob } from './shared'
import { openBatch } from './start-pause'
import { mandatoryMissing, missingMandatory, stepFieldsOf } from './step-fields'

/** Releases `qt` finished pieces downstream: this phase's released_out, the next phase's released_in, the job's released. */
async function release(db: Db, job: JobRow, own: MaterialRow, next: MaterialRow | undefined, qt: number, now: Date) {
  if (qt <= 0) return { job, own, next }
  const updatedJob = await updateJob(db, job.id, { released_qt: job.released_qt + qt }, now)
  const updatedOwn = await addMaterial(db, own, { released_out_qt: qt })
  const updatedNext = next ? await addMaterial(db, next, { released_in_qt: qt }) : undefined
  return { job: updatedJob, own: updatedOwn, next: updatedNext }
}

/**
 * Completes the job's open batch (every step done): progress, consumption per bom, release per
 * style, work order progress (last phase), then the job closes, or the next batch opens
 * (auto_new_batch), or the operator is told what comes next. A completion made offline is dated
 * when it was made (`completed_at`, so the daily rollup counts it where it was worked); one that
 * reached a job paused for silence meanwhile (issue 24) opens no batch: the job stays paused and
 * its resume opens the next one, as for any paused job without an open batch.
 */
export async function finishBatch(
  db: Db,
  actor: Actor,
  job: JobRow,
  phase: PhaseInfo,
  material: [MaterialRow, MaterialRow | undefined],
  batchId: string,
  qtTotal: number,
  now: Date,
  stepsCompletedWithBatch: string[],
  scrappedQt = 0,
  clientTime: { client_time?: number } = {},
): Promise<ExecutionOutcome> {
  let [own, next] = material
  // Traceability (level complete): every piece declared; the batch's serials and links turn final.
  const serialPlace = await batchSerialPlace(db, job, { id: batchId, qt_total: qtTotal })
  await assertBatchSerialsDeclared(db, serialPlace)
  await db.updateTable('batches').set({ status: 'completed', completed_by: actor.userId, completed_at: factTime(clientTime, now), scrapped_qt: scrappedQt }).where('id', '=', batchId).execute()
  await finalizeBatchSerials(db, actor, batchId, now)
  const { n: earlier } = await db
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', job.id)
    .where('status', '=', 'completed')
    .where('id', '<>', batchId)
    .executeTakeFirstOrThrow()
  const lines = await phaseBomLines(db, phase.id)
  const consumed: Consumption[] = lines
    .map((l) => ({ item_key: l.item_key, item_code: l.item_code, quantity_per: l.quantity_per, quantity: batchConsumption(l, qtTotal, Number(earlier) === 0) }))
    .filter((c) => c.quantity > 0)

  job = await updateJob(db, job.id, { completed_qt: job.completed_qt + qtTotal, active_qt: job.active_qt - qtTotal, active_batch_id: null }, now)
  own = await addMaterial(db, own, { completed_qt: qtTotal })
  const closing = job.completed_qt >= job.quantity
  const params = phase.parameters
  const releasedQt = releaseDue(params, { completed_qt: job.completed_qt, released_qt: job.released_qt, closed: closing })
  ;({ job, own, next } = await release(db, job, own, next, releasedQt, now))
  await appendEvent(
    db,
    actor,
    jobEvent(job, 'BATCH_COMPLETED', {
      batch_key: batchId,
      qt_total: qtTotal,
      consumed,
      released_qt: releasedQt,
      release_style: params.release_style,
      steps_completed_with_batch: stepsCompletedWithBatch,
      scrapped_qt: scrappedQt,
      job_completed_qt: job.completed_qt,
      ...clientTime,
    }),
    now,
  )
  // Stock follows production (inventory management on): consumption and finished goods, same transaction.
  await moveStockForCompletedBatch(db, actor, { batchId, workOrderId: job.work_order_id, goodQt: qtTotal - scrappedQt, consumed, lastPhase: !next }, now)
  // The last phase's completions are the work order's progress (the work order row is locked first).
  if (!next) await refreshWorkOrderProgress(db, job.work_order_id, { actor, now })
  const completed: CompletedBatch = { _key: batchId, qt_total: qtTotal, consumed, released_qt: releasedQt }

  if (closing) {
    await appendEvent(db, actor, jobEvent(job, 'ACTIVE_BATCH_CHANGED', { batch_key: null, previous_batch_key: batchId }), now)
    job = await stopWork(db, actor, job, now, { status: 'closed', endReason: 'closed', event: 'JOB_CLOSED', data: { completed_qt: job.completed_qt, released_qt: job.released_qt } })
    return outcome(db, job, own, 'job_closed', completed)
  }
  const canOpen = nextBatchQt(params.production_batch_qt, job, own) > 0
  if (canOpen && params.auto_new_batch && job.active) {
    ;({ job, material: own } = await openBatch(db, actor, job, phase, own, now, batchId))
    return outcome(db, job, own, 'batch_opened', completed)
  }
  await appendEvent(db, actor, jobEvent(job, 'ACTIVE_BATCH_CHANGED', { batch_key: null, previous_batch_key: batchId }), now)
  return outcome(db, job, own, !job.active ? 'paused' : canOpen ? 'await_new_batch' : 'no_material', completed)
}

/**
 * Completes the whole batch: with step_check false the steps need no confirmation and complete
 * with the batch (mandatory fields must still be filled); with step_check true every step must
 * be done first (409 STEPS_NOT_DONE).
 */
export async function completeBatch(svc: Svc, actor: Actor, input: CompleteBatchInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `complete-batch:${input.batch_key}`, input.idempotency_key, async (trx, now) => {
    const { material, job, batch, steps, phase, clientTime } = await lockForStep(trx, actor, input.batch_key, { material: true, clientTime: input.client_time, now })
    const pending = steps.filter((s) => !s.done)
    if (phase.parameters.step_check && pending.length) {
      throw conflict('STEPS_NOT_DONE', `complete every step first: ${pending.map((s) => s.step_key).join(', ')}`, { pending: pending.map((s) => s.step_key) })
    }
    const missing = []
    const fieldsOf = await stepFieldsOf(trx, phase, pending.map((s) => s.step_key))
    for (const s of pending) {
      const m = missingMandatory(fieldsOf.get(s.step_key)!, s.form_data as FormDataEntry[])
      if (m.length) missing.push({ step_key: s.step_key, fields: m })
    }
    if (missing.length) throw mandatoryMissing(missing)
    // A step that must be signed is completed on its own, with its signature dialog.
    const unsigned = pending.filter((s) => signatureOf(phase.steps.find((d) => d._key === s.step_key) ?? {}))
    if (unsigned.length) {
      throw unprocessable('SIGNATURE_REQUIRED', `these steps must be signed one by one: ${unsigned.map((s) => s.step_key).join(', ')}`, {
        pending: unsigned.map((s) => s.step_key),
      })
    }
    if ((input.scrapped_qt ?? 0) > batch.qt_total) {
      throw invalidField({ path: 'scrapped_qt', kind: 'max_value', limit: batch.qt_total, message: `at most the batch's ${batch.qt_total} pieces` })
    }
    if (pending.length) {
      await trx
        .updateTable('batch_steps')
        .set({ done: true, done_by: actor.userId, done_at: factTime(clientTime, now), updated_at: now })
        .where('batch_id', '=', batch.id)
        .where('done', '=', false)
        .execute()
    }
    return finishBatch(
      trx,
      actor,
      job,
      phase,
      material,
      batch.id,
      batch.qt_total,
      now,
      pending.map((s) => s.step_key),
      input.scrapped_qt ?? 0,
      clientTime,
    )
  })
}

/** `GET batch/{key}`. */
export async function getBatch(svc: Svc, actor: Actor, batchKey: string): Promise<Batch> {
  await readableBatchJob(svc, actor, batchKey)
  return (await readBatch(svc.db, batchKey))!
}

/** `GET component-batch?batch_key=`: the phase's components with the quantities this batch consumes. */
export async function componentBatch(svc: Svc, actor: Actor, batchKey: string): Promise<ComponentBatch> {
  const job = await readableBatchJob(svc, actor, batchKey)
  const batch = await svc.db.selectFrom('batches').select(['id', 'qt_total']).where('id', '=', batchKey).executeTakeFirstOrThrow()
  const first = await isFirstBatch(svc.db, job.id, batch.id)
  const lines = await phaseBomLines(svc.db, job.phase_id)
  return {
    batch_key: batch.id,
    phase_key: job.phase_id,
    qt_total: batch.qt_total,
    components: lines.map((l) => ({ ...l, batch_quantity: batchConsumption(l, batch.qt_total, first) })),
  }
}
