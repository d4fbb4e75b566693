import { hasScope, type Scope } from '../../src/auth/scopes'
import type { Actor, RequestCtx } from '../context'
import { actorOf } from '../context'
import { AppError, forbidden, unauthorized } from '../errors'
import { isIdle, setSessionLocked, touchSession } from './sessions'

/**
 * Who may call a procedure or route, declared where it is declared.
 * `scope`: 'public', 'signed-in' (any permission), or the permission(s) of which one is needed.
 */
export type Access = {
  scope: 'public' | 'signed-in' | Scope | readonly Scope[]
  /** Answers even while the session is locked (unlock, logout, job heartbeat). */
  whileLocked?: true
  /** Answers before a temporary password has been replaced (whoami, session, change password, logout). */
  beforePasswordChange?: true
  /** Not user activity: never keeps a session unlocked (job heartbeat). */
  notActivity?: true
}

export function requiredScopes(access: Access): Scope[] {
  if (access.scope === 'public' || access.scope === 'signed-in') return []
  return typeof access.scope === 'string' ? [access.scope] : [...access.scope]
}

/** The one gate for tRPC and REST alike. Returns the acting user, or null for public access. */
export async function authorize(ctx: RequestCtx, access: Access): Promise<Actor | null> {
  if (access.scope === 'public') return null
  const auth = ctx.auth
  if (!auth) throw unauthorized('NOT_AUTHENTICATED', 'login first')
  if (ctx.crossOrigin) throw forbidden('BAD_ORIGIN', 'request origin does not match the application')
  const now = ctx.clock.now()
  if (auth.via === 'session') {
    const valid = { session: auth.session, user: auth.user, idleLockMs: auth.idleLockMs }
    if (isIdle(valid, now)) {
      if (!auth.session.locked) {
        await setSessionLocked(ctx.db, auth.session.id, true, now)
        auth.session.locked = true
      }
      if (!access.whileLocked) {
        throw new AppError(423, 'SESSION_LOCKED', 'session locked: unlock with your password', {
          username: auth.user.username,
        })
      }
    }
    if (auth.user.must_change_password && !access.beforePasswordChange) {
      throw forbidden('PASSWORD_CHANGE_REQUIRED', 'change your temporary password first')
    }
  }
  const actor = actorOf(auth)
  const needed = requiredScopes(access)
  if (needed.length > 0 && !needed.some((s) => hasScope(actor.scope, s))) {
    throw forbidden('NOT_AUTHORISED', 'not authorised')
  }
  if (auth.via === 'session' && !auth.session.locked && !access.notActivity && !ctx.background) {
    await touchSession(ctx.db, auth.session, now)
  }
  return actor
}
