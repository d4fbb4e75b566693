import { formatDate } from '../../i18n/format'
/**
 * Job rules both sides agree on (SPEC 4, DOMAIN.md "Work orders and jobs", "Material flow").
 * Pure functions over the stored job state; the services enforce them, the screens use them
 * to show what is possible.
 *
 * Material counters (work_order_phases, one row per phase of a work order):
 * - `released_in_qt`: pieces that reached the phase. The FIRST phase of a work order gets the
 *   whole planned quantity at creation (its material comes from stock), so one formula serves
 *   every phase; a later phase gets what its upstream phase released (= upstream released_out_qt).
 * - `taken_qt`: pieces the phase's jobs took into batches (done or in an open batch):
 *   always the sum of its jobs' completed_qt + active_qt.
 * - `completed_qt`: the sum of its jobs' completed_qt.
 * - `released_out_qt`: pieces released downstream: the sum of its jobs' released_qt
 *   (for the last phase: finished goods).
 * Lock order for every writer: the work_order_phases row(s) first (by position), then the job rows.
 */
export type JobStatus = 'queued' | 'started' | 'paused' | 'closed'
export const JOB_STATUSES = ['queued', 'started', 'paused', 'closed'] as const satisfies readonly JobStatus[]

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

/** The smallest quantity a job may be given when rebalancing: its done and active pieces. */
export const minimumQuantity = (j: Pick<JobState, 'completed_qt' | 'active_qt'>) => j.completed_qt + j.active_qt

export const JOB_CORRECTIONS = ['reset_progress', 'cancel_active_pieces', 'update_progress', 'update_times', 'pause'] as const
export type JobCorrection = (typeof JOB_CORRECTIONS)[number]

/** Why a correction is refused: the error code the server answers with (src/errors.ts). */
export type CorrectionRefusal =
  | 'JOB_RUNNING'
  | 'JOB_HAS_ACTIVE_PIECES'
  | 'JOB_NO_PROGRESS'
  | 'JOB_NO_ACTIVE_PIECES'
  | 'JOB_HAS_TRACEABILITY'
  | 'JOB_NOT_STARTED'
  | 'JOB_NOT_RUNNING'

/**
 * SPEC 4 job actions (production corrections) with their guards, the first one broken or null:
 * - reset_progress: no active quantity and progress > 0;
 * - cancel_active_pieces: only with active quantity;
 * - update_progress: no active quantity and no traceability elements;
 * - update_times: started jobs (not queued);
 * - pause: running jobs.
 * The three quantity corrections are also refused while the job runs (an operator is working
 * the batch): pause it first. `hasTraceability` = the job's phase consumes components tracked
 * by serial (bom line traceability form or complete), whose declarations a hand edit would break.
 */
export function correctionRefusal(action: JobCorrection, j: JobState, hasTraceability = false): CorrectionRefusal | null {
  switch (action) {
    case 'reset_progress':
      if (j.active_qt > 0) return 'JOB_HAS_ACTIVE_PIECES'
      if (j.completed_qt <= 0) return 'JOB_NO_PROGRESS'
      return j.active ? 'JOB_RUNNING' : null
    case 'cancel_active_pieces':
      if (j.active_qt <= 0) return 'JOB_NO_ACTIVE_PIECES'
      return j.active ? 'JOB_RUNNING' : null
    case 'update_progress':
      if (j.active_qt > 0) return 'JOB_HAS_ACTIVE_PIECES'
      if (hasTraceability) return 'JOB_HAS_TRACEABILITY'
      return j.active ? 'JOB_RUNNING' : null
    case 'update_times':
      return j.status === 'queued' ? 'JOB_NOT_STARTED' : null
    case 'pause':
      return j.active ? null : 'JOB_NOT_RUNNING'
  }
}

export function correctionAllowed(action: JobCorrection, j: JobState, hasTraceability = false): boolean {
  return correctionRefusal(action, j, hasTraceability) === null
}

/**
 * Material a job of phase k may still take (DOMAIN.md): phase 1 works its whole quantity (its
 * released_in_qt is the planned quantity); a later phase only what its upstream phase released
 * and no job of this phase took yet. Capped by the job's remaining pieces.
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

/** A calendar date 'YYYY-MM-DD' in the server's local time zone (the plant's day). */
export const calendarDate = (d: Date): string => formatDate(d).replaceAll('/', '-')

/** Late = an open job whose work order was due before today ('YYYY-MM-DD' text compares as dates). */
export const isLate = (job: Pick<JobState, 'status'>, dueBy: string | null, today: string) =>
  job.status !== 'closed' && dueBy !== null && dueBy < today

/**
 * SPEC 4 job list filters. Several filters combine with AND (assigned + unassigned = nothing).
 * - active: running now (an open work session: jobs.active).
 * - idle: open (not closed) and not running.
 * - queued: never started (status queued).
 * - started: started and not closed (status started or paused), running or not.
 * - assigned / unassigned: an operator is set / none.
 * - critical: open, and the job itself or its work order (not another job of it) has an open
 *   critical issue; not_critical: the others (closed jobs included).
 * - late: open, and its work order's due_by is before today; on_time: not late (no due date,
 *   due today or later, or closed).
 * - ready: open with material available (availableQt > 0); not_ready: open without.
 * The list shows open jobs of work orders not archived unless `include_closed` is set or a work
 * order is named (then its jobs whatever their state).
 */
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

/** What a filter looks at; the SQL in src-server/domains/jobs/queries.ts says the same thing. */
export type FilterFacts = JobState & {
  operator_key: string | null
  critical: boolean
  work_order_critical: boolean
  due_by: string | null
  released_in_qt: number
  taken_qt: number
}

/**
 * A job shows critical while it is open and an open critical issue names the job itself or its
 * work order (an issue on another job of the work order marks that job, not this one).
 */
export const isCritical = (j: { status: string; critical: boolean; work_order_critical: boolean }) =>
  j.status !== 'closed' && (j.critical || j.work_order_critical)

/** The pure reading of one filter (the tests check the SQL against it). */
export function matchesFilter(filter: JobFilter, j: FilterFacts, today: string): boolean {
  const open = j.status !== 'closed'
  switch (filter) {
    case 'active':
      return j.active
    case 'idle':
      return open && !j.active
    case 'queued':
      return j.status === 'queued'
    case 'started':
      return j.status === 'started' || j.status === 'paused'
    case 'assigned':
      return j.operator_key !== null
    case 'unassigned':
      return j.operator_key === null
    case 'critical':
      return isCritical(j)
    case 'not_critical':
      return !isCritical(j)
    case 'late':
      return isLate(j, j.due_by, today)
    case 'on_time':
      return !isLate(j, j.due_by, today)
    case 'ready':
      return isReady(j, j)
    case 'not_ready':
      return open && !isReady(j, j)
  }
}

export type ReleaseParameters = { release_style: 'continuous' | 'job' | 'release_batch'; release_batch_qt: number }

/**
 * How many of a job's completed pieces should be released downstream now (DOMAIN.md release
 * styles), given what it already released: `continuous` releases every completed piece;
 * `job` everything once the job is closed; `release_batch` whole lots of release_batch_qt, and
 * the rest when the job closes.
 */
export function releaseDue(p: ReleaseParameters, j: { completed_qt: number; released_qt: number; closed: boolean }): number {
  const unreleased = Math.max(0, j.completed_qt - j.released_qt)
  if (unreleased === 0) return 0
  if (j.closed || p.release_style === 'continuous') return unreleased
  if (p.release_style === 'job') return 0
  const lot = p.release_batch_qt > 0 ? p.release_batch_qt : 1
  return Math.floor(unreleased / lot) * lot
}
