import type { FormDataEntry } from '../../../src/domains/execution/schemas'
import type { Actor, Services } from '../../context'
import { AppError } from '../../errors'
import { completeBatch } from '../../domains/execution/batches'
import { pauseJob, startJobs } from '../../domains/execution/start-pause'
import { completeStep, saveStep } from '../../domains/execution/steps'

/**
 * Past work on the demo floor, played through the execution service with the clock set back:
 * every piece a job list shows was made by a completed batch in a work session, so the job
 * lists, the work order history, the daily rollup of the reports and OEE read the same pieces.
 */

/** One stretch of work by one operator on one job. */
export type Shift = {
  job: string
  by: Actor
  /** When the operator starts (or resumes) the job. */
  at: Date
  /** Batches to complete (fewer when the material runs out). */
  batches: number
  /** Run time over standard time: 1.15 means 15 % slower than the standard (performance 87 %). */
  slowness?: number
  /** A pause of this many minutes in the middle of every other batch (availability). */
  pauseMinutes?: number
  /** Scrap per completed batch, in order (only on phases without step checks). */
  scrap?: number[]
  /** Called with the open batch and its completion time before it completes (serials to declare). */
  beforeComplete?: (svc: Services, batchKey: string) => Promise<void>
}

const MINUTE = 60_000
const key = () => crypto.randomUUID()
/** The services with the clock at a moment in the past (every service stamps with svc.clock). */
export const at = (svc: Services, when: Date): Services => ({ ...svc, clock: { now: () => when } })

/** A value a demo form field accepts, as an operator would type it. */
function answer(field: { type: string; options: string[]; multiple: boolean; name: string }, when: Date): unknown {
  const one = (() => {
    switch (field.type) {
      case 'number':
        return field.name.includes('Coppia') ? 12 : 1
      case 'boolean':
        return true
      case 'ternary':
        return 'true'
      case 'choice':
        return field.options[0]
      case 'date':
        return when.toISOString().slice(0, 10)
      case 'time':
        return `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`
      case 'text':
        return `L-${when.toISOString().slice(2, 10).replaceAll('-', '')}`
      default:
        return null
    }
  })()
  if (one === null) return null
  return field.multiple && field.type !== 'boolean' && field.type !== 'ternary' ? [one] : one
}

/** The form answers of a step (files fields left empty: the demo fields of that type are optional). */
async function stepAnswers(svc: Services, fieldKeys: readonly string[], when: Date): Promise<FormDataEntry[] | undefined> {
  if (fieldKeys.length === 0) return undefined
  const fields = await svc.db.selectFrom('form_fields').select(['id', 'type', 'options', 'multiple', 'name']).where('id', 'in', fieldKeys).execute()
  return fields.flatMap((f) => {
    const value = answer(f, when)
    return value === null ? [] : [{ field_key: f.id, value: value as never }]
  })
}

/**
 * Plays one shift: start (or resume), then each batch takes its pieces' standard time times the
 * slowness, with a pause in every other one, and completes step by step (or whole, with its
 * scrap, where the phase has no step checks); at the end the job closes by itself or is paused.
 * A job already closed or without material (a process other than the demo's) is left alone.
 * Returns when the shift ended.
 */
export async function playShift(svc: Services, shift: Shift): Promise<Date> {
  let t = shift.at
  try {
    await startJobs(at(svc, t), shift.by, { job_keys: [shift.job], idempotency_key: key() })
  } catch (e) {
    if (e instanceof AppError) return t
    throw e
  }
  for (let i = 0; i < shift.batches; i++) {
    const job = await svc.db
      .selectFrom('jobs as j')
      .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
      .select(['j.active_batch_id', 'j.status', 'ph.parameters', 'ph.steps'])
      .where('j.id', '=', shift.job)
      .executeTakeFirstOrThrow()
    if (!job.active_batch_id || job.status === 'closed') break
    const batch = await svc.db.selectFrom('batches').select(['id', 'qt_total']).where('id', '=', job.active_batch_id).executeTakeFirstOrThrow()
    const params = job.parameters as { std_processing_time: number; step_check: boolean }
    const runMs = Math.round(batch.qt_total * (params.std_processing_time || 60) * 1000 * (shift.slowness ?? 1.1))
    if (shift.pauseMinutes && i % 2 === 1) {
      t = new Date(t.getTime() + runMs / 2)
      await pauseJob(at(svc, t), shift.by, { job_key: shift.job, idempotency_key: key() })
      t = new Date(t.getTime() + shift.pauseMinutes * MINUTE)
      await startJobs(at(svc, t), shift.by, { job_keys: [shift.job], idempotency_key: key() })
      t = new Date(t.getTime() + runMs / 2)
    } else {
      t = new Date(t.getTime() + runMs)
    }
    if (shift.beforeComplete) await shift.beforeComplete(at(svc, t), batch.id)
    const steps = await svc.db.selectFrom('batch_steps').select(['step_key', 'done']).where('batch_id', '=', batch.id).orderBy('position').execute()
    const defs = job.steps as { _key: string; fields: string[] }[]
    if (params.step_check) {
      for (const [n, s] of steps.entries()) {
        if (s.done) continue
        // The steps a second apart, in order, the last one at the batch's end.
        const when = new Date(t.getTime() - (steps.length - 1 - n) * 1000)
        const form_data = await stepAnswers(svc, defs.find((d) => d._key === s.step_key)?.fields ?? [], when)
        await completeStep(at(svc, when), shift.by, { batch_key: batch.id, step_key: s.step_key, form_data, idempotency_key: key() })
      }
    } else {
      for (const s of steps) {
        const form_data = await stepAnswers(svc, defs.find((d) => d._key === s.step_key)?.fields ?? [], t)
        if (form_data?.length) await saveStep(at(svc, t), shift.by, { batch_key: batch.id, step_key: s.step_key, form_data, idempotency_key: key() })
      }
      await completeBatch(at(svc, t), shift.by, { batch_key: batch.id, scrapped_qt: shift.scrap?.[i] ?? 0, idempotency_key: key() })
    }
  }
  const after = await svc.db.selectFrom('jobs').select('active').where('id', '=', shift.job).executeTakeFirstOrThrow()
  if (after.active) await pauseJob(at(svc, t), shift.by, { job_key: shift.job, idempotency_key: key() })
  return t
}

/** A moment `days` plant days ago at hh:mm (server time zone, as the reports cut days). */
export function daysAgo(now: Date, days: number, hour: number, minute = 0): Date {
  const d = new Date(now)
  d.setDate(d.getDate() - days)
  d.setHours(hour, minute, 0, 0)
  return d
}
