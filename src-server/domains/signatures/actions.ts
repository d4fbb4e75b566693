/**
 * Actions the plant's settings may require a signature for (docs/signatures.md "Signed actions"):
 * releasing a revision, closing a critical issue, correcting a serial, correcting a job,
 * reverting a movement. A caller checks the signature before its transaction
 * (`actionSignature`: null when the settings ask for none) and, inside it once the record is
 * written, names the signed subject (`signRecord`): the content is read here, the same way it is
 * read again whenever the signature is checked.
 */
import type { SignatureMeaning } from '../../../src/domains/process/steps'
import { type SignatureInput, type SignatureSubject, type SignedAction, signatureSettingKey } from '../../../src/domains/signatures/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { unprocessable } from '../../errors'
import { readSettings } from '../settings/queries'
import { subjectContents } from './records'
import { writeSignatures } from './service'
import { type Signer, verifiedSigners } from './signers'

/** A checked signature, ready to be recorded with the action. */
export type ActionSignature = { meaning: SignatureMeaning; signers: readonly Signer[] }

/** The meaning the settings require for an action, or null when it is not signed. */
export async function requiredMeaning(db: Db, action: SignedAction): Promise<SignatureMeaning | null> {
  return (await readSettings(db))[signatureSettingKey(action)]
}

/**
 * Before the action's transaction: null when the settings require no signature (a signature sent
 * anyway is ignored); otherwise the actor's password checked like the step signature's (422
 * SIGNATURE_REQUIRED, 400 SIGNATURE_INVALID, 429 LOGIN_THROTTLED). `applies` = false skips the
 * check for this call (an issue closed while not critical).
 */
export async function actionSignature(
  svc: Pick<Services, 'db' | 'clock'>,
  actor: Actor,
  action: SignedAction,
  input: SignatureInput | undefined,
  ip: string | null,
  applies = true,
): Promise<ActionSignature | null> {
  if (!applies) return null
  const meaning = await requiredMeaning(svc.db, action)
  if (!meaning) return null
  const signers = await verifiedSigners(svc.db, actor, { meaning, second_signer: null }, input, ip, svc.clock.now())
  return { meaning, signers }
}

/** For a check made again inside the transaction: the signature the action needs was not given. */
export function signatureRequired(meaning: SignatureMeaning) {
  return unprocessable('SIGNATURE_REQUIRED', `this action must be signed (${meaning}): send signature.password`, { meaning })
}

export type SignedRecord = {
  type: Exclude<SignatureSubject, 'batch_step'>
  key: string
  /** Lists the signature with the work order's (history, device history record). */
  workOrderId?: string | null
  /** The event stream the RECORD_SIGNED event joins (the signed record's). */
  event: { subject_type: string; subject_key: string }
}

/**
 * Inside the action's transaction, after the record is written: one append-only row per signer
 * with the hash of the record's content as it is now, and one RECORD_SIGNED event each on the
 * record, so the event chain holds the signature too.
 */
export async function signRecord(db: Db, actor: Actor, signature: ActionSignature, subject: SignedRecord, now: Date): Promise<void> {
  const content = (await subjectContents(db, subject.type, [subject.key])).get(subject.key)
  if (content === undefined) throw new Error(`no ${subject.type} ${subject.key} to sign`)
  await writeSignatures(
    db,
    actor,
    {
      subject: { type: subject.type, key: subject.key, workOrderId: subject.workOrderId ?? null },
      content,
      meaning: signature.meaning,
      signers: signature.signers,
      event: {
        event_type: 'RECORD_SIGNED',
        ...subject.event,
        data: { signed_type: subject.type, signed_key: subject.key, ...(subject.workOrderId ? { work_order_key: subject.workOrderId } : {}) },
      },
    },
    now,
  )
}
