/**
 * The work session screen's one read (operator/job/:jobKey, `GET job/{key}/work-session`): job,
 * work order, product, phase, steps with their fields and media, open batch, material, timer,
 * the buttons the viewer may press and who stopped the job when it was not the viewer.
 */
import { hasScope } from '../../../src/auth/scopes'
import { expectedMs, nextBatchQt, workedMs } from '../../../src/domains/execution/rules'
import type { StepDefinition, WorkSessionView } from '../../../src/domains/execution/schemas'
import type { FieldType } from '../../../src/domains/form-fields/schemas'
import { isCritical } from '../../../src/domains/jobs/rules'
import { stepMediaUrl } from '../../../src/domains/process/media'
import { withPhaseDefaults } from '../../../src/domains/process/phase-parameters'
import { type Step, signatureOf } from '../../../src/domains/process/steps'
import { isUuid } from '../../../src/uuid'
import type { Actor } from '../../context'
import { readSettings } from '../settings/queries'
import { readInterruption, reassignedAway } from './interruption'
import { allowedActions, jobStateOf, runningElsewhere } from './job-state'
import { fieldDefinitions, type JobRow, mediaRows, openWorkSession, readBatch, workSessionHead } from './queries'
import { jobNotFound, mayRead, notYours, type Svc } from './shared'

/** Everything the work session screen (operator/job/:jobKey) needs, in one call. */
export async function workSession(svc: Svc, actor: Actor, jobKey: string): Promise<WorkSessionView> {
  const head = isUuid(jobKey) ? await workSessionHead(svc.db, jobKey) : undefined
  if (!head) throw jobNotFound()
  if (!mayRead(actor, head)) {
    // Taken away from this operator: the refusal says by whom and why (the screen shows it).
    const away = await reassignedAway(svc.db, head.id, actor.userId)
    throw notYours(away ? { interruption: away } : undefined)
  }
  const now = svc.clock.now()
  const parameters = withPhaseDefaults(head.phase_parameters)
  const material = { released_in_qt: head.released_in_qt, taken_qt: head.taken_qt }
  const job: JobRow = head
  const ws = job.active ? await openWorkSession(svc.db, job.id) : undefined
  const state = jobStateOf(job, material, ws?.id ?? null)
  const batch = job.active_batch_id ? ((await readBatch(svc.db, job.active_batch_id)) ?? null) : null

  const phaseSteps = new Map((head.phase_steps as Step[]).map((s) => [s._key, s]))
  const sequence = job.step_sequence.flatMap((s) => {
    const def = phaseSteps.get(s._key)
    return def ? [def] : []
  })
  const fields = new Map((await fieldDefinitions(svc.db, job.phase_id, [...new Set(sequence.flatMap((s) => s.fields))])).map((f) => [f._key, f]))
  const media = new Map((await mediaRows(svc.db, [...new Set(sequence.flatMap((s) => s.media))])).map((m) => [m._key, m]))
  const steps: StepDefinition[] = sequence.map((s) => ({
    _key: s._key,
    type: s.type,
    title: s.title,
    text: s.text,
    print_templates: s.print_templates,
    signature: signatureOf(s),
    media: s.media.flatMap((k) => {
      const m = media.get(k)
      return m ? [{ ...m, url: `/media/${m._key}`, step_url: stepMediaUrl(s._key, m.filename) }] : []
    }),
    fields: s.fields.flatMap((k) => {
      const f = fields.get(k)
      return f ? [{ ...f, type: f.type as FieldType }] : []
    }),
  }))

  const mine = job.operator_id === actor.userId
  const settings = await readSettings(svc.db)
  const mayTake = mine || (job.operator_id === null && settings.allow_unassigned_jobs && hasScope(actor.scope, 'operator'))
  const available = state.available_qt
  const newBatchQt = nextBatchQt(parameters.production_batch_qt, job, material)
  return {
    job: {
      ...state,
      notes: job.notes,
      // The job list's rule: open, and an open critical issue on the job or its work order.
      critical: isCritical({ status: job.status, critical: job.critical, work_order_critical: head.wo_critical }),
      started_at: job.started_at?.getTime() ?? null,
      closed_at: job.closed_at?.getTime() ?? null,
      last_heartbeat_at: job.last_heartbeat_at?.getTime() ?? null,
      batches_completed: head.batches_completed,
    },
    work_order: {
      _key: job.work_order_id,
      code: head.wo_code,
      planned_qt: head.wo_planned_qt,
      completed_qt: head.wo_completed_qt,
      status: head.wo_status,
      line: head.wo_line,
      notes: head.wo_notes,
      start_from: head.wo_start_from,
      due_by: head.wo_due_by,
      revision: { _key: head.wo_revision_key, number: head.wo_revision_number },
    },
    product: { _key: head.product_key, code: head.product_code, description: head.product_description },
    phase: {
      _key: job.phase_id,
      name: head.phase_name,
      position: head.phases_before + 1,
      phase_count: head.phase_count,
      is_last: head.phases_before + 1 === head.phase_count,
      operation_name: head.operation_name,
      department_key: head.phase_department_key,
      production_notes: head.phase_production_notes,
      parameters,
    },
    material: { ...material, completed_qt: head.phase_completed_qt, released_out_qt: head.released_out_qt, available_qt: available },
    steps,
    batch,
    work_session: ws ? { _key: ws.id, started_at: ws.started_at.getTime(), user_key: ws.user_id } : null,
    timer: {
      display_job_timer: parameters.display_job_timer,
      elapsed_ms: workedMs(job.time_spent_ms, ws?.started_at.getTime() ?? null, now.getTime()),
      expected_ms: expectedMs(parameters.std_processing_time, job.quantity),
      expected_batch_ms: batch ? expectedMs(parameters.std_processing_time, batch.qt_total) : 0,
      session_started_at: ws?.started_at.getTime() ?? null,
      server_time: now.getTime(),
    },
    // An unassigned job someone may take counts the viewer's own running jobs.
    can: allowedActions(job, batch, parameters, newBatchQt, { mine, mayTake, runningElsewhere: mayTake ? await runningElsewhere(svc.db, { ...job, operator_id: actor.userId }) : [] }),
    interruption: await readInterruption(svc.db, job, actor.userId),
  }
}
