/**
 * What a signature signs, as canonical text: JSON with object keys sorted at every level and no
 * spaces, so the same content always hashes the same whatever order the database or the code
 * gives its keys. The hash binds the content to the signature's own meaning, signer and time.
 */
import type { Db } from '../../db/connect'

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex')
}

/** Who signed what with which meaning: part of what is hashed. */
export type SignatureStamp = { meaning: string; role: string; user_key: string; signed_at: Date }

export function contentHash(content: unknown, stamp: SignatureStamp): string {
  return sha256Hex(canonicalJson({ content, signature: { ...stamp, signed_at: stamp.signed_at.getTime() } }))
}

export const batchStepSubject = (batchId: string, stepKey: string) => `${batchId}:${stepKey}`

export function parseBatchStepSubject(key: string): { batchId: string; stepKey: string } | null {
  const at = key.indexOf(':')
  return at > 0 ? { batchId: key.slice(0, at), stepKey: key.slice(at + 1) } : null
}

/**
 * The content of batch steps as signed: the batch (key, job, number, pieces), the step (key,
 * type, position) and its recorded values ordered by field. Read from today's rows, so a
 * signature's hash can be recomputed at any time. Keyed by subject key; missing rows are absent.
 */
export async function batchStepContents(db: Db, subjects: readonly { batchId: string; stepKey: string }[]): Promise<Map<string, unknown>> {
  if (subjects.length === 0) return new Map()
  const rows = await db
    .selectFrom('batch_steps as s')
    .innerJoin('batches as b', 'b.id', 's.batch_id')
    .select(['b.id as batch_id', 'b.job_id', 'b.number', 'b.qt_total', 's.step_key', 's.type', 's.position', 's.form_data'])
    .where('s.batch_id', 'in', [...new Set(subjects.map((x) => x.batchId))])
    .execute()
  const wanted = new Set(subjects.map((x) => batchStepSubject(x.batchId, x.stepKey)))
  const out = new Map<string, unknown>()
  for (const r of rows) {
    const key = batchStepSubject(r.batch_id, r.step_key)
    if (!wanted.has(key)) continue
    const values = [...(r.form_data as { field_key: string; value: unknown }[])].sort((a, b) => (a.field_key < b.field_key ? -1 : a.field_key > b.field_key ? 1 : 0))
    out.set(key, {
      batch: { key: r.batch_id, job_key: r.job_id, number: r.number, qt_total: r.qt_total },
      step: { key: r.step_key, type: r.type, position: r.position },
      values: values.map((v) => ({ field_key: v.field_key, value: v.value })),
    })
  }
  return out
}
