import { DEFAULT_SETTINGS } from '../../src/domains/settings/schemas'
import type { Db } from '../db/connect'
import type { AuthSession, User } from '../db/schema'
import { readSession } from './session-reads'
import { newCredential, secretMatches, splitCredential } from './secrets'

const HOUR = 3_600_000
/** A session unused this long expires; every use pushes the expiry forward (sliding). */
export const SESSION_SLIDING_MS = 12 * HOUR
/** No session lives longer than this, however active. */
export const SESSION_ABSOLUTE_MS = 14 * 24 * HOUR
/** Activity and expiry are written at most this often per session, to keep reads cheap. */
const TOUCH_EVERY_MS = 15_000

export type ValidSession = { session: AuthSession; user: User; idleLockMs: number }

export async function createSession(
  db: Db,
  userId: string,
  now: Date,
  client: { ip: string | null; userAgent: string | null },
): Promise<{ token: string; session: AuthSession }> {
  const { id, token, secretHash } = newCredential()
  const session = await db
    .insertInto('auth_sessions')
    .values({
      id,
      secret_hash: secretHash,
      user_id: userId,
      created_at: now,
      expires_at: new Date(now.getTime() + SESSION_SLIDING_MS),
      absolute_expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      last_activity_at: now,
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 300) ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { token, session }
}

/** The session and its user when the token is valid, live and the user may still sign in. */
export async function validateSessionToken(db: Db, token: string, now: Date): Promise<ValidSession | null> {
  const parts = splitCredential(token)
  if (!parts) return null
  const row = await readSession(db, parts.id)
  if (!row || !secretMatches(parts.secret, row.secret_hash)) return null
  const { user: rawUser, idle_lock_minutes, ...session } = row
  const user = reviveUser(rawUser)
  const t = now.getTime()
  if (session.ended_at || session.expires_at.getTime() <= t || session.absolute_expires_at.getTime() <= t) return null
  if (!user.enabled || user.archived_at) return null
  return { session, user, idleLockMs: (idle_lock_minutes ?? DEFAULT_SETTINGS.idle_lock_minutes) * 60_000 }
}

// to_jsonb turns timestamps and numerics into JSON strings/numbers; bring them back to our types.
function reviveUser(u: User): User {
  const date = (v: unknown) => (v ? new Date(v as string) : null)
  return {
    ...u,
    created_at: new Date(u.created_at as unknown as string),
    last_login_at: date(u.last_login_at),
    archived_at: date(u.archived_at),
    hourly_cost: u.hourly_cost === null ? null : Number(u.hourly_cost),
  }
}

export function isIdle(valid: ValidSession, now: Date): boolean {
  return valid.session.locked || now.getTime() - valid.session.last_activity_at.getTime() > valid.idleLockMs
}

/** Records user activity and slides the expiry, at most every TOUCH_EVERY_MS. */
export async function touchSession(db: Db, session: AuthSession, now: Date): Promise<void> {
  if (now.getTime() - session.last_activity_at.getTime() < TOUCH_EVERY_MS) return
  const expires = Math.min(now.getTime() + SESSION_SLIDING_MS, session.absolute_expires_at.getTime())
  await db
    .updateTable('auth_sessions')
    .set({ last_activity_at: now, expires_at: new Date(expires) })
    .where('id', '=', session.id)
    .where('locked', '=', false)
    .execute()
}

export async function setSessionLocked(db: Db, sessionId: string, locked: boolean, now: Date): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set(locked ? { locked: true } : { locked: false, last_activity_at: now })
    .where('id', '=', sessionId)
    .execute()
}

export async function endSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('auth_sessions').set({ ended_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute()
}

export async function endUserSessions(db: Db, userId: string, now: Date, exceptSessionId?: string): Promise<void> {
  let q = db.updateTable('auth_sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null)
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId)
  await q.execute()
}
