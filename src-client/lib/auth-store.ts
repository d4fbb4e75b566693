import { notifications } from '@mantine/notifications'
import type { LoginResult, SessionInfo } from '../../src/domains/session/schemas'
import { type ApiError, isUnreachable, toApiError } from './api-error'
import { resetInteraction } from './activity'
import { forgetSession, rememberedSession, rememberSession } from './offline-session'
import { rest, setRestErrorHandler } from './rest'
import { queryClient, setTrpcErrorHandler, trpcClient } from './trpc'

/** How long the sign-in's answer stands for a whoami (the navigation it starts, not a later one). */
const SIGN_IN_FRESH_MS = 10_000

export type LoginReason = 'login-first' | 'session-terminated'

export type AuthState =
  | { status: 'unknown' }
  | { status: 'anonymous' }
  | { status: 'active'; session: SessionInfo }
  | { status: 'locked'; session: SessionInfo | null; username: string | null }

/** Calls whose 401 only means "not signed in" rather than "your session was ended" (SPEC 4). */
const QUIET_401 = new Set(['session.whoami', 'session.info', '/whoami', '/session', '/login', '/logout'])

/**
 * The client's view of the session (SPEC 4): unknown -> active after whoami and session info,
 * locked after the idle timeout, a reload or a restored snapshot; unlocked by password.
 */
export class AuthStore {
  private state: AuthState = { status: 'unknown' }
  private listeners = new Set<() => void>()
  /** A page load with a live session starts locked. */
  private firstCheck = true
  /**
   * When the sign-in answered, with the session: the navigation that follows it needs no whoami
   * of its own (one check skipped, once and only right after; every other navigation asks).
   */
  private signInAnsweredAt = 0
  /** Registered by the app: go to the login screen with a notice. */
  onSignedOut: (reason: LoginReason | null) => void = () => {}
  /**
   * Registered by the operator area (lib/heartbeat.ts): a job runs on this client. Signing out
   * then deletes the session on the server first, which pauses the job (SPEC 4 and 7).
   */
  hasActiveJob: () => boolean = () => false

  constructor() {
    const handle = (path: string, e: ApiError) => this.handleRefusal(path, e)
    setTrpcErrorHandler(handle)
    setRestErrorHandler(handle)
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  getState = () => this.state

  private set(state: AuthState) {
    this.state = state
    if (state.status === 'active') rememberSession(state.session)
    else if (state.status === 'anonymous') forgetSession()
    for (const l of this.listeners) l()
  }

  get session(): SessionInfo | null {
    return this.state.status === 'active' || this.state.status === 'locked' ? this.state.session : null
  }

  /** Restores a recent snapshot: the session comes back locked. */
  restoreLocked(session: SessionInfo | null) {
    this.firstCheck = false
    this.set({ status: 'locked', session, username: session?.username ?? null })
  }

  /** Recognises the session (whoami, then session info); called on every navigation. */
  async ensure(): Promise<AuthState> {
    const justSignedIn = Date.now() - this.signInAnsweredAt < SIGN_IN_FRESH_MS
    this.signInAnsweredAt = 0
    if (justSignedIn && this.state.status === 'active') return this.state
    try {
      const who = await trpcClient.session.whoami.query()
      const known = this.session
      const session =
        known && known.user_key === who.user_key && known.session_key === who.session_key
          ? known
          : await trpcClient.session.info.mutate({ user_key: who.user_key })
      if (this.firstCheck || this.state.status === 'locked') {
        // A reload, or a lock the server has not heard of (a restored snapshot): lock it there
        // too, or the API would keep answering behind the lock screen.
        this.firstCheck = false
        await trpcClient.session.lock.mutate()
        this.set({ status: 'locked', session, username: session.username })
      } else {
        this.set({ status: 'active', session })
      }
    } catch (e) {
      const err = toApiError(e)
      const firstCheck = this.firstCheck
      this.firstCheck = false
      const remembered = firstCheck && isUnreachable(err) && !this.session ? rememberedSession() : null
      if (remembered) {
        // Opened without network (the service worker's copy): locked, as any reload; only the server unlocks.
        this.set({ status: 'locked', session: remembered, username: remembered.username })
      } else if (err.code === 'SESSION_LOCKED') {
        this.set({ status: 'locked', session: this.session, username: (err.extra.username as string) ?? this.session?.username ?? null })
      } else if (err.status === 401) {
        this.set({ status: 'anonymous' })
      } else if (isUnreachable(err) && this.session) {
        // The server (or its database) cannot answer now: the known session stands, nobody is
        // signed out and the screen stays; its own data says it cannot load.
        return this.state
      } else {
        throw err
      }
    }
    return this.state
  }

  /** The sign-in answer carries the session details: the screen's data can start right after it. */
  async login(username: string, password: string): Promise<SessionInfo> {
    const { session } = await rest<LoginResult>('POST', '/login', { username, password })
    this.firstCheck = false
    this.signInAnsweredAt = Date.now()
    queryClient.clear()
    resetInteraction()
    notifications.clean()
    this.set({ status: 'active', session })
    return session
  }

  async refreshSession(): Promise<SessionInfo | null> {
    const known = this.session
    if (!known) return null
    const session = await trpcClient.session.info.mutate({ user_key: known.user_key })
    this.set(this.state.status === 'locked' ? { ...this.state, session } : { status: 'active', session })
    return session
  }

  lock() {
    if (this.state.status !== 'active') return
    this.set({ status: 'locked', session: this.state.session, username: this.state.session.username })
    // Tell the server too, so the lock cannot be bypassed by calling the API directly.
    trpcClient.session.lock.mutate().catch(() => {})
  }

  async unlock(password: string) {
    await rest('POST', '/session/unlock', { password })
    resetInteraction()
    const who = await trpcClient.session.whoami.query()
    const session = await trpcClient.session.info.mutate({ user_key: who.user_key })
    this.set({ status: 'active', session })
    await queryClient.invalidateQueries()
  }

  async logout() {
    // SPEC 7: DELETE session/{session_key} on logout, only when a job is active (the server
    // pauses it). A sign-out caused by a 401 never comes here (signedOut directly): no pause.
    const sessionKey = this.session?.session_key
    if (sessionKey && this.hasActiveJob()) {
      try {
        await rest('DELETE', `/session/${encodeURIComponent(sessionKey)}`)
      } catch (e) {
        // Ended on the server already (the 401 signed out here too); else the logout below
        // still ends the session, and pauses the job with it.
        if (toApiError(e).status === 401) return
      }
    }
    try {
      await rest('POST', '/logout')
    } catch {
      // Signed out on the server already: nothing else to end.
    }
    this.signedOut(null)
  }

  private signedOut(reason: LoginReason | null) {
    this.signInAnsweredAt = 0
    queryClient.clear()
    this.set({ status: 'anonymous' })
    this.onSignedOut(reason)
  }

  private handleRefusal(path: string, e: ApiError) {
    if (e.code === 'SESSION_LOCKED' && this.state.status === 'active') {
      this.set({ status: 'locked', session: this.state.session, username: this.state.session.username })
    } else if (e.status === 401 && !QUIET_401.has(path) && this.state.status !== 'anonymous') {
      // A logout caused by a 401 skips any job pause: the server has already ended the session.
      this.signedOut('session-terminated')
    } else if (e.code === 'PASSWORD_CHANGE_REQUIRED') {
      this.refreshSession().catch(() => {})
    }
  }
}

export const auth = new AuthStore()
