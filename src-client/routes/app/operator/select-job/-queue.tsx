import { useQuery } from '@tanstack/react-query'
import type { JobRow } from '../../../../../src/domains/jobs/schemas'
import { parallelAllowed } from '../../../../../src/domains/execution/rules'
import { BACKGROUND, trpc } from '../../../../lib/trpc'
import { useSession } from '../../../../lib/use-auth'

/** The queue is read again this often (jobs become ready as upstream phases release material). */
const POLL_MS = 15_000

export type SelectSearch = { job?: string }

/** Selected job keys from `?job=` (comma-separated; 'first' = not chosen yet). */
export const selectedKeys = (search: SelectSearch) => (search.job && search.job !== 'first' ? search.job.split(',').filter(Boolean) : [])
export const toSearch = (keys: string[]): SelectSearch => (keys.length ? { job: keys.join(',') } : {})

/** A job the operator can start or resume now (an open batch, or material for a new one). */
export const isStartable = (j: JobRow) => j.status !== 'closed' && !j.active && (j.ready || j.active_qt > 0)

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
