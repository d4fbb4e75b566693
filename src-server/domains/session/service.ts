import type * as v from 'valibot'
import { hasScope } from '../../../src/auth/scopes'
import { DEFAULT_PREFERENCES, type LoginInput, type Preferences, type SessionInfo } from '../../../src/domains/session/schemas'
import { pinProblem } from '../../../src/domains/signatures/pin'
import { PIN_MAX_LENGTH } from '../../../src/domains/signatures/schemas'
import { hashPassword, verifyPassword } from '../../auth/password'
import { createSession, endSession, endUserSessions, setSessionLocked, validateSessionToken } from '../../auth/sessions'
import { throttledCheck } from '../../auth/throttle'
import type { Actor, Auth, RequestCtx, Services } from '../../context'
import type { User } from '../../db/schema'
import { badRequest, forbidden, notFound, unauthorized, unprocessable } from '../../errors'
import { appendEvent } from '../events/service'
import { pauseJobsOfSession } from '../execution/start-pause'
import { readSettings } from '../settings/queries'

const LOGIN_FAILED = 'Incorrect username or password'

export async function login(
  svc: Services,
  input: v.InferOutput<typeof LoginInput>,
  client: RequestCtx['client'],
): Promise<{ token: string; user_key: string; must_change_password: boolean; session: SessionInfo }> {
  const now = svc.clock.now()
  const user = await svc.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', input.username.toLowerCase()))
    .executeTakeFirst()
  const signsIn = async () => {
    // The password is checked even for unknown users (against a dummy hash) so timing tells nothing.
    const passwordOk = await verifyPassword(input.password, user?.password_hash)
    return passwordOk && user !== undefined && user.enabled && !user.archived_at
  }
  if (!(await throttledCheck(svc.db, input.username, client.ip, now, signsIn)) || !user) {
    throw unauthorized('LOGIN_FAILED', LOGIN_FAILED)
  }
  const token = await svc.db.transaction().execute(async (trx) => {
    const { token, session } = await createSession(trx, user.id, now, client)
    await trx.updateTable('users').set({ last_login_at: now }).where('id', '=', user.id).execute()
    const actor: Actor = { userId: user.id, sessionId: session.id, scope: user.scope, tokenId: null }
    await appendEvent(trx, actor, { event_type: 'LOGIN', subject_type: 'user', subject_key: user.id, data: { ip: client.ip } }, now)
    return token
  })
  // The new session read back as every later request reads it, so the answer matches POST session.
  const valid = await validateSessionToken(svc.db, token, now)
  if (!valid) throw new Error('a session just created does not validate')
  return {
    token,
    user_key: user.id,
    must_change_password: user.must_change_password,
    session: sessionInfoOf({ via: 'session', ...valid, cookie: false }),
  }
}

export function whoami(auth: Auth) {
  return {
    user_key: auth.user.id,
    session_key: auth.via === 'session' ? auth.session.id : null,
    locked: auth.via === 'session' ? auth.session.locked : false,
  }
}

export function preferencesOf(user: User): Preferences {
  return { ...DEFAULT_PREFERENCES, ...(user.preferences as Partial<Preferences>) }
}

/** SPEC `POST session {user_key}`: the signed-in user's session details; another user's key is refused. */
export async function sessionInfo(_ctx: RequestCtx, auth: Auth, userKey: string): Promise<SessionInfo> {
  if (userKey !== auth.user.id) throw forbidden('WRONG_USER_ID', 'wrong user ID')
  return sessionInfoOf(auth)
}

/** The session details of a recognised caller (POST session, and the sign-in answer). */
function sessionInfoOf(auth: Auth): SessionInfo {
  const user = auth.user
  return {
    user_key: user.id,
    session_key: auth.via === 'session' ? auth.session.id : '',
    username: user.username,
    name: user.name,
    surname: user.surname,
    scope: auth.via === 'session' ? user.scope : auth.scope,
    preferences: preferencesOf(user),
    must_change_password: user.must_change_password,
    idle_lock_minutes: auth.via === 'session' ? Math.round(auth.idleLockMs / 60_000) : 0,
    has_pin: user.pin_hash !== null,
  }
}

export async function logout(ctx: RequestCtx, actor: Actor): Promise<void> {
  if (!actor.sessionId) return
  const now = ctx.clock.now()
  await ctx.db.transaction().execute(async (trx) => {
    // Signing out with a running job pauses it (execution hook; a 401 sign-out never gets here).
    await pauseJobsOfSession(trx, actor, actor.sessionId as string, now)
    await endSession(trx, actor.sessionId as string, now)
    await appendEvent(trx, actor, { event_type: 'LOGOUT', subject_type: 'user', subject_key: actor.userId }, now)
  })
}

/** `DELETE session/{session_key}`: ends one of the caller's own sessions (admins: anyone's). */
export async function deleteSession(ctx: RequestCtx, actor: Actor, sessionKey: string): Promise<void> {
  const now = ctx.clock.now()
  const target = await ctx.db.selectFrom('auth_sessions').select(['id', 'user_id']).where('id', '=', sessionKey).executeTakeFirst()
  if (!target || (target.user_id !== actor.userId && !hasScope(actor.scope, 'admin'))) {
    throw notFound('NOT_FOUND', 'session not found')
  }
  await ctx.db.transaction().execute(async (trx) => {
    // SPEC 4: the client deletes the session when signing out with an active job: pause it (execution hook).
    await pauseJobsOfSession(trx, actor, target.id, now)
    await endSession(trx, target.id, now)
    await appendEvent(trx, actor, { event_type: 'SESSION_DELETED', subject_type: 'session', subject_key: target.id }, now)
  })
}

export async function lock(ctx: RequestCtx, auth: Auth): Promise<void> {
  if (auth.via !== 'session') return
  await setSessionLocked(ctx.db, auth.session.id, true, ctx.clock.now())
}

export async function unlock(ctx: RequestCtx, auth: Auth, password: string): Promise<void> {
  if (auth.via !== 'session') return
  const now = ctx.clock.now()
  if (!(await throttledCheck(ctx.db, auth.user.username, ctx.client.ip, now, () => verifyPassword(password, auth.user.password_hash)))) {
    // Not 401: a wrong unlock password must not sign the user out.
    throw badRequest('WRONG_PASSWORD', 'wrong password')
  }
  await setSessionLocked(ctx.db, auth.session.id, false, now)
}

/** Replaces the password (temporary ones included) and ends the user's other sessions. */
export async function changePassword(
  ctx: RequestCtx,
  auth: Auth,
  actor: Actor,
  input: { current_password: string; new_password: string },
): Promise<void> {
  if (auth.via !== 'session') throw forbidden('NOT_AUTHORISED', 'API tokens cannot change passwords')
  // Guessing the current password here is throttled like a sign-in.
  const currentOk = () => verifyPassword(input.current_password, auth.user.password_hash)
  if (!(await throttledCheck(ctx.db, auth.user.username, ctx.client.ip, ctx.clock.now(), currentOk))) {
    throw badRequest('WRONG_PASSWORD', 'wrong password')
  }
  if (input.current_password === input.new_password) {
    throw badRequest('WEAK_PASSWORD', 'the new password must differ from the current one')
  }
  const now = ctx.clock.now()
  const hash = await hashPassword(input.new_password)
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, must_change_password: false }).where('id', '=', auth.user.id).execute()
    await endUserSessions(trx, auth.user.id, now, auth.session.id)
    await appendEvent(trx, actor, { event_type: 'PASSWORD_CHANGED', subject_type: 'user', subject_key: auth.user.id }, now)
  })
}

/**
 * Sets or replaces the own signing PIN (docs/signatures.md): only while the plant allows PIN
 * signing (422 PIN_SIGNING_DISABLED), proven by the current password (throttled like a sign-in),
 * digits from the plant's minimum length (400 PIN_INVALID) and not a first guess (400
 * PIN_TOO_SIMPLE). Stored as its argon2id hash only.
 */
export async function setPin(ctx: RequestCtx, auth: Auth, actor: Actor, input: { current_password: string; new_pin: string }): Promise<void> {
  if (auth.via !== 'session') throw forbidden('NOT_AUTHORISED', 'API tokens cannot set a PIN')
  const settings = await readSettings(ctx.db)
  if (!settings.pin_signing) throw unprocessable('PIN_SIGNING_DISABLED', "signing with a PIN is not allowed by the plant's settings")
  const currentOk = () => verifyPassword(input.current_password, auth.user.password_hash)
  if (!(await throttledCheck(ctx.db, auth.user.username, ctx.client.ip, ctx.clock.now(), currentOk))) {
    throw badRequest('WRONG_PASSWORD', 'wrong password')
  }
  const problem = pinProblem(input.new_pin, settings.pin_min_length)
  const limits = { min_length: settings.pin_min_length, max_length: PIN_MAX_LENGTH }
  if (problem === 'PIN_INVALID') throw badRequest(problem, `the PIN must be ${limits.min_length} to ${limits.max_length} digits`, limits)
  if (problem) throw badRequest(problem, 'the PIN must not be one digit repeated or a run like 123456')
  const now = ctx.clock.now()
  const hash = await hashPassword(input.new_pin)
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ pin_hash: hash }).where('id', '=', auth.user.id).execute()
    // The event says that the PIN changed, never what it is.
    await appendEvent(trx, actor, { event_type: 'PIN_CHANGED', subject_type: 'user', subject_key: auth.user.id }, now)
  })
}
