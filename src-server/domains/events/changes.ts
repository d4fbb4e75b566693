/**
 * Old and new values of an edit, field by field: what the audit trail shows for every edit event
 * (`data.changes`, docs/audit.md). Every use case that changes a record builds its event data
 * here, so each edit event carries the same shape.
 */
export type FieldChange = { from: unknown; to: unknown }
export type Changes = Record<string, FieldChange>

/** A value as the event stores it: a Date as ISO text, undefined as null. */
const plain = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value === undefined ? null : value)

/**
 * The fields (default: every key of `after`) whose value differs between `before` (the row as it
 * was) and `after` (the values written). A jsonb column is written as JSON text and read as a
 * value: text in `after` for an object or array in `before` is read as JSON first. Values compare
 * as JSON.
 */
export function changesOf(before: object, after: object, fields: readonly string[] = Object.keys(after)): Changes {
  const out: Changes = {}
  const was = before as Record<string, unknown>
  const now = after as Record<string, unknown>
  for (const field of fields) {
    const from = plain(was[field])
    let to = plain(now[field])
    if (typeof to === 'string' && from !== null && typeof from === 'object') to = JSON.parse(to)
    if (JSON.stringify(from) !== JSON.stringify(to)) out[field] = { from, to }
  }
  return out
}

/** An edit event's data: the changed fields' names (`changed`) and their old and new values (`changes`), with `extra`. */
export function editData(changes: Changes, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, changed: Object.keys(changes), changes }
}

/** A secret's change, recorded without the secret. */
export const HIDDEN = '••••••'
