/**
 * Job rules both sides agree on (SPEC 4, DOMAIN.md "Work orders and jobs", "Material flow").
 * Pure functions over the stored job state; the services enforce them, the screens use them
 * to show what is possible.
 */
export type JobStatus = 'queued' | 'started' | 'paused' | 'closed'

export type JobState = {
  status: JobStatus
  /** Running now: an open work session. */
  active: boolean
  quantity: number
  completed_qt: number
  /** Pieces in the open batch. */
  active_qt: number
}

/** Pieces of the job's workload not yet done nor in progress. */
export const remainingQt = (j: Pick<JobState, 'quantity' | 'completed_qt' | 'active_qt'>) =>
  Math.max(0, j.quantity - j.completed_qt - j.active_qt)

/** Pieces that can be moved to another job when rebalancing: never the done or active ones. */
export const movableQt = remainingQt

export const JOB_CORRECTIONS = ['reset_progress', 'cancel_active_pieces', 'update_progress', 'update_times', 'pause'] as const
export type JobCorrection = (typeof JOB_CORRECTIONS)[number]

/** SPEC 4 job actions with their guards; `hasTraceability` = serial links recorded on the job. */
export function correctionAllowed(action: JobCorrection, j: JobState, hasTraceability = false): boolean {
  switch (action) {
    case 'reset_progress':
      return j.active_qt === 0 && j.completed_qt > 0
    case 'cancel_active_pieces':
      return j.active_qt > 0
    case 'update_progress':
      return j.active_qt === 0 && !hasTraceability
    case 'update_times':
      return j.status !== 'queued'
    case 'pause':
      return j.active
  }
}

/**
 * Material a job of phase k may still take (DOMAIN.md): phase 1 works its whole quantity; a
 * later phase only what its upstream phase released and no job of this phase took yet.
 */
export function availableQt(
  job: Pick<JobState, 'quantity' | 'completed_qt' | 'active_qt'>,
  phase: { released_in_qt: number; taken_qt: number },
): number {
  return Math.min(remainingQt(job), Math.max(0, phase.released_in_qt - phase.taken_qt))
}

/** Ready = an open job with material to work on. */
export const isReady = (job: JobState, phase: { released_in_qt: number; taken_qt: number }) =>
  job.status !== 'closed' && availableQt(job, phase) > 0

/** SPEC 4 job list filters. */
export const JOB_FILTERS = [
  'active',
  'assigned',
  'critical',
  'idle',
  'late',
  'not_critical',
  'on_time',
  'queued',
  'started',
  'ready',
  'not_ready',
  'unassigned',
] as const
export type JobFilter = (typeof JOB_FILTERS)[number]
