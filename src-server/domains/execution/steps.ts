/**
 * The steps of the open batch: saving a form step's answers and completing a step (the last one
 * completes the batch, batches.ts finishBatch).
 */
import { earlierStepsPending } from '../../../src/domains/execution/rules'
import type { CompleteStepInput, ExecutionOutcome, FormDataEntry, SaveStepInput } from '../../../src/domains/execution/schemas'
import { signatureOf } from '../../../src/domains/process/steps'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { conflict, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { isBatchStepSigned, signBatchStep } from '../signatures/service'
import { type Signer, verifiedSigners } from '../signatures/signers'
import { assertBatchSerialsDeclared } from '../serials/batch-serials'
import { batchSerialPlace, serialStepKey } from './batch-serials'
import { finishBatch } from './batches'
import { idempotent } from './idempotency'
import { outcome } from './job-state'
import { isUuid } from '../../../src/uuid'
import { batchPlace, type JobRow, lockBatchSteps, phaseInfo } from './queries'
import { jobEvent, type Svc } from './shared'
import { factTime, lockForStep } from './client-time'
import { checkedFormData, mandatoryMissing, missingMandatory, stepFields } from './step-fields'

type StepRow = Awaited<ReturnType<typeof lockBatchSteps>>[number]

function findStep(steps: StepRow[], stepKey: string): StepRow {
  const step = steps.find((s) => s.step_key === stepKey)
  if (!step) throw notFound('UNKNOWN_STEP', `no step ${stepKey} in this batch`)
  return step
}

async function writeFormData(db: Db, actor: Actor, job: JobRow, batchId: string, step: StepRow, formData: FormDataEntry[], now: Date, clientTime: { client_time?: number }) {
  const before = new Map((step.form_data as FormDataEntry[]).map((e) => [e.field_key, JSON.stringify(e.value)]))
  const after = new Map(formData.map((e) => [e.field_key, JSON.stringify(e.value)]))
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k))
  if (changed.length === 0) return
  await db
    .updateTable('batch_steps')
    .set({ form_data: JSON.stringify(formData), updated_at: now })
    .where('batch_id', '=', batchId)
    .where('step_key', '=', step.step_key)
    .execute()
  step.form_data = formData
  const value = (entries: Map<string, string>, key: string) => (entries.has(key) ? JSON.parse(entries.get(key)!) : null)
  const changes = Object.fromEntries(changed.map((k) => [k, { from: value(before, k), to: value(after, k) }]))
  await appendEvent(db, actor, jobEvent(job, 'STEP_EDITED', { batch_key: batchId, step_key: step.step_key, fields: changed, changes, ...clientTime }), now)
}

/** Saves (replaces) a form step's answers while the batch is open; a done step keeps its mandatory fields filled. */
export async function saveStep(svc: Svc, actor: Actor, input: SaveStepInput): Promise<ExecutionOutcome> {
  return idempotent(svc, actor, `save-step:${input.batch_key}:${input.step_key}`, input.idempotency_key, async (trx, now) => {
    const { material, job, batch, steps, phase, clientTime, late } = await lockForStep(trx, actor, input.batch_key, { material: false, clientTime: input.client_time, now })
    const step = findStep(steps, input.step_key)
    if (step.done && (await isBatchStepSigned(trx, batch.id, step.step_key))) {
      throw conflict('STEP_SIGNED', 'this step is signed: its values can no longer change', { step_key: step.step_key })
    }
    const fields = await stepFields(trx, phase, step.step_key)
    const formData = checkedFormData(fields, input.form_data)
    if (step.done) {
      const missing = missingMandatory(fields, formData)
      if (missing.length) throw mandatoryMissing([{ step_key: step.step_key, fields: missing }])
    }
    await writeFormData(trx, actor, job, batch.id, step, formData, now, clientTime)
    return outcome(trx, job, material[0], late ? 'paused' : 'continue')
  })
}

/**
 * The signers of a step whose definition requires a signature (null when it requires none),
 * checked before the completion's transaction: see signatures/signers.ts.
 */
async function stepSigners(svc: Svc, actor: Actor, input: CompleteStepInput, ip: string | null): Promise<Signer[] | null> {
  const place = isUuid(input.batch_key) ? await batchPlace(svc.db, input.batch_key) : undefined
  if (!place) return null
  const phase = await phaseInfo(svc.db, place.phase_id)
  const required = signatureOf(phase.steps.find((s) => s._key === input.step_key) ?? {})
  return required ? verifiedSigners(svc.db, actor, required, input.signature, ip, svc.clock.now()) : null
}

/**
 * Completes a step: not done yet (else 409 STEP_ALREADY_DONE, e.g. from another device), earlier
 * steps done where the order is forced, mandatory fields filled. A step whose definition requires
 * a signature is signed by the operator (and the second signer) in the same transaction. The
 * last step completes the batch.
 */
export async function completeStep(svc: Svc, actor: Actor, input: CompleteStepInput, ip: string | null = null): Promise<ExecutionOutcome> {
  const signers = await stepSigners(svc, actor, input, ip)
  return idempotent(svc, actor, `complete-step:${input.batch_key}:${input.step_key}`, input.idempotency_key, async (trx, now) => {
    const { material, job, batch, steps, phase, clientTime, late } = await lockForStep(trx, actor, input.batch_key, { material: true, clientTime: input.client_time, now })
    const step = findStep(steps, input.step_key)
    if (step.done) throw conflict('STEP_ALREADY_DONE', 'this step is already completed', { step_key: step.step_key })
    if (phase.parameters.step_check_force_order) {
      const pending = earlierStepsPending(
        steps.map((s) => ({ _key: s.step_key, position: s.position, done: s.done })),
        step.step_key,
      )
      if (pending.length) throw conflict('STEP_OUT_OF_ORDER', `complete the earlier steps first: ${pending.join(', ')}`, { pending })
    }
    const fields = await stepFields(trx, phase, step.step_key)
    if (input.form_data) await writeFormData(trx, actor, job, batch.id, step, checkedFormData(fields, input.form_data), now, clientTime)
    const missing = missingMandatory(fields, step.form_data as FormDataEntry[])
    if (missing.length) throw mandatoryMissing([{ step_key: step.step_key, fields: missing }])
    if (step.step_key === serialStepKey(steps)) await assertBatchSerialsDeclared(trx, await batchSerialPlace(trx, job, batch))
    await trx
      .updateTable('batch_steps')
      .set({ done: true, done_by: actor.userId, done_at: factTime(clientTime, now), updated_at: now })
      .where('batch_id', '=', batch.id)
      .where('step_key', '=', step.step_key)
      .execute()
    step.done = true
    await appendEvent(trx, actor, jobEvent(job, 'STEP_COMPLETED', { batch_key: batch.id, step_key: step.step_key, step_type: step.type, ...clientTime }), now)
    const required = signatureOf(phase.steps.find((s) => s._key === step.step_key) ?? {})
    if (required) {
      // The signers were checked against this same released (frozen) definition before the transaction.
      if (!signers) throw new Error('a step that requires a signature reached completion unsigned')
      const subject = { type: 'batch_step' as const, batchId: batch.id, stepKey: step.step_key, workOrderId: job.work_order_id, jobId: job.id, phaseId: job.phase_id }
      await signBatchStep(trx, actor, subject, required.meaning, signers, now)
    }
    if (steps.every((s) => s.done)) return finishBatch(trx, actor, job, phase, material, batch.id, batch.qt_total, now, [], 0, clientTime)
    return outcome(trx, job, material[0], late ? 'paused' : 'continue')
  })
}
