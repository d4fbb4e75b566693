import { useQueries, useQuery } from '@tanstack/react-query'
import type { JobDetail, JobRow } from '../../../../../src/domains/jobs/schemas'
import { parallelAllowed } from '../../../../../src/domains/execution/rules'
import { BACKGROUND, trpc } from '../../../../lib/trpc'
import { useSession } from '../../../../lib/use-auth'

/** The queue is read again this often (jobs become ready as upstream phases release material). */
const POLL_MS = 15_000
/** Phase parameters are read for this many jobs at most (the parallel rule needs them). */
const DETAILS_MAX = 60

export type SelectSearch = { job?: string }

/** Selected job keys from `?job=` (comma-separated; 'first' = not chosen yet). */
export const selectedKeys = (search: SelectSearch) => (search.job && search.job !== 'first' ? search.job.split(',').filter(Boolean) : [])
export const toSearch = (keys: string[]): SelectSearch => (keys.length ? { job: keys.join(',') } : {})

/** A job the operator can start or resume now (an open batch, or material for a new one). */
export const isStartable = (j: JobRow) => j.status !== 'closed' && !j.active && (j.ready || j.active_qt > 0)

/**
 * The operator's queue (GET job-assignment for the signed-in operator) and the unassigned jobs
 * the settings let them take, with each startable job's phase parameters (GET job/{id}) for the
 * parallel rule. See the report: a `parallel_job_allowed` on the queue rows would save these reads.
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
  const wanted = [...queue, ...unassigned].filter((j) => isStartable(j) || j.active).slice(0, DETAILS_MAX)
  const details = useQueries({
    queries: wanted.map((j) => ({ ...trpc.jobs.get.queryOptions({ key: j._key }, { trpc: BACKGROUND }), staleTime: 60_000 })),
  })
  const byKey = new Map<string, JobDetail>()
  for (const d of details) if (d.data) byKey.set(d.data._key, d.data)
  return { me, queue, unassigned, details: byKey, isPending: assignment.isPending, error: assignment.error }
}

/** Whether `keys` may run together with the jobs already running (every phase allows parallel work). */
export function mayRunTogether(keys: string[], running: JobRow[], details: Map<string, JobDetail>): boolean | undefined {
  const all = [...new Set([...keys, ...running.map((r) => r._key)])]
  if (all.length <= 1) return true
  const phases = all.map((k) => details.get(k)?.phase.parameters)
  if (phases.some((p) => !p)) return undefined
  return parallelAllowed(phases as { parallel_job_allowed: boolean }[])
}
