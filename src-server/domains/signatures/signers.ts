/**
 * Who signs (issue 22): the acting user proves it is them with their password, or their
 * personal PIN where the plant's settings allow it; a second signer with username and password,
 * or badge and PIN. Every credential is checked with the sign-in's argon2id verification and
 * counted in the sign-in throttling (src-server/auth/throttle.ts) under the account it names, so
 * guessing a password or a PIN through a signature dialog is held exactly like guessing at the
 * login, and makes the login wait too. Runs before the signed action's transaction: the
 * throttle's counts commit on their own, and a refused signature writes nothing else.
 *
 * `checkSigner` and `checkSecondSigner` are the one place credentials are checked: every signed
 * action goes through them (or through `verifiedSigners`, which combines them).
 */
import { hasScope, type Scope } from '../../../src/auth/scopes'
import type { StepSignature } from '../../../src/domains/process/steps'
import type { SecondSignerInput, SignatureInput, SignerCredential } from '../../../src/domains/signatures/schemas'
import { verifyPassword } from '../../auth/password'
import { throttledCheck } from '../../auth/throttle'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, forbidden, unprocessable } from '../../errors'
import { readSettings } from '../settings/queries'

export type Signer = { userId: string; fullName: string; role: 'signer' | 'second_signer'; requiredScope: Scope | null }

const fullName = (u: { name: string; surname: string; username: string }) => `${u.name} ${u.surname}`.trim() || u.username

function findUser(db: Db, where: { id: string } | { username: string } | { badge: string }) {
  const q = db.selectFrom('users').select(['id', 'username', 'name', 'surname', 'scope', 'password_hash', 'pin_hash', 'enabled', 'archived_at'])
  if ('id' in where) return q.where('id', '=', where.id).executeTakeFirst()
  if ('badge' in where) return q.where('badge', '=', where.badge).executeTakeFirst()
  return q.where((eb) => eb(eb.fn('lower', ['username']), '=', where.username.toLowerCase())).executeTakeFirst()
}
type SignerRow = NonNullable<Awaited<ReturnType<typeof findUser>>>

/** 422 PIN_SIGNING_DISABLED unless the plant allows signing with a PIN; checked before anything is counted. */
async function assertPinAllowed(db: Db): Promise<void> {
  if (!(await readSettings(db)).pin_signing) {
    throw unprocessable('PIN_SIGNING_DISABLED', "signing with a PIN is not allowed by the plant's settings: use the password")
  }
}

/** The password or the PIN against its hash; a missing user or PIN is checked against a dummy hash, so timing tells nothing. */
function credentialMatches(user: SignerRow | undefined, credential: { password: string } | { pin: string }): Promise<boolean> {
  return 'pin' in credential ? verifyPassword(credential.pin, user?.pin_hash) : verifyPassword(credential.password, user?.password_hash)
}

/**
 * The acting user signs: refuses 422 PIN_SIGNING_DISABLED (a PIN while the setting is off),
 * 400 SIGNATURE_INVALID (wrong password or PIN, or no PIN set), 429 LOGIN_THROTTLED.
 */
export async function checkSigner(db: Db, actor: Actor, credential: SignerCredential, ip: string | null, now: Date): Promise<Signer> {
  if ('pin' in credential) await assertPinAllowed(db)
  const me = await findUser(db, { id: actor.userId })
  if (!me) throw forbidden('NOT_AUTHORISED', 'the signed-in user no longer exists')
  if (!(await throttledCheck(db, me.username, ip, now, () => credentialMatches(me, credential)))) {
    const pin = 'pin' in credential
    throw badRequest('SIGNATURE_INVALID', `wrong ${pin ? 'PIN' : 'password'}: nothing was signed`, { credential: pin ? 'pin' : 'password' })
  }
  return { userId: me.id, fullName: fullName(me), role: 'signer', requiredScope: null }
}

/**
 * A second signer holding `scope`, other than `first`: refuses 422 PIN_SIGNING_DISABLED,
 * SECOND_SIGNER_SAME_PERSON, 400 SECOND_SIGNER_INVALID (unknown username or badge, disabled,
 * archived, wrong password or PIN; alike in answer and timing), 403 SECOND_SIGNER_NOT_ALLOWED
 * (lacks the permission word), 429 LOGIN_THROTTLED.
 */
export async function checkSecondSigner(
  db: Db,
  first: Signer,
  credential: SecondSignerInput,
  scope: Scope,
  ip: string | null,
  now: Date,
): Promise<Signer> {
  const byBadge = 'badge' in credential
  if (byBadge) await assertPinAllowed(db)
  const other = await findUser(db, byBadge ? { badge: credential.badge } : { username: credential.username })
  if (other?.id === first.userId) {
    throw unprocessable('SECOND_SIGNER_SAME_PERSON', 'the second signer must be another person')
  }
  // An unknown badge is throttled under a name no username can take (usernames hold no ':').
  const account = other?.username ?? (byBadge ? `badge:${credential.badge}` : credential.username)
  const theirs = async () => (await credentialMatches(other, credential)) && !!other && other.enabled && !other.archived_at
  if (!(await throttledCheck(db, account, ip, now, theirs)) || !other) {
    throw badRequest('SECOND_SIGNER_INVALID', `wrong ${byBadge ? 'badge or PIN' : 'username or password'} of the second signer: nothing was signed`, {
      credential: byBadge ? 'badge' : 'password',
    })
  }
  if (!hasScope(other.scope, scope)) {
    throw forbidden('SECOND_SIGNER_NOT_ALLOWED', `the second signer needs the ${scope} permission`, { second_signer: scope })
  }
  return { userId: other.id, fullName: fullName(other), role: 'second_signer', requiredScope: scope }
}

/**
 * The signers of an action that requires `required`: refuses 422 SIGNATURE_REQUIRED (nothing
 * sent) or SECOND_SIGNER_REQUIRED, then whatever `checkSigner` and `checkSecondSigner` refuse.
 */
export async function verifiedSigners(
  db: Db,
  actor: Actor,
  required: StepSignature,
  input: SignatureInput | undefined,
  ip: string | null,
  now: Date,
): Promise<Signer[]> {
  if (!input) throw unprocessable('SIGNATURE_REQUIRED', `this action must be signed (${required.meaning}): send signature.password or signature.pin`, { meaning: required.meaning })
  const secondScope = required.second_signer
  if (secondScope && !input.second_signer) {
    throw unprocessable('SECOND_SIGNER_REQUIRED', `a second signer with the ${secondScope} permission must sign too`, { second_signer: secondScope })
  }
  const { second_signer, ...credential } = input
  const signer = await checkSigner(db, actor, credential, ip, now)
  if (!secondScope || !second_signer) return [signer]
  return [signer, await checkSecondSigner(db, signer, second_signer, secondScope, ip, now)]
}
