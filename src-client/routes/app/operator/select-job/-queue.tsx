import { useQueries } from '@tanstack/react-query'
import { useState } from 'react'
import { type JobRow, QUEUE_PAGE_DEFAULT } from '../../../../../src/domains/jobs/schemas'
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

/** A list shown a page at a time: `show` loads the next page ("Mostra altri"); null when none follows. */
export type MoreJobs = { show: () => void; loading: boolean } | null

/** Rows of several pages in order, each job once (a job may shift to the next page between reads). */
const joinPages = (pages: (JobRow[] | undefined)[]) => {
  const seen = new Set<string>()
  return pages.flatMap((p) => p ?? []).filter((j) => !seen.has(j._key) && (seen.add(j._key), true))
}

/**
 * The operator's queue (GET job-assignment for the signed-in operator) and the unassigned jobs
 * the settings let them take; each row carries its phase's parallel_job_allowed. The first read
 * holds the first page of each list (the first screen costs the same however long the queue);
 * "Mostra altri" reads the next page of that list alone (offset; the other list's limit 0).
 */
export function useOperatorJobs() {
  const session = useSession()
  const me = session?.user_key
  const [queuePages, setQueuePages] = useState(1)
  const [unassignedPages, setUnassignedPages] = useState(1)
  const inputs = [
    { user_key: me },
    ...Array.from({ length: queuePages - 1 }, (_, i) => ({ user_key: me, offset: (i + 1) * QUEUE_PAGE_DEFAULT, unassigned_limit: 0 })),
    ...Array.from({ length: unassignedPages - 1 }, (_, i) => ({ user_key: me, limit: 0, unassigned_offset: (i + 1) * QUEUE_PAGE_DEFAULT })),
  ]
  const reads = useQueries({
    queries: inputs.map((input) => ({
      ...trpc.jobs.assignment.queryOptions(input, { trpc: BACKGROUND }),
      enabled: !!me,
      refetchInterval: POLL_MS,
    })),
  })
  // A job assigned, taken away, paused or made critical by someone else shows at once.
  useLive(FLOOR_TOPICS, () => [trpc.jobs.assignment.pathKey()])
  const first = reads[0]!
  const queueReads = [first, ...reads.slice(1, queuePages)]
  const unassignedReads = [first, ...reads.slice(queuePages)]
  const mine = (r: (typeof reads)[number]) => r.data?.assigned_jobs_by_operator.find((q) => q.operator._key === me)
  const queue = joinPages(queueReads.map((r) => mine(r)?.jobs))
  const unassigned = joinPages(unassignedReads.map((r) => r.data?.unassigned_jobs))
  const lastQueue = queueReads[queueReads.length - 1]!
  const lastUnassigned = unassignedReads[unassignedReads.length - 1]!
  // While a next page loads the button stays, busy; once the last page says none follow it goes.
  const more = (loading: boolean, follows: boolean | undefined, next: () => void): MoreJobs =>
    loading ? { show: () => {}, loading } : follows ? { show: next, loading } : null
  return {
    me,
    queue,
    unassigned,
    queueMore: more(queuePages > 1 && lastQueue.isPending, mine(lastQueue)?.more, () => setQueuePages((n) => n + 1)),
    unassignedMore: more(unassignedPages > 1 && lastUnassigned.isPending, lastUnassigned.data?.unassigned_more, () => setUnassignedPages((n) => n + 1)),
    isPending: first.isPending,
    error: first.error,
  }
}

/** Whether `keys` may run together with the jobs already running (every phase allows parallel work). */
export function mayRunTogether(keys: string[], running: JobRow[], rows: JobRow[]): boolean {
  const byKey = new Map([...rows, ...running].map((r) => [r._key, r]))
  const all = [...new Set([...keys, ...running.map((r) => r._key)])]
  if (all.length <= 1) return true
  return parallelAllowed(all.map((k) => ({ parallel_job_allowed: byKey.get(k)?.parallel_job_allowed ?? false })))
}
