import { formatDate } from '../../i18n/format'
import { movableQt } from '../jobs/rules'

/**
 * Work order rules both sides agree on (SPEC 4 and 5, DOMAIN.md "Work orders and jobs").
 *
 * Status: `active` -> `completed` when the last phase has completed the planned quantity
 * (refreshWorkOrderProgress on the server), back to `active` when the quantity grows past it;
 * `active` -> `closed` by hand (its open jobs close), `closed` -> `active` by hand (reopen: the
 * jobs with pieces left open again). Only `completed` or `closed` work orders can be archived;
 * archived ones leave the site queue and come back at its end when restored.
 */

/** Whole percent of the planned quantity completed (0-100). */
export function progressPercent(completed: number, planned: number): number {
  if (planned <= 0) return 0
  return Math.max(0, Math.min(100, Math.floor((completed * 100) / planned)))
}

/** Late: a due date before today and still to be produced (not completed nor closed). Dates as YYYY/MM/DD or YYYY-MM-DD. */
export function isLate(wo: { due_by: string | null; status: string }, today: string): boolean {
  if (!wo.due_by || wo.status !== 'active') return false
  return wo.due_by.replaceAll('-', '/') < today.replaceAll('-', '/')
}

/** The local calendar day as YYYY/MM/DD. */
export const dayOf = (date: Date): string => formatDate(date)

/** Site queue after a save: the listed keys in their order, then the others in their previous relative order. */
export function mergeQueue(current: readonly string[], listed: readonly string[]): string[] {
  const present = new Set(current)
  const head = listed.filter((k) => present.has(k))
  const inHead = new Set(head)
  return [...head, ...current.filter((k) => !inHead.has(k))]
}

export type DistributionJob = {
  job_key: string
  /** The job as stored. */
  quantity: number
  completed_qt: number
  active_qt: number
  /** The quantity asked for (the stored one when left out). */
  new_quantity: number
}

export type DistributionPhase = {
  phase_key: string
  name: string
  position: number
  jobs: DistributionJob[]
  new_jobs: { operator_key: string | null; quantity: number }[]
}

export type DistributionProblem =
  | { code: 'JOB_BELOW_DONE'; phase_key: string; job_key: string; minimum: number }
  | { code: 'WORKLOAD_NOT_DISTRIBUTED'; phase_key: string; distributed: number; quantity: number }
  | { code: 'OPERATOR_REQUIRED'; phase_key: string }

/** The smallest quantity a job can be given: its done and active pieces never move. */
export const minimumJobQuantity = (job: { quantity: number; completed_qt: number; active_qt: number }) => job.quantity - movableQt(job)

/** Pieces a phase's distribution adds up to. */
export const distributedQt = (phase: Pick<DistributionPhase, 'jobs' | 'new_jobs'>) =>
  phase.jobs.reduce((sum, j) => sum + j.new_quantity, 0) + phase.new_jobs.reduce((sum, j) => sum + j.quantity, 0)

/**
 * Every rule a quantity change breaks, phase by phase in process order: a job below its done and
 * active pieces, a phase whose jobs do not add up to the new quantity, a new job without an
 * operator where unassigned jobs are not allowed.
 */
export function distributionProblems(quantity: number, phases: readonly DistributionPhase[], allowUnassigned: boolean): DistributionProblem[] {
  const problems: DistributionProblem[] = []
  for (const phase of [...phases].sort((a, b) => a.position - b.position)) {
    for (const job of phase.jobs) {
      const minimum = minimumJobQuantity(job)
      if (job.new_quantity < minimum) problems.push({ code: 'JOB_BELOW_DONE', phase_key: phase.phase_key, job_key: job.job_key, minimum })
    }
    const distributed = distributedQt(phase)
    if (distributed !== quantity) problems.push({ code: 'WORKLOAD_NOT_DISTRIBUTED', phase_key: phase.phase_key, distributed, quantity })
    if (!allowUnassigned && phase.new_jobs.some((j) => !j.operator_key)) problems.push({ code: 'OPERATOR_REQUIRED', phase_key: phase.phase_key })
  }
  return problems
}
