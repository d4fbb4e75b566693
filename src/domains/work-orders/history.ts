import * as v from 'valibot'

/**
 * The work order history (the "Storico" tab, `GET work-order/{id}/history`): the events of the
 * work order, of its jobs, and of the issues and message threads attached to either. One
 * category per event, so the tab can filter by kind; the server filters with the same lists.
 */
export const HISTORY_CATEGORIES = ['work_order', 'execution', 'corrections', 'assignment', 'issues', 'messages'] as const
export type HistoryCategory = (typeof HISTORY_CATEGORIES)[number]

/** Job and work-order events that are assignments (who does the job) rather than work. */
export const ASSIGNMENT_EVENTS = ['JOB_ASSIGNED', 'JOB_UNASSIGNED', 'JOBS_REBALANCED'] as const
/** Production's corrections of a job (SPEC 4 job actions); a pause by production counts too. */
export const CORRECTION_EVENTS = ['JOB_PROGRESS_RESET', 'JOB_PROGRESS_UPDATED', 'JOB_TIMES_UPDATED', 'JOB_ACTIVE_PIECES_CANCELLED'] as const
/** The pause reason production's "pause job" writes. */
export const PRODUCTION_PAUSE_REASON = 'paused_by_production'

export function historyCategory(e: { event_type: string; subject_type: string | null; data: Record<string, unknown> }): HistoryCategory {
  if (e.subject_type === 'issue') return 'issues'
  if (e.subject_type === 'message') return 'messages'
  if ((ASSIGNMENT_EVENTS as readonly string[]).includes(e.event_type)) return 'assignment'
  if ((CORRECTION_EVENTS as readonly string[]).includes(e.event_type)) return 'corrections'
  if (e.event_type === 'JOB_PAUSED' && e.data.reason === PRODUCTION_PAUSE_REASON) return 'corrections'
  return e.subject_type === 'job' ? 'execution' : 'work_order'
}

export const HISTORY_PAGE_SIZE_DEFAULT = 100
export const HISTORY_PAGE_SIZE_MAX = 500

/** An event key as the history gives it; the next page starts after the last row's `_key`. */
const Cursor = v.pipe(v.string(), v.regex(/^\d{1,18}$/, 'cursor: the _key of the last event read'))
const PhaseKey = v.pipe(v.string(), v.uuid('phase_key must be a valid key'))
const Category = v.picklist(HISTORY_CATEGORIES, `category must be one of ${HISTORY_CATEGORIES.join(', ')}`)

export const HistoryFilter = v.object({
  cursor: v.optional(v.nullable(Cursor)),
  phase_key: v.optional(PhaseKey),
  category: v.optional(Category),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(HISTORY_PAGE_SIZE_MAX))),
})
export type HistoryFilter = v.InferOutput<typeof HistoryFilter>

