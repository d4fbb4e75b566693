/**
 * Electronic signatures (issue 22, docs/signatures.md): recording them inside the signed action's
 * transaction, listing them with their record, and checking that what they signed is unchanged.
 */
import type { SignatureMeaning } from '../../../src/domains/process/steps'
import type { SignatureSubject, SignatureView } from '../../../src/domains/signatures/schemas'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import type { SignaturesTable } from '../../db/schema'
import { ms } from '../../db/epoch'
import { appendEvent } from '../events/service'
import { batchStepContents, batchStepSubject, contentHash, parseBatchStepSubject } from './content'
import { subjectContents } from './records'
import type { Signer } from './signers'

type Subject = { type: 'batch_step'; batchId: string; stepKey: string; workOrderId: string; jobId: string; phaseId: string }

/**
 * One signature per signer of `content` (call once the signed record is written): an append-only
 * row with the hash of the content as it is now, and an event on the record's stream carrying the
 * same, so the event chain holds the signature too. Shared by signed steps and signed actions.
 * Each event's user is its signer (a second signer's too; the session stays the one they signed
 * in, and `signed_in_user_key` names its user when that is someone else).
 */
export async function writeSignatures(
  db: Db,
  actor: Actor,
  signed: {
    subject: { type: SignatureSubject; key: string; workOrderId: string | null }
    content: unknown
    meaning: SignatureMeaning
    signers: readonly Signer[]
    event: { event_type: string; subject_type: string; subject_key: string; data: Record<string, unknown> }
  },
  now: Date,
): Promise<void> {
  const { subject, content, meaning, event } = signed
  for (const signer of signed.signers) {
    const id = crypto.randomUUID()
    const hash = contentHash(content, { meaning, role: signer.role, user_key: signer.userId, signed_at: now })
    await db
      .insertInto('signatures')
      .values({
        id,
        subject_type: subject.type,
        subject_key: subject.key,
        work_order_id: subject.workOrderId,
        meaning,
        role: signer.role,
        required_scope: signer.requiredScope,
        user_id: signer.userId,
        full_name: signer.fullName,
        signed_at: now,
        content_hash: hash,
      })
      .execute()
    // The event is the signer's: a second signer's row names them, not the operator whose session they signed in.
    const onSession = signer.userId === actor.userId ? {} : { signed_in_user_key: actor.userId }
    const data = { ...event.data, signature_key: id, meaning, role: signer.role, signer_key: signer.userId, full_name: signer.fullName, content_hash: hash, ...onSession }
    const by: Actor = { ...actor, userId: signer.userId }
    await appendEvent(db, by, { event_type: event.event_type, subject_type: event.subject_type, subject_key: event.subject_key, data }, now)
  }
}

/**
 * Signs a batch step with each signer (the operator, then the second signer): the hash of the
 * step's content as it is now (call after the step's values and completion are written), and one
 * STEP_SIGNED event each on the job.
 */
export async function signBatchStep(db: Db, actor: Actor, subject: Subject, meaning: SignatureMeaning, signers: readonly Signer[], now: Date) {
  const key = batchStepSubject(subject.batchId, subject.stepKey)
  const content = (await batchStepContents(db, [subject])).get(key)
  if (content === undefined) throw new Error(`no batch step ${key} to sign`)
  await writeSignatures(
    db,
    actor,
    {
      subject: { type: subject.type, key, workOrderId: subject.workOrderId },
      content,
      meaning,
      signers,
      event: {
        event_type: 'STEP_SIGNED',
        subject_type: 'job',
        subject_key: subject.jobId,
        data: { work_order_key: subject.workOrderId, phase_key: subject.phaseId, batch_key: subject.batchId, step_key: subject.stepKey },
      },
    },
    now,
  )
}

/** True when a batch step already carries a signature (its values are then frozen). */
export async function isBatchStepSigned(db: Db, batchId: string, stepKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('signatures')
    .select('id')
    .where('subject_type', '=', 'batch_step')
    .where('subject_key', '=', batchStepSubject(batchId, stepKey))
    .executeTakeFirst()
  return row !== undefined
}

type SignatureRow = Omit<SignaturesTable, 'signed_at'> & { signed_at: number }

const signatureColumns = [
  'id',
  'subject_type',
  'subject_key',
  'work_order_id',
  'meaning',
  'role',
  'required_scope',
  'user_id',
  'full_name',
  'content_hash',
  ms('signed_at').as('signed_at'),
] as const

/** Each row with `valid`: its hash recomputed from today's data of what it signed. */
async function withValidity(db: Db, rows: SignatureRow[]): Promise<SignatureView[]> {
  const contents = new Map<string, unknown>()
  for (const type of new Set(rows.map((r) => r.subject_type as SignatureSubject))) {
    const keys = [...new Set(rows.filter((r) => r.subject_type === type).map((r) => r.subject_key))]
    for (const [key, content] of await subjectContents(db, type, keys)) contents.set(`${type}/${key}`, content)
  }
  return rows.map((r) => {
    const step = r.subject_type === 'batch_step' ? parseBatchStepSubject(r.subject_key) : null
    const content = contents.get(`${r.subject_type}/${r.subject_key}`)
    const stamp = { meaning: r.meaning, role: r.role, user_key: r.user_id, signed_at: new Date(Math.round(r.signed_at)) }
    return {
      _key: r.id,
      subject_type: r.subject_type as SignatureSubject,
      subject_key: r.subject_key,
      batch_key: step?.batchId ?? null,
      step_key: step?.stepKey ?? null,
      meaning: r.meaning,
      role: r.role,
      required_scope: r.required_scope,
      user_key: r.user_id,
      full_name: r.full_name,
      signed_at: r.signed_at,
      content_hash: r.content_hash,
      valid: content !== undefined && contentHash(content, stamp) === r.content_hash,
    }
  })
}

/**
 * The signatures given on one record, oldest first, each with `valid`: a revision's or an issue's
 * (subject key = the record's key), or the corrections of a serial, job or movement (subject key
 * `<record key>:<event key>`).
 */
export async function recordSignatures(db: Db, type: Exclude<SignatureSubject, 'batch_step'>, recordKey: string): Promise<SignatureView[]> {
  const q = db.selectFrom('signatures').select(signatureColumns).where('subject_type', '=', type)
  const rows = await (type === 'revision' || type === 'issue' ? q.where('subject_key', '=', recordKey) : q.where('subject_key', 'like', `${recordKey.replace(/[\\%_]/g, '\\$&')}:%`))
    .orderBy('signed_at')
    .orderBy('role', 'desc')
    .execute()
  return withValidity(db, rows as SignatureRow[])
}

/** The signatures of many records of one type at once (a list of revisions), by subject key. */
export async function signaturesBySubject(db: Db, type: SignatureSubject, keys: readonly string[]): Promise<Map<string, SignatureView[]>> {
  const out = new Map<string, SignatureView[]>()
  if (keys.length === 0) return out
  const rows = await db
    .selectFrom('signatures')
    .select(signatureColumns)
    .where('subject_type', '=', type)
    .where('subject_key', 'in', [...new Set(keys)])
    .orderBy('signed_at')
    .orderBy('role', 'desc')
    .execute()
  for (const view of await withValidity(db, rows as SignatureRow[])) out.set(view.subject_key, [...(out.get(view.subject_key) ?? []), view])
  return out
}

/**
 * Every signature filed with a work order (its batch steps, its jobs' corrections, its movements'
 * reverts), oldest first (the signer before the second signer), each with `valid`. The device
 * history record and `GET work-order/{id}/signatures` read this.
 */
export async function listWorkOrderSignatures(db: Db, workOrderId: string): Promise<SignatureView[]> {
  const rows = await db.selectFrom('signatures').select(signatureColumns).where('work_order_id', '=', workOrderId).orderBy('signed_at').orderBy('role', 'desc').execute()
  return withValidity(db, rows as SignatureRow[])
}

/** The signatures of some batch steps, by subject key (`<batch key>:<step key>`), each with `valid`. */
export function batchStepSignatures(db: Db, subjects: readonly { batchId: string; stepKey: string }[]): Promise<Map<string, SignatureView[]>> {
  return signaturesBySubject(
    db,
    'batch_step',
    subjects.map((s) => batchStepSubject(s.batchId, s.stepKey)),
  )
}

/** One signature checked against today's data (undefined: no such signature). */
export async function verifySignature(db: Db, signatureKey: string): Promise<SignatureView | undefined> {
  const rows = await db.selectFrom('signatures').select(signatureColumns).where('id', '=', signatureKey).execute()
  return (await withValidity(db, rows as SignatureRow[]))[0]
}
