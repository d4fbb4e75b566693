import type { ExecutionOutcome, FormDataEntry, WorkSessionView } from '../../src/domains/execution/schemas'
import type { QueuedWrite } from './writes'

/**
 * The work session as the operator left it: the server's last view with the writes still kept
 * on the device laid over it, in order, so the screen goes on from where the work is (steps
 * done, answers typed, the batch completed, the job paused). Each write only touches the batch it
 * names, so one the server already applied (the view read again before the queue emptied)
 * changes nothing twice.
 */
export function withPending(view: WorkSessionView, pending: readonly QueuedWrite[], receivedAt: number): WorkSessionView {
  let v = view
  for (const w of pending) {
    if (w.job_key !== view.job._key) continue
    if (w.kind === 'pause') {
      if (!v.job.active) continue
      // The timer stops where the operator paused: the time worked since the view was read counts.
      const worked = v.timer.session_started_at === null ? 0 : Math.max(0, w.made_at - receivedAt)
      v = {
        ...v,
        job: { ...v.job, active: false, status: 'paused' },
        timer: { ...v.timer, elapsed_ms: v.timer.elapsed_ms + worked, session_started_at: null },
        can: { ...v.can, pause: false, start: false, complete_batch: false, new_batch: false },
      }
      continue
    }
    // Serials declared offline change the batch's pieces, not the work session (serialsWithPending).
    if (w.kind === 'serial-links') continue
    const batch = v.batch
    if (!batch || batch._key !== w.input.batch_key) continue
    if (w.kind === 'complete-batch') {
      v = batchDone(v)
      continue
    }
    const form = w.input.form_data
    const steps = batch.step_data.map((s) => {
      if (s._key !== w.input.step_key) return s
      const answers: FormDataEntry[] = form ?? s.form_data
      return { ...s, form_data: answers, done: s.done || w.kind === 'complete-step' }
    })
    v = { ...v, batch: { ...batch, step_data: steps } }
    if (w.kind === 'complete-step' && steps.every((s) => s.done)) v = batchDone(v)
  }
  return v
}

/** The batch is finished on the device: no open batch until the server says what comes next. */
function batchDone(v: WorkSessionView): WorkSessionView {
  const qt = v.batch?.qt_total ?? 0
  return {
    ...v,
    job: { ...v.job, completed_qt: v.job.completed_qt + qt, active_qt: Math.max(0, v.job.active_qt - qt) },
    batch: null,
    can: { ...v.can, complete_batch: false, new_batch: false },
  }
}

/** The outcome a kept write has on the screen (the server's own comes when it is sent). */
export function keptOutcome(view: WorkSessionView): ExecutionOutcome {
  return {
    job: view.job,
    batch: view.batch,
    completed_batch: null,
    next: !view.job.active ? 'paused' : 'continue',
    can: view.can,
  }
}
