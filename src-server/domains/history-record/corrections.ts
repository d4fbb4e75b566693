/**
 * The record's corrections section: what production corrected on the record's jobs (reset
 * progress, cancel active pieces, update progress or times) and what traceability corrected on
 * the serials it lists (code, data, a link taken out), each as the event that recorded it (who,
 * when, old and new values, the reason) with its signatures, oldest first.
 */
import type { RecordChange, RecordCorrection, RecordPhase } from '../../../src/domains/history-record/schemas'
import type { SignatureView } from '../../../src/domains/signatures/schemas'
import type { Db } from '../../db/connect'
import type { SubjectEvent } from '../events/subject-events'
import { jobCorrectionEvents } from '../jobs/corrections'
import { serialCorrectionEvents } from '../serials/service'
import { correctionSubject } from '../signatures/records'
import { signaturesBySubject } from '../signatures/service'

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)

/**
 * Old and new values as the event recorded them: `data.changes` (every edit event since the audit
 * trail, docs/audit.md), else the data's own `{from, to}` entries (older job corrections).
 */
export function recordedChanges(data: Record<string, unknown>): RecordChange[] {
  const source = isObject(data.changes) ? data.changes : data
  return Object.entries(source).flatMap(([field, c]) => (isObject(c) && 'from' in c && 'to' in c ? [{ field, from: c.from ?? null, to: c.to ?? null }] : []))
}

export async function recordCorrections(
  db: Db,
  opts: {
    /** The record's phases: their jobs are the ones whose corrections it lists. */
    phases: readonly RecordPhase[]
    /** The serials the record lists, by key, with their codes. */
    serialCodes: ReadonlyMap<string, string>
    /** A job correction's signatures by subject key (filed with the work order's, read once). */
    jobSignatures: (subjectKey: string) => SignatureView[]
  },
): Promise<RecordCorrection[]> {
  const jobs = new Map(opts.phases.flatMap((p) => p.jobs.map((j) => [j._key, { phase: p.name, operator: j.operator?.name ?? null }] as const)))
  const [jobEvents, serialEvents] = await Promise.all([jobCorrectionEvents(db, [...jobs.keys()]), serialCorrectionEvents(db, [...opts.serialCodes.keys()])])
  const serialSignatures = await signaturesBySubject(
    db,
    'serial_correction',
    serialEvents.map((e) => correctionSubject(e.subject_key, e._key)),
  )
  const base = (e: SubjectEvent) => ({
    _key: e._key,
    event_type: e.event_type,
    at: e.created_at,
    by: e.user_key ? { _key: e.user_key, name: e.user_name ?? '' } : null,
    changes: recordedChanges(e.data),
    reason: typeof e.data.reason === 'string' ? e.data.reason : null,
  })
  const out: RecordCorrection[] = [
    ...jobEvents.map((e) => ({
      ...base(e),
      kind: 'job' as const,
      job_key: e.subject_key,
      phase_name: jobs.get(e.subject_key)?.phase ?? null,
      operator_name: jobs.get(e.subject_key)?.operator ?? null,
      serial_key: null,
      serial_code: null,
      signatures: opts.jobSignatures(correctionSubject(e.subject_key, e._key)),
    })),
    ...serialEvents.map((e) => ({
      ...base(e),
      kind: 'serial' as const,
      job_key: null,
      phase_name: null,
      operator_name: null,
      serial_key: e.subject_key,
      serial_code: opts.serialCodes.get(e.subject_key) ?? null,
      signatures: serialSignatures.get(correctionSubject(e.subject_key, e._key)) ?? [],
    })),
  ]
  return out.sort((a, b) => Number(a._key) - Number(b._key))
}
