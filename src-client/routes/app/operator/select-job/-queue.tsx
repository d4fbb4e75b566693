import { useQuery } from '@tanstack/react-query'
import type { JobRow } from '../../../../../src/domains/jobs/schemas'
import { parallelAllowed, type StartBlocker, startBlocker } from '../../../../../src/domains/execution/rules'
import { FLOOR_TOPICS, useLive } from '../../../../lib/live'
import { BACKGROUND, trpc } from '../../../../lib/trpc'
import { useSession } from '../../../../lib/use-auth'

/** The queue is read again this often (jobs become ready as upstream phases release material). */
const POLL_MS = 15_000

export type SelectSearch = { job?: string }

/** Selected job keys from `?job=` (comma-separated; 'first' = not chosen yet). */
export const selectedKeys = (search: SelectSearch) => (search.job && search.job !== 'first' ? search.job.split(',').filter(Boolean) : [])
export const toSearch = (keys: string[]): SelectSearch => (keys.length ? { job: keys.join(',') } : {})

/**
 * Why a job of the list cannot start now (null: it can), by the server's start rule
 * (`startBlocker`) on the row's state: an open batch (pieces in work) or material for a new one,
 * and the parallel rule against the operator's running jobs. The list holds only jobs they may take.
 */
export const startBlockerOf = (j: JobRow, running: readonly JobRow[] = []): StartBlocker | null =>
  startBlocker(
    { status: j.status, active: j.active, has_open_batch: j.active_qt > 0, new_batch_qt: j.available_qt, parallel_job_allowed: j.parallel_job_allowed },
    { may_take: true, running_elsewhere: running.filter((r) => r._key !== j._key) },
  )

/**
 * `job=first`: the first job of the queue that can start beside the jobs running now, or why
 * none can (the reason of the first job that would start but for the parallel rule, else of
 * the first job of the queue).
 */
export function firstStartable(queue: readonly JobRow[], running: readonly JobRow[]): { job: JobRow } | { blocked: StartBlocker } | null {
  const job = queue.find((j) => startBlockerOf(j, running) === null)
  if (job) return { job }
  const waiting = queue.filter((j) => !j.active)
  if (waiting.length === 0) return null
  // Some would start but for the running jobs: that is the reason; else the first job's.
  return { blocked: waiting.some((j) => startBlockerOf(j) === null) ? 'parallel_not_allowed' : startBlockerOf(waiting[0]!, running)! }
}

/**
 * The operator's queue (GET job-assignment for the signed-in operator) and the unassigned jobs
 * the settings let them take; each row carries its phase's parallel_job_allowed.
 */
export function useOperatorJobs() {
  const session = useSession()
  const me = session?.user_key
  const assignment = useQuery({
    ...trpc.jobs.assignment.queryOptions({ user_key: me }, { trpc: BACKGROUND }),
    enabled: !!me,
    refetchInterval: POLL_MS,
  })
  // A job assigned, taken away, paused or made critical by someone else shows at once.
  useLive(FLOOR_TOPICS, () => [trpc.jobs.assignment.pathKey()])
  const queue = assignment.data?.assigned_jobs_by_operator.find((q) => q.operator._key === me)?.jobs ?? []
  const unassigned = assignment.data?.unassigned_jobs ?? []
  return { me, queue, unassigned, isPending: assignment.isPending, error: assignment.error }
}

/** Whether `keys` may run together with the jobs already running (every phase allows parallel work). */
export function mayRunTogether(keys: string[], running: JobRow[], rows: JobRow[]): boolean {
  const byKey = new Map([...rows, ...running].map((r) => [r._key, r]))
  const all = [...new Set([...keys, ...running.map((r) => r._key)])]
  if (all.length <= 1) return true
  return parallelAllowed(all.map((k) => ({ parallel_job_allowed: byKey.get(k)?.parallel_job_allowed ?? false })))
}
