import type { Config } from './config'
import type { Clock } from './clock'
import type { Db, DatabaseKind } from './db/connect'
import type { AuthSession, User } from './db/schema'
import type { FileStore } from './storage/file-store'

/** Long-lived dependencies, built once at start (or per test). */
export type Services = { db: Db; dbKind: DatabaseKind; clock: Clock; config: Config; files: FileStore }

export type Auth =
  | { via: 'session'; user: User; session: AuthSession; idleLockMs: number; cookie: boolean }
  | { via: 'token'; user: User; tokenId: string; scope: string }

/** Who acts, as services and events see it. */
export type Actor = {
  userId: string
  sessionId: string | null
  scope: string
  tokenId: string | null
  /** Signed in with a temporary password not yet replaced: only the own preferences may change. */
  mustChangePassword?: boolean
}

export type RequestCtx = Services & {
  auth: Auth | null
  /** The source address and scheme (src-server/auth/client-address.ts: proxies only when trusted). */
  client: { ip: string | null; https: boolean; userAgent: string | null }
  /** Set by polls (header `x-mes-background: 1`): such calls are not user activity. */
  background: boolean
  method: string
  /** True when a cookie-authenticated unsafe request came from another origin. */
  crossOrigin: boolean
}

export function actorOf(auth: Auth): Actor {
  return auth.via === 'session'
    ? { userId: auth.user.id, sessionId: auth.session.id, scope: auth.user.scope, tokenId: null, mustChangePassword: auth.user.must_change_password }
    : { userId: auth.user.id, sessionId: null, scope: auth.scope, tokenId: auth.tokenId }
}
