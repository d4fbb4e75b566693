import * as v from 'valibot'
import { DayInput } from '../../dates'
import { StorableText, UuidKey } from '../../valibot-helpers'
import { SignatureInput, SignatureView } from '../signatures/schemas'

/**
 * Quality issues (SPEC 3 Issue, 4 issue states and events, 7 `GET issue`, 9). An issue has a
 * type (admin issue types), a title, a description, a critical flag and a context: a job (its
 * work order and product follow), a work order (its product follows), a product, or nothing.
 * States are open, closed and reopened; the critical flag moves separately. Every transition is
 * an action with its own event, and an open issue older than its type's close-within hours turns
 * critical by itself (escalation sweep).
 */
export const ISSUE_STATES = ['open', 'closed', 'reopened'] as const
export type IssueState = (typeof ISSUE_STATES)[number]

export const ISSUE_CONTEXT_TYPES = ['job', 'work_order', 'product', 'generic'] as const
export type IssueContextType = (typeof ISSUE_CONTEXT_TYPES)[number]

/** The actions on an existing issue (SPEC 4: close, reopen, critical toggle). */
export const ISSUE_ACTIONS = ['close', 'reopen', 'reopen_critical', 'make_critical', 'make_non_critical'] as const
export type IssueAction = (typeof ISSUE_ACTIONS)[number]

/** Event types written in the same transaction as each change (subject_type 'issue', subject_key = issue key). */
export const ISSUE_EVENTS = {
  opened: 'ISSUE_OPENED',
  updated: 'ISSUE_UPDATED',
  closed: 'ISSUE_CLOSED',
  reopened: 'ISSUE_REOPENED',
  reopened_critical: 'ISSUE_REOPENED_CRITICAL',
  made_critical: 'ISSUE_MADE_CRITICAL',
  made_non_critical: 'ISSUE_MADE_NON_CRITICAL',
  /** The escalation sweep made an open issue critical (no user). */
  escalated: 'ISSUE_ESCALATED',
  attachment_added: 'ISSUE_ATTACHMENT_ADDED',
  /** Quality removed an issue opened by mistake (its events stay, append-only). */
  deleted: 'ISSUE_DELETED',
} as const

export const ISSUE_TITLE_MAX = 200
export const ISSUE_DESCRIPTION_MAX = 10_000
export const ISSUE_PAGE_SIZE_MAX = 100
/** At most this many attachments on one issue. */
export const ISSUE_ATTACHMENTS_MAX = 20

const Title = v.pipe(v.string(), StorableText, v.trim(), v.maxLength(ISSUE_TITLE_MAX, `a title may have at most ${ISSUE_TITLE_MAX} characters`))
const Description = v.pipe(v.string(), StorableText, v.maxLength(ISSUE_DESCRIPTION_MAX, `a description may have at most ${ISSUE_DESCRIPTION_MAX} characters`))
const StepKey = v.pipe(v.string(), v.minLength(1), v.maxLength(100))

/**
 * `issues.create` / `POST issue`. The title is checked by the service (ISSUE_TITLE_REQUIRED).
 * Context: give job_key (work order and product are taken from the job; batch_key and step_key
 * may narrow it), or work_order_key, or product_key, or none of them for a generic issue.
 * critical defaults to the type's critical flag.
 */
export const IssueCreateInput = v.object({
  type_key: UuidKey('type_key must be a valid issue type key'),
  title: Title,
  description: v.optional(Description),
  critical: v.optional(v.boolean()),
  job_key: v.optional(UuidKey('job_key must be a valid job key')),
  batch_key: v.optional(UuidKey('batch_key must be a valid batch key')),
  step_key: v.optional(StepKey),
  work_order_key: v.optional(UuidKey('work_order_key must be a valid work order key')),
  product_key: v.optional(UuidKey('product_key must be a valid product key')),
})
export type IssueCreateInput = v.InferOutput<typeof IssueCreateInput>

/** `issues.update` / `PATCH issue/{key}`: title, description and type while the issue is not closed. */
export const IssuePatchInput = v.object({
  type_key: v.optional(UuidKey('type_key must be a valid issue type key')),
  title: v.optional(Title),
  description: v.optional(Description),
})
export type IssuePatchInput = v.InferOutput<typeof IssuePatchInput>

/** `issues.act` / `POST issue/{key}/action`. */
export const IssueActionInput = v.object({
  action: v.picklist(ISSUE_ACTIONS, `action must be one of ${ISSUE_ACTIONS.join(', ')}`),
  /** Closing a critical issue, when the settings require it to be signed (signature_critical_issue_close). */
  signature: v.optional(SignatureInput),
})
export type IssueActionInput = v.InferOutput<typeof IssueActionInput>

export const ISSUE_SORTS = ['code', 'created_at', 'opened_at', 'updated_at', 'title', 'type', 'state'] as const

/** `issues.list` / `GET issue`: the issues overview, the operator's issues tab and the work order's issues tab. Newest first by default. */
export const IssueListInput = v.object({
  /** A list; a query string may also join the states with commas (`state=open,reopened`). */
  state: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(100))),
      v.transform((list) => list.flatMap((s) => s.split(',').map((x) => x.trim())).filter(Boolean)),
      v.array(v.picklist(ISSUE_STATES, 'unknown issue state')),
      v.maxLength(ISSUE_STATES.length),
    ),
  ),
  critical: v.optional(v.boolean()),
  type_key: v.optional(UuidKey('type_key must be a valid issue type key')),
  context_type: v.optional(v.picklist(ISSUE_CONTEXT_TYPES, 'unknown context type')),
  job_key: v.optional(UuidKey('job_key must be a valid job key')),
  /** Issues on the work order and on its jobs. */
  work_order_key: v.optional(UuidKey('work_order_key must be a valid work order key')),
  product_key: v.optional(UuidKey('product_key must be a valid product key')),
  /** Created on or after this day / on or before this day (YYYY/MM/DD or YYYY-MM-DD, plant time zone). */
  from: v.optional(DayInput),
  to: v.optional(DayInput),
  /** Words matched against code, title, description, type, work order and product codes. */
  search: v.optional(v.pipe(v.string(), StorableText, v.trim(), v.maxLength(100))),
  sort: v.optional(v.picklist(ISSUE_SORTS)),
  dir: v.optional(v.picklist(['asc', 'desc'])),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(ISSUE_PAGE_SIZE_MAX))),
})
export type IssueListInput = v.InferOutput<typeof IssueListInput>

export const IssueRow = v.object({
  _key: v.string(),
  code: v.string(),
  type_key: v.string(),
  type_code: v.string(),
  type_name: v.string(),
  title: v.string(),
  description: v.string(),
  state: v.picklist(ISSUE_STATES),
  critical: v.boolean(),
  context_type: v.picklist(ISSUE_CONTEXT_TYPES),
  job_key: v.nullable(v.string()),
  phase_name: v.nullable(v.string()),
  batch_key: v.nullable(v.string()),
  step_key: v.nullable(v.string()),
  work_order_key: v.nullable(v.string()),
  work_order_code: v.nullable(v.string()),
  product_key: v.nullable(v.string()),
  product_code: v.nullable(v.string()),
  opened_by_key: v.nullable(v.string()),
  opened_by_name: v.nullable(v.string()),
  /** Last (re)opening, UTC ms: close-within counts from here. */
  opened_at: v.number(),
  closed_at: v.nullable(v.number()),
  closed_by_name: v.nullable(v.string()),
  escalated_at: v.nullable(v.number()),
  /** Hours after opened_at at which the issue turns critical (0 = never), from its type. */
  close_within: v.number(),
  attachment_count: v.number(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type IssueRow = v.InferOutput<typeof IssueRow>

export const IssueCounts = v.object({ open: v.number(), closed: v.number(), reopened: v.number(), critical: v.number() })
export type IssueCounts = v.InferOutput<typeof IssueCounts>

/** One page, the total and the counts per state under the same filters (state filter aside). */
export const IssuePage = v.object({ rows: v.array(IssueRow), total: v.number(), counts: IssueCounts })
export type IssuePage = v.InferOutput<typeof IssuePage>

export const IssueAttachment = v.object({
  _key: v.string(),
  filename: v.string(),
  content_type: v.string(),
  size: v.number(),
  /** Served at /media/{key} to signed-in users. */
  url: v.string(),
  created_at: v.number(),
})
export type IssueAttachment = v.InferOutput<typeof IssueAttachment>

/** One entry of the issue's timeline (its events, oldest first). */
export const IssueHistoryEntry = v.object({
  _key: v.string(),
  event_type: v.string(),
  user_key: v.nullable(v.string()),
  user_name: v.nullable(v.string()),
  timestamp: v.number(),
  data: v.record(v.string(), v.unknown()),
})
export type IssueHistoryEntry = v.InferOutput<typeof IssueHistoryEntry>

/** The batch of the job an issue was raised on (its number in the job, its pieces). */
export const IssueBatch = v.object({ _key: v.string(), number: v.number(), qt_total: v.number() })
export type IssueBatch = v.InferOutput<typeof IssueBatch>

/**
 * The step of the job an issue was raised on: its place in the job's step sequence (1-based) and
 * its title, both null when the step is no longer in the job's process.
 */
export const IssueStep = v.object({ _key: v.string(), position: v.nullable(v.number()), title: v.nullable(v.string()) })
export type IssueStep = v.InferOutput<typeof IssueStep>

/** `GET issue/{key}` / `issues.get`: the row with where it was raised, attachments and history. */
export const IssueDetail = v.object({
  ...IssueRow.entries,
  batch: v.nullable(IssueBatch),
  step: v.nullable(IssueStep),
  attachments: v.array(IssueAttachment),
  history: v.array(IssueHistoryEntry),
  /** Signatures given on the issue (closing it while critical), each checked against the issue today. */
  signatures: v.array(SignatureView),
})
export type IssueDetail = v.InferOutput<typeof IssueDetail>
