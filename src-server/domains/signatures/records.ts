/**
 * The content each kind of record is signed with (docs/signatures.md), read from today's rows so
 * the same function gives the content when signing and when checking a signature later. Keyed by
 * subject key; a record that no longer exists is absent (its signatures then read as not valid).
 */
import type { SignatureSubject } from '../../../src/domains/signatures/schemas'
import type { Db } from '../../db/connect'
import { ms, msOrNull } from '../../db/epoch'
import { readContent } from '../revisions/queries'
import { batchStepContents, parseBatchStepSubject } from './content'

/** A correction is signed as the event that recorded it: `<record key>:<event key>`. */
export const correctionSubject = (recordKey: string, eventId: number | string) => `${recordKey}:${eventId}`

function parseCorrectionSubject(key: string): { recordKey: string; eventId: string } | null {
  const at = key.lastIndexOf(':')
  const eventId = key.slice(at + 1)
  return at > 0 && /^\d{1,18}$/.test(eventId) ? { recordKey: key.slice(0, at), eventId } : null
}

/** The record a signature belongs to (what screens list it under): the part before the event key. */
export function recordKeyOf(type: SignatureSubject, key: string): string {
  if (type === 'serial_correction' || type === 'job_correction' || type === 'movement_revert') return parseCorrectionSubject(key)?.recordKey ?? key
  return key
}

/**
 * A released revision: product, number, reason, who released it and when, and the whole process
 * as released. Names kept elsewhere (departments, counters, component descriptions) are left out:
 * renaming them does not change what was released.
 */
async function revisionContents(db: Db, keys: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db
    .selectFrom('product_revisions as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select(['r.id', 'r.product_id', 'p.code', 'r.number', 'r.reason', 'r.released_by', ms('r.released_at').as('released_at'), 'r.form_fields'])
    .where('r.id', 'in', keys)
    .execute()
  const out = new Map<string, unknown>()
  for (const r of rows) {
    const content = await readContent(db, r.product_id, { _key: r.id, form_fields: r.form_fields as never })
    const phases = content.phases.map(({ department_name: _d, counter_name: _c, bom, ...p }) => ({
      ...p,
      bom: bom.map(({ item_code: _code, item_description: _desc, ...line }) => line),
    }))
    out.set(r.id, {
      product: { key: r.product_id, code: r.code },
      revision: { key: r.id, number: r.number, reason: r.reason, released_by: r.released_by, released_at: Math.round(r.released_at) },
      process: { phases, form_fields: content.form_fields },
    })
  }
  return out
}

/** An issue as closed: code, type, title, description, criticality, state and who closed it when. */
async function issueContents(db: Db, keys: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db
    .selectFrom('issues')
    .select(['id', 'code', 'type_id', 'title', 'description', 'critical', 'state', 'closed_by', msOrNull('closed_at').as('closed_at'), 'job_id', 'work_order_id', 'product_id'])
    .where('id', 'in', keys)
    .execute()
  return new Map(rows.map(({ closed_at, ...r }) => [r.id, { ...r, closed_at: closed_at === null ? null : Math.round(closed_at) }]))
}

/** A correction: the event that recorded it (type, record, old and new values, reason, who). */
async function correctionContents(db: Db, keys: readonly string[]): Promise<Map<string, unknown>> {
  const subjects = keys.flatMap((key) => {
    const s = parseCorrectionSubject(key)
    return s ? [{ key, ...s }] : []
  })
  if (subjects.length === 0) return new Map()
  const rows = await db
    .selectFrom('events')
    .select(['id', 'event_type', 'subject_type', 'subject_key', 'user_id', 'data'])
    .where(
      'id',
      'in',
      subjects.map((s) => Number(s.eventId)),
    )
    .execute()
  const byId = new Map(rows.map((r) => [String(r.id), r]))
  const out = new Map<string, unknown>()
  for (const s of subjects) {
    const e = byId.get(s.eventId)
    if (e && e.subject_key === s.recordKey) out.set(s.key, { event: { ...e, id: String(e.id) } })
  }
  return out
}

/** Today's signed content of some subjects of one type, by subject key. */
export async function subjectContents(db: Db, type: SignatureSubject, keys: readonly string[]): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map()
  switch (type) {
    case 'batch_step':
      return batchStepContents(
        db,
        keys.flatMap((k) => {
          const s = parseBatchStepSubject(k)
          return s ? [s] : []
        }),
      )
    case 'revision':
      return revisionContents(db, keys)
    case 'issue':
      return issueContents(db, keys)
    case 'serial_correction':
    case 'job_correction':
    case 'movement_revert':
      return correctionContents(db, keys)
  }
}

