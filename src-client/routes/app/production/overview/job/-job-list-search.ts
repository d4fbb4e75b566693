import { JOB_FILTERS, type JobFilter } from '../../../../../../src/domains/jobs/rules'

// Apart from the page: the route's validateSearch runs before the page's code is loaded, so
// importing it from the page would pull the whole job table into the first download.

/** The job list's filters live in the URL: back from elsewhere finds the same list. */
export type JobListSearch = { f?: string; q?: string; op?: string }

export function validateJobListSearch(raw: Record<string, unknown>): JobListSearch {
  const filters = typeof raw.f === 'string' ? raw.f.split(',').filter((x): x is JobFilter => (JOB_FILTERS as readonly string[]).includes(x)) : []
  return {
    f: filters.length ? filters.join(',') : undefined,
    q: typeof raw.q === 'string' && raw.q.trim() ? raw.q.slice(0, 100) : undefined,
    op: typeof raw.op === 'string' && /^[0-9a-f-]{36}$/i.test(raw.op) ? raw.op : undefined,
  }
}
