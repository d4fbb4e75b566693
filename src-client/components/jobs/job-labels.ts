import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { CorrectionRefusal, JobCorrection, JobFilter } from '../../../src/domains/jobs/rules'

/** SPEC 4 job list filters as the chips read them. */
export const FILTER_LABELS: Record<JobFilter, MessageDescriptor> = {
  active: msg`In lavorazione`,
  idle: msg`Fermi`,
  queued: msg`In coda`,
  started: msg`Iniziati`,
  assigned: msg`Assegnati`,
  unassigned: msg`Non assegnati`,
  ready: msg`Pronti`,
  not_ready: msg`Non pronti`,
  late: msg`In ritardo`,
  on_time: msg`In tempo`,
  critical: msg`Critici`,
  not_critical: msg`Non critici`,
}

/** Filters that exclude each other: choosing one drops the other. */
export const OPPOSITE_FILTER: Partial<Record<JobFilter, JobFilter>> = {
  active: 'idle',
  idle: 'active',
  assigned: 'unassigned',
  unassigned: 'assigned',
  ready: 'not_ready',
  not_ready: 'ready',
  late: 'on_time',
  on_time: 'late',
  critical: 'not_critical',
  not_critical: 'critical',
  queued: 'started',
  started: 'queued',
}

export const CORRECTION_LABELS: Record<JobCorrection, MessageDescriptor> = {
  pause: msg`Metti in pausa`,
  reset_progress: msg`Azzera avanzamento`,
  cancel_active_pieces: msg`Annulla pezzi in lavorazione`,
  update_progress: msg`Correggi avanzamento…`,
  update_times: msg`Correggi tempi…`,
}

/** Why a correction is not possible now (the menu shows it under the disabled entry). */
export const REFUSAL_LABELS: Record<CorrectionRefusal, MessageDescriptor> = {
  JOB_RUNNING: msg`Il job è in lavorazione: mettilo prima in pausa`,
  JOB_HAS_ACTIVE_PIECES: msg`Ci sono pezzi in lavorazione: annullali prima`,
  JOB_NO_PROGRESS: msg`Nessun avanzamento da azzerare`,
  JOB_NO_ACTIVE_PIECES: msg`Nessun pezzo in lavorazione`,
  JOB_HAS_TRACEABILITY: msg`La fase ha componenti tracciati`,
  JOB_NOT_STARTED: msg`Il job non è ancora iniziato`,
  JOB_NOT_RUNNING: msg`Il job non è in lavorazione`,
}
