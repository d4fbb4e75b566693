/**
 * The job list (`GET job`, `jobs.list`): one keyset page in site queue order with its filters,
 * and the cursor that pages it.
 */
import { JOB_PAGE_SIZE_DEFAULT, type JobListInput, type JobPage, type JobRow } from '../../../src/domains/jobs/schemas'
import { isUuid } from '../../../src/uuid'
import type { Services } from '../../context'
import { invalidField } from '../../input-issues'
import { afterCursor, applyListFilters, jobsJoined, searchCandidates, selectJobRow, siteOrder } from './queries'
import { today } from './shared'

type CursorValue = { sequence: number; position: number; key: string }

function encodeCursor(row: JobRow): string {
  return Buffer.from(JSON.stringify([row.work_order_sequence, row.phase_position, row._key])).toString('base64url')
}

function decodeCursor(cursor: string): CursorValue {
  try {
    const [sequence, position, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Number.isSafeInteger(sequence) && Number.isInteger(position) && Math.abs(position) < 2 ** 31 && typeof key === 'string' && isUuid(key)) {
      return { sequence, position, key }
    }
  } catch {}
  throw invalidField({ path: 'cursor', kind: 'invalid', message: 'not a cursor this list gave' })
}

/**
 * `GET job` / `jobs.list`: one page in site queue order, keyset-paged (the cost of a page does
 * not grow with the number of jobs). Filters combine with AND (rules.ts JOB_FILTERS).
 */
export async function listJobs(svc: Pick<Services, 'db' | 'clock'>, input: JobListInput): Promise<JobPage> {
  const limit = input.limit ?? JOB_PAGE_SIZE_DEFAULT
  const day = today(svc)
  const candidates = input.search ? await searchCandidates(svc.db, input.search) : []
  let q = applyListFilters(jobsJoined(svc.db), input, day, candidates)
  // One operator's jobs page through their own index (jobs.wo_sequence mirrors wo.sequence).
  const byJob = Boolean(input.operator_key) && !input.include_closed
  if (input.cursor) q = afterCursor(q, decodeCursor(input.cursor), byJob)
  const rows = await siteOrder(selectJobRow(q, day), byJob)
    .limit(limit + 1)
    .execute()
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return { rows: page, next_cursor: more ? encodeCursor(page[page.length - 1]!) : null }
}
