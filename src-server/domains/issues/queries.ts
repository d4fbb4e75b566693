import { type SqlBool, sql } from 'kysely'
import type { ISSUE_SORTS, IssueAttachment, IssueBatch, IssueCounts, IssueHistoryEntry, IssueListInput, IssueRow, IssueStep } from '../../../src/domains/issues/schemas'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { ms, msOrNull } from '../../db/epoch'

/** Kysely fragments of the issues domain: rows, list filters, counts, attachments, history. */

/** A user's display name (name and surname, else the username) by key, null when there is none. */
const userName = (col: string) =>
  sql<string | null>`(select coalesce(nullif(trim(u.name || ' ' || u.surname), ''), u.username) from users u where u.id = ${sql.ref(col)})`

/** Issues with their type, work order and product: what the rows, the filters and the search read. */
export function issuesJoined(db: Db) {
  return db
    .selectFrom('issues as i')
    .innerJoin('issue_types as t', 't.id', 'i.type_id')
    .leftJoin('work_orders as wo', 'wo.id', 'i.work_order_id')
    .leftJoin('products as p', 'p.id', 'i.product_id')
}
type Joined = ReturnType<typeof issuesJoined>
export type IssueSort = (typeof ISSUE_SORTS)[number]

/** The IssueRow columns; names, the phase and the attachment count are per-row subqueries (one page only). */
export function selectIssueRow(q: Joined) {
  return q
    .select([
      'i.id as _key',
      'i.code',
      'i.type_id as type_key',
      't.code as type_code',
      't.name as type_name',
      'i.title',
      'i.description',
      'i.state',
      'i.critical',
      'i.context_type',
      'i.job_id as job_key',
      sql<string | null>`(select ph.name from jobs j join product_phases ph on ph.id = j.phase_id where j.id = i.job_id)`.as('phase_name'),
      'i.batch_id as batch_key',
      'i.step_key',
      'i.work_order_id as work_order_key',
      'wo.code as work_order_code',
      'i.product_id as product_key',
      'p.code as product_code',
      'i.opened_by as opened_by_key',
      userName('i.opened_by').as('opened_by_name'),
      ms('i.opened_at').as('opened_at'),
      msOrNull('i.closed_at').as('closed_at'),
      userName('i.closed_by').as('closed_by_name'),
      msOrNull('i.escalated_at').as('escalated_at'),
      't.close_within_hours as close_within',
      sql<number>`(select count(*)::int from issue_attachments a where a.issue_id = i.id)`.as('attachment_count'),
      ms('i.created_at').as('created_at'),
      ms('i.updated_at').as('updated_at'),
    ])
    .$castTo<IssueRow>()
}

export type IssueFilters = Omit<IssueListInput, 'state' | 'sort' | 'dir' | 'page' | 'page_size' | 'from' | 'to'> & {
  /** Created at or after / before these instants (the plant's day boundaries, computed by the service). */
  created_from?: Date
  created_before?: Date
}

/**
 * Every filter except the state, ANDed. A work order's issues include those on its jobs and a
 * product's those on its work orders and jobs: job and work order issues carry those keys too.
 * Each search word must match the code, title, description, type code or name, work order code
 * or product code.
 */
export function applyIssueFilters(q: Joined, f: IssueFilters): Joined {
  let out = q
  if (f.critical !== undefined) out = out.where('i.critical', '=', f.critical)
  if (f.type_key) out = out.where('i.type_id', '=', f.type_key)
  if (f.context_type) out = out.where('i.context_type', '=', f.context_type)
  if (f.job_key) out = out.where('i.job_id', '=', f.job_key)
  if (f.work_order_key) out = out.where('i.work_order_id', '=', f.work_order_key)
  if (f.product_key) out = out.where('i.product_id', '=', f.product_key)
  if (f.created_from) out = out.where('i.created_at', '>=', f.created_from)
  if (f.created_before) out = out.where('i.created_at', '<', f.created_before)
  for (const word of (f.search ?? '').split(/\s+/).filter(Boolean)) {
    const pattern = containsPattern(word)
    out = out.where((eb) =>
      eb.or(
        (['i.code', 'i.title', 'i.description', 't.code', 't.name', 'wo.code', 'p.code'] as const).map((col) => eb(col, 'ilike', pattern)),
      ),
    )
  }
  return out
}

/**
 * The page total (with the state filter) and the counts per state (without it) in one scan.
 * `critical` counts the critical issues that are not closed: those that mark jobs and work orders.
 */
export async function countIssues(q: Joined, states: readonly string[] | undefined): Promise<{ total: number; counts: IssueCounts }> {
  const inStates = states?.length ? sql<SqlBool>`i.state = any(${[...states]}::text[])` : sql<SqlBool>`true`
  const row = await q
    .select([
      sql<number>`count(*) filter (where ${inStates})::int`.as('total'),
      sql<number>`count(*) filter (where i.state = 'open')::int`.as('open'),
      sql<number>`count(*) filter (where i.state = 'closed')::int`.as('closed'),
      sql<number>`count(*) filter (where i.state = 'reopened')::int`.as('reopened'),
      sql<number>`count(*) filter (where i.critical and i.state <> 'closed')::int`.as('critical'),
    ])
    .executeTakeFirstOrThrow()
  const { total, ...counts } = row
  return { total, counts }
}

const SORT_COLUMNS = {
  created_at: sql`i.created_at`,
  opened_at: sql`i.opened_at`,
  updated_at: sql`i.updated_at`,
  title: sql`lower(i.title)`,
  type: sql`lower(t.code)`,
  state: sql`i.state`,
} as const

/** Sort columns; every order ends on the key in the same direction, so pages never overlap. */
export function orderIssues<Q extends ReturnType<typeof selectIssueRow>>(q: Q, sort: IssueSort, dir: 'asc' | 'desc'): Q {
  // Codes are zero-padded to six digits; the length keeps ISS-1000000 after ISS-999999.
  const sorted = sort === 'code' ? q.orderBy(sql`length(i.code)`, dir).orderBy('i.code', dir) : q.orderBy(SORT_COLUMNS[sort], dir)
  return sorted.orderBy('i.id', dir) as Q
}

/** An issue's attachments, oldest first; the file is served at /media/{key}. */
/**
 * Where on the job an issue was raised, with readable names: its batch (number, pieces) and its
 * step (place in the job's step sequence, title from the job's phase). Null where not given.
 */
export async function issuePlace(
  db: Db,
  issue: { job_key: string | null; batch_key: string | null; step_key: string | null },
): Promise<{ batch: IssueBatch | null; step: IssueStep | null }> {
  const [batch, job] = await Promise.all([
    issue.batch_key
      ? db.selectFrom('batches').select(['id as _key', 'number', 'qt_total']).where('id', '=', issue.batch_key).executeTakeFirst()
      : undefined,
    issue.step_key && issue.job_key
      ? db
          .selectFrom('jobs as j')
          .innerJoin('product_phases as ph', 'ph.id', 'j.phase_id')
          .select(['j.step_sequence', 'ph.steps'])
          .where('j.id', '=', issue.job_key)
          .executeTakeFirst()
      : undefined,
  ])
  let step: IssueStep | null = null
  if (issue.step_key) {
    const at = job ? job.step_sequence.findIndex((s) => s._key === issue.step_key) : -1
    const title = job?.steps.find((s) => s._key === issue.step_key)?.title
    step = { _key: issue.step_key, position: at >= 0 ? at + 1 : null, title: title || null }
  }
  return { batch: batch ?? null, step }
}

export function selectAttachments(db: Db, issueId: string) {
  return db
    .selectFrom('issue_attachments as a')
    .innerJoin('media as m', 'm.id', 'a.media_id')
    .select([
      'm.id as _key',
      'm.filename',
      'm.content_type',
      'm.size',
      sql<string>`'/media/' || m.id`.as('url'),
      ms('a.created_at').as('created_at'),
    ])
    .where('a.issue_id', '=', issueId)
    .orderBy('a.created_at')
    .orderBy('m.id')
    .$castTo<IssueAttachment>()
}

/** The issue's events, oldest first, with who did each. */
export function selectHistory(db: Db, issueId: string) {
  return db
    .selectFrom('events as e')
    .select([
      sql<string>`e.id::text`.as('_key'),
      'e.event_type',
      'e.user_id as user_key',
      userName('e.user_id').as('user_name'),
      ms('e.created_at').as('timestamp'),
      'e.data',
    ])
    .where('e.subject_type', '=', 'issue')
    .where('e.subject_key', '=', issueId)
    .orderBy('e.id')
    .$castTo<IssueHistoryEntry>()
}
