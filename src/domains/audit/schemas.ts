import * as v from 'valibot'
import { DayInput } from '../../dates'
import { SIGNATURE_MEANINGS } from '../process/steps'
import { SIGNATURE_ROLES } from '../signatures/schemas'

/**
 * The audit trail (issue 22): every recorded event, newest first, with who, when, what it was
 * about, the reason and the changes it carries. Who reads it: AUDIT_READERS (the `audit` permission
 * is for an auditor who needs nothing else).
 */
export const AUDIT_READERS = ['admin', 'quality', 'audit'] as const
/** Who may walk the event chain. */
export const CHAIN_CHECKERS = ['admin', 'audit'] as const

const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max))
const Cursor = v.pipe(v.number(), v.integer(), v.minValue(1))

export const AuditFilter = v.object({
  /** What the event is about: work_order, job, serial, issue, product, user, movement ... */
  subject_type: v.optional(Text(40)),
  /** The entity's code as people read it (WO000007, a serial, a username) or its key. */
  code: v.optional(Text(200)),
  /** Who did it: a username. */
  user: v.optional(Text(100)),
  event_type: v.optional(Text(60)),
  /** Days in the plant's time zone, both included. */
  from: v.optional(DayInput),
  to: v.optional(DayInput),
})
export type AuditFilter = v.InferOutput<typeof AuditFilter>

export const AuditTrailInput = v.object({
  ...AuditFilter.entries,
  /** Events recorded before this one (the `next_before` of the previous page). */
  before: v.optional(Cursor),
  /** The same as `before`, for tRPC infinite queries. */
  cursor: v.optional(v.nullable(Cursor)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500))),
})
export type AuditTrailInput = v.InferOutput<typeof AuditTrailInput>

export const AuditChange = v.object({ from: v.unknown(), to: v.unknown() })

export const AuditEntry = v.object({
  /** The event's id: its place in the trail. */
  id: v.number(),
  at: v.date(),
  event_type: v.string(),
  user: v.nullable(v.object({ _key: v.string(), username: v.string(), full_name: v.nullable(v.string()) })),
  subject_type: v.nullable(v.string()),
  subject_key: v.nullable(v.string()),
  /** The entity's code as people read it, where the event names it. */
  code: v.nullable(v.string()),
  reason: v.nullable(v.string()),
  /** Field by field, where the event recorded an edit. */
  changes: v.nullable(v.record(v.string(), AuditChange)),
  data: v.record(v.string(), v.unknown()),
  /**
   * A signature event (STEP_SIGNED, RECORD_SIGNED): who signed (the full name at signing), with
   * which meaning, as operator or second signer. Null for any other event.
   */
  signature: v.nullable(v.object({ full_name: v.string(), meaning: v.picklist(SIGNATURE_MEANINGS), role: v.picklist(SIGNATURE_ROLES) })),
  /** An event on a job: the job's work order (where the trail links it). Null for any other entity. */
  work_order: v.nullable(v.object({ _key: v.string(), code: v.string() })),
})
export type AuditEntry = v.InferOutput<typeof AuditEntry>

export const AuditPage = v.object({ rows: v.array(AuditEntry), next_before: v.nullable(v.number()) })
export type AuditPage = v.InferOutput<typeof AuditPage>

export const ChainBreak = v.object({
  seq: v.number(),
  event_id: v.nullable(v.number()),
  reason: v.picklist(['changed', 'missing', 'relinked', 'unchained', 'head']),
})
export const ChainCheck = v.variant('ok', [
  // pending: committed events the chainer has not linked yet (it links them within about a second).
  v.object({ ok: v.literal(true), events: v.number(), head_hash: v.string(), pending: v.number() }),
  v.object({ ok: v.literal(false), events: v.number(), first_break: ChainBreak }),
])
export type ChainCheck = v.InferOutput<typeof ChainCheck>

/** The chain's head written outside the database (docs/audit.md, "The anchor"). */
export const ChainAnchor = v.object({ seq: v.number(), hash: v.string(), at: v.string(), file: v.string() })
export type ChainAnchor = v.InferOutput<typeof ChainAnchor>

/** Whether link `seq` still has the anchored hash (`found` null: the chain no longer reaches that number). */
export const AnchorCheck = v.object({ seq: v.number(), expected: v.string(), found: v.nullable(v.string()), ok: v.boolean() })
export type AnchorCheck = v.InferOutput<typeof AnchorCheck>
