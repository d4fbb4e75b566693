/**
 * The serials of a batch as the operator declares them (traceability complete): where the batch
 * is for the serials domain (serials/batch-serials.ts does the declaring), which step needs them
 * declared, and `GET batch/{key}/serials` / `PUT batch/{key}/serial-temp-links`.
 */
import type { BatchSerials, SaveSerialTempLinksInput } from '../../../src/domains/execution/schemas'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { appendEvent } from '../events/service'
import { type BatchPlace, readBatchSerials, saveBatchSerials } from '../serials/batch-serials'
import { lockForStep } from './client-time'
import { idempotent } from './idempotency'
import type { JobRow } from './queries'
import { isFirstBatch, jobEvent, readableBatchJob, type Svc } from './shared'

/** The step whose completion needs the batch's serials declared (traceability complete): the last one. */
export const serialStepKey = (steps: readonly { step_key: string; position: number }[]): string | null =>
  steps.reduce<{ step_key: string; position: number } | null>((last, s) => (!last || s.position > last.position ? s : last), null)?.step_key ?? null

/** Where a batch is, for the serials service. */
export async function batchSerialPlace(db: Db, job: Pick<JobRow, 'id' | 'work_order_id' | 'phase_id'>, batch: { id: string; qt_total: number }): Promise<BatchPlace> {
  const first_batch = await isFirstBatch(db, job.id, batch.id)
  return { batch_id: batch.id, qt_total: batch.qt_total, job_id: job.id, work_order_id: job.work_order_id, phase_id: job.phase_id, first_batch }
}

/** `GET batch/{key}/serials`: the batch's pieces with the serials declared in them (temporary until the batch completes). */
export async function getBatchSerials(svc: Svc, actor: Actor, batchKey: string): Promise<BatchSerials> {
  const job = await readableBatchJob(svc, actor, batchKey)
  return readSerialsOf(svc.db, job, batchKey)
}

async function readSerialsOf(db: Db, job: Pick<JobRow, 'id' | 'work_order_id' | 'phase_id'>, batchKey: string): Promise<BatchSerials> {
  const batch = await db.selectFrom('batches').select(['id', 'qt_total']).where('id', '=', batchKey).executeTakeFirstOrThrow()
  const steps = await db.selectFrom('batch_steps').select(['step_key', 'position']).where('batch_id', '=', batchKey).execute()
  return readBatchSerials(db, await batchSerialPlace(db, job, batch), serialStepKey(steps))
}

/**
 * `PUT batch/{key}/serial-temp-links`: the job's operator, while the job runs and the batch is
 * open, declares the serials of pieces of the batch (serials service: saveBatchSerials). One
 * idempotent transaction (a retry, or a declaration kept offline sent twice, answers the first
 * outcome): a refusal writes nothing. SERIAL_TEMP_LINKS_SAVED on the job, with the client time
 * of a declaration made offline.
 */
export async function saveSerialTempLinks(svc: Svc, actor: Actor, input: SaveSerialTempLinksInput): Promise<BatchSerials> {
  return idempotent(svc, actor, `serial-temp-links:${input.batch_key}`, input.idempotency_key, async (trx, now) => {
    const { job, batch, clientTime } = await lockForStep(trx, actor, input.batch_key, { material: false, clientTime: input.client_time, now })
    await saveBatchSerials(trx, actor, await batchSerialPlace(trx, job, batch), input.pieces, now)
    await appendEvent(trx, actor, jobEvent(job, 'SERIAL_TEMP_LINKS_SAVED', { batch_key: batch.id, pieces: input.pieces.map((p) => p.piece), ...clientTime }), now)
    return readSerialsOf(trx, job, batch.id)
  })
}
