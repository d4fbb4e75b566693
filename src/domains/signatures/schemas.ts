import * as v from 'valibot'
import { SIGNATURE_MEANINGS } from '../process/steps'

/**
 * Electronic signatures (issue 22, docs/signatures.md). A signature is given with the signer's
 * own password, checked like a sign-in, or with a personal PIN where the plant's settings allow
 * it; a second signer (four eyes) gives username and password, or scans their badge and types
 * their PIN, in the same request, without signing the operator out.
 */
export const SIGNATURE_PASSWORD_MAX = 200
/** Digits only; the fewest is the plant's `pin_min_length` setting. */
export const PIN_MAX_LENGTH = 12
export const BADGE_MAX = 100
const Password = v.pipe(v.string(), v.minLength(1, 'the password is required'), v.maxLength(SIGNATURE_PASSWORD_MAX))
const Pin = v.pipe(v.string(), v.minLength(1, 'the PIN is required'), v.maxLength(PIN_MAX_LENGTH))
const Badge = v.pipe(v.string(), v.trim(), v.minLength(1, 'the badge is required'), v.maxLength(BADGE_MAX))

/** How the acting user proves it is them: the password, or the PIN. */
export type SignerCredential = { password: string } | { pin: string }

/** How a second signer names and proves themselves: username and password, or badge and PIN. */
export const SecondSignerInput = v.union(
  [
    v.strictObject({
      username: v.pipe(v.string(), v.trim(), v.minLength(1, 'the second signer username is required'), v.maxLength(200)),
      password: Password,
    }),
    v.strictObject({ badge: Badge, pin: Pin }),
  ],
  'second_signer: send username and password, or badge and pin',
)
export type SecondSignerInput = v.InferOutput<typeof SecondSignerInput>

/** What a signed action carries: the acting user's password or PIN and, where required, the second signer. */
export const SignatureInput = v.union(
  [
    v.strictObject({ password: Password, second_signer: v.optional(SecondSignerInput) }),
    v.strictObject({ pin: Pin, second_signer: v.optional(SecondSignerInput) }),
  ],
  'signature: send password or pin (and second_signer where required)',
)
export type SignatureInput = v.InferOutput<typeof SignatureInput>

export const SIGNATURE_ROLES = ['signer', 'second_signer'] as const
/**
 * What can be signed: a batch step, a released revision, an issue (closed while critical), and
 * the corrections recorded by an event (a serial's data, a job's progress or times, a movement's
 * revert). See docs/signatures.md for each one's key and signed content.
 */
export const SIGNATURE_SUBJECTS = ['batch_step', 'revision', 'issue', 'serial_correction', 'job_correction', 'movement_revert'] as const
export type SignatureSubject = (typeof SIGNATURE_SUBJECTS)[number]

/** Actions the plant's settings can require a signature for, each with the meaning chosen there. */
export const SIGNED_ACTIONS = ['revision_release', 'critical_issue_close', 'serial_correction', 'job_correction', 'movement_revert'] as const
export type SignedAction = (typeof SIGNED_ACTIONS)[number]
/** The general setting holding an action's required meaning (null: no signature). */
export const signatureSettingKey = <A extends SignedAction>(action: A) => `signature_${action}` as const

/** A signature as records show it: who, when (server time, UTC ms), what it means, and whether the signed content still matches. */
export const SignatureView = v.object({
  _key: v.string(),
  subject_type: v.picklist(SIGNATURE_SUBJECTS),
  /**
   * `batch_step`: `<batch key>:<step key>`; `revision`: the revision key; `issue`: the issue key;
   * a correction: `<serial, job or movement key>:<event key>` (the event that recorded it).
   */
  subject_key: v.string(),
  batch_key: v.nullable(v.string()),
  step_key: v.nullable(v.string()),
  meaning: v.picklist(SIGNATURE_MEANINGS),
  role: v.picklist(SIGNATURE_ROLES),
  /** For a second signer: the permission word they were asked to hold. */
  required_scope: v.nullable(v.string()),
  user_key: v.string(),
  /** The signer's full name when signing. */
  full_name: v.string(),
  signed_at: v.number(),
  /** SHA-256 (hex) of the canonical content signed. */
  content_hash: v.string(),
  /** False when the content recomputed from today's data no longer hashes the same: it changed after signing. */
  valid: v.boolean(),
})
export type SignatureView = v.InferOutput<typeof SignatureView>
