/**
 * Who signs (issue 22): the acting user proves it is them with their password, a second signer
 * with username and password, both checked with the sign-in's password hashing and counted in
 * the sign-in throttling (src-server/auth/throttle.ts), so guessing through a signature dialog
 * is held exactly like guessing at the login. Runs before the signed action's transaction: the
 * throttle's counts commit on their own, and a refused signature writes nothing else.
 */
import { hasScope, type Scope } from '../../../src/auth/scopes'
import type { StepSignature } from '../../../src/domains/process/steps'
import type { SignatureInput } from '../../../src/domains/signatures/schemas'
import { verifyPassword } from '../../auth/password'
import { throttledCheck } from '../../auth/throttle'
import type { Actor } from '../../context'
import type { Db } from '../../db/connect'
import { badRequest, forbidden, unprocessable } from '../../errors'

export type Signer = { userId: string; fullName: string; role: 'signer' | 'second_signer'; requiredScope: Scope | null }

const fullName = (u: { name: string; surname: string; username: string }) => `${u.name} ${u.surname}`.trim() || u.username

function findUser(db: Db, where: { id: string } | { username: string }) {
  const q = db.selectFrom('users').select(['id', 'username', 'name', 'surname', 'scope', 'password_hash', 'enabled', 'archived_at'])
  return 'id' in where
    ? q.where('id', '=', where.id).executeTakeFirst()
    : q.where((eb) => eb(eb.fn('lower', ['username']), '=', where.username.toLowerCase())).executeTakeFirst()
}

/**
 * The signers of an action that requires `required`: refuses 422 SIGNATURE_REQUIRED (nothing
 * sent) or SECOND_SIGNER_REQUIRED, 400 SIGNATURE_INVALID (the actor's password is wrong),
 * SECOND_SIGNER_SAME_PERSON, 400 SECOND_SIGNER_INVALID (unknown, disabled or wrong password),
 * 403 SECOND_SIGNER_NOT_ALLOWED (lacks the permission word); 429 LOGIN_THROTTLED while the
 * sign-in throttle makes this account and address wait.
 */
export async function verifiedSigners(
  db: Db,
  actor: Actor,
  required: StepSignature,
  input: SignatureInput | undefined,
  ip: string | null,
  now: Date,
): Promise<Signer[]> {
  if (!input) throw unprocessable('SIGNATURE_REQUIRED', `this action must be signed (${required.meaning}): send signature.password`, { meaning: required.meaning })
  const secondScope = required.second_signer
  if (secondScope && !input.second_signer) {
    throw unprocessable('SECOND_SIGNER_REQUIRED', `a second signer with the ${secondScope} permission must sign too`, { second_signer: secondScope })
  }
  const me = await findUser(db, { id: actor.userId })
  if (!me) throw forbidden('NOT_AUTHORISED', 'the signed-in user no longer exists')
  const mine = () => verifyPassword(input.password, me.password_hash)
  if (!(await throttledCheck(db, me.username, ip, now, mine))) throw badRequest('SIGNATURE_INVALID', 'wrong password: nothing was signed')
  const signers: Signer[] = [{ userId: me.id, fullName: fullName(me), role: 'signer', requiredScope: null }]
  if (!secondScope || !input.second_signer) return signers

  const second = input.second_signer
  if (second.username.toLowerCase() === me.username.toLowerCase()) {
    throw unprocessable('SECOND_SIGNER_SAME_PERSON', 'the second signer must be another person')
  }
  const other = await findUser(db, { username: second.username })
  // Checked even for unknown users (against a dummy hash), like the login, so timing tells nothing.
  const theirs = async () => (await verifyPassword(second.password, other?.password_hash)) && !!other && other.enabled && !other.archived_at
  if (!(await throttledCheck(db, second.username, ip, now, theirs)) || !other) {
    throw badRequest('SECOND_SIGNER_INVALID', 'wrong username or password of the second signer: nothing was signed')
  }
  if (!hasScope(other.scope, secondScope)) {
    throw forbidden('SECOND_SIGNER_NOT_ALLOWED', `the second signer needs the ${secondScope} permission`, { second_signer: secondScope })
  }
  signers.push({ userId: other.id, fullName: fullName(other), role: 'second_signer', requiredScope: secondScope })
  return signers
}
