import { LIVE_RESYNC, LIVE_TOPICS, type LiveEvent, type LiveTopic, topicsForScope } from '../../src/domains/live/schemas'
import { isIdle } from '../auth/sessions'
import type { Auth, Services } from '../context'
import { isDatabaseUnavailable } from '../db/unavailable'
import { AppError, databaseUnavailable, forbidden, unauthorized } from '../errors'
import { chainedSince, liveHub, newestSeq } from './hub'

/** Sent when the gap since a reconnecting client's last event is too long to replay: refetch everything. */
export type LiveResync = { id: number; type: typeof LIVE_RESYNC }
export type LiveMessage = LiveEvent | LiveResync

export const LIVE_LIMITS = {
  /** At most this many events are replayed after a reconnect; a longer gap answers RESYNC. */
  replayMax: 500,
  /** A gap older than this answers RESYNC as well (the screens refetch rather than replay an hour). */
  replayMaxAgeMs: 60 * 60_000,
  /** Events waiting for a slow client; beyond it the client gets RESYNC instead. */
  bufferMax: 1_000,
  /** How often a subscription checks that its session or token is still live. */
  recheckMs: 10_000,
}

/** Events that may end or change a session, a token or a user's scope: re-check at once. */
const ACCESS_SUBJECTS = new Set(['user', 'session', 'api_token'])

export type LiveStreamOptions = {
  topics?: readonly LiveTopic[]
  lastEventId?: number | null
  signal?: AbortSignal
}

/** The scope the caller holds now, or why it may no longer listen. */
async function currentScope(svc: Services, auth: Auth): Promise<string | AppError> {
  const now = svc.clock.now()
  if (auth.via === 'token') {
    const row = await svc.db
      .selectFrom('api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.created_by')
      .select(['t.scope', 't.revoked_at', 't.expires_at', 'u.enabled', 'u.archived_at'])
      .where('t.id', '=', auth.tokenId)
      .executeTakeFirst()
    if (!row || row.revoked_at || row.expires_at.getTime() <= now.getTime() || !row.enabled || row.archived_at) {
      return unauthorized('NOT_AUTHENTICATED', 'the API token was revoked or has expired')
    }
    return row.scope
  }
  const row = await svc.db
    .selectFrom('auth_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select(['u.scope', 'u.enabled', 'u.archived_at'])
    .where('s.id', '=', auth.session.id)
    .executeTakeFirst()
  const t = now.getTime()
  if (!row || row.ended_at || row.expires_at.getTime() <= t || row.absolute_expires_at.getTime() <= t || !row.enabled || row.archived_at) {
    return unauthorized('NOT_AUTHENTICATED', 'the session has ended')
  }
  if (isIdle({ session: row, user: auth.user, idleLockMs: auth.idleLockMs }, now)) {
    return new AppError(423, 'SESSION_LOCKED', 'session locked: unlock with your password', { username: auth.user.username })
  }
  return row.scope
}

const scopeOf = (auth: Auth) => (auth.via === 'token' ? auth.scope : auth.user.scope)

/** The topics asked for, each of which the caller's scope must allow (as the matching queries do). */
export function checkedTopics(auth: Auth, asked: readonly LiveTopic[] | undefined): LiveTopic[] {
  const allowed = topicsForScope(scopeOf(auth))
  if (!asked || asked.length === 0) {
    if (allowed.length === 0) throw forbidden('NOT_AUTHORISED', 'not authorised')
    return allowed
  }
  const refused = asked.filter((t) => !allowed.includes(t))
  if (refused.length) throw forbidden('NOT_AUTHORISED', `not authorised for topics: ${refused.join(', ')}`)
  return LIVE_TOPICS.filter((t) => asked.includes(t))
}

/** A small queue between the hub (push, synchronous) and one subscriber's loop (await next). */
class Inbox {
  items: LiveEvent[] = []
  overflowed = false
  private wake: (() => void) | null = null
  push(e: LiveEvent) {
    if (this.items.length >= LIVE_LIMITS.bufferMax) this.overflowed = true
    else this.items.push(e)
    this.poke()
  }
  poke() {
    const w = this.wake
    this.wake = null
    w?.()
  }
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve
    })
  }
}

/**
 * The live events a caller may see, as they commit on any instance: first (after a reconnect)
 * the ones appended since `lastEventId`, read back from the events table, then the new ones.
 * Filtered by topic and by the caller's scope, re-checked every `recheckMs` and at once on any
 * user, session or token event: a revoked session or token ends the stream with 401, a locked
 * session with 423. Used by the tRPC subscription and the REST stream alike.
 *
 * Resolves once this instance LISTENs for the caller (topics refused: 403 before that), so any
 * change committed after it is delivered. Aborting `signal` ends it and frees its place.
 */
export async function openLiveEvents(svc: Services, auth: Auth, opts: LiveStreamOptions = {}): Promise<AsyncGenerator<LiveMessage>> {
  const topics = new Set(checkedTopics(auth, opts.topics))
  let words = new Set(scopeOf(auth).split(/\s+/))
  const visible = (e: LiveEvent) => topics.has(e.topic) && e.scopes.some((s) => words.has(s))

  const inbox = new Inbox()
  let recheckDue = false
  const recheckSoon = () => {
    recheckDue = true
    inbox.poke()
  }
  let ended = false
  const unsubscribe = await liveHub(svc.db).subscribe(
    (e) => {
      if (e.subject_type && ACCESS_SUBJECTS.has(e.subject_type)) recheckSoon()
      if (visible(e)) inbox.push(e)
    },
    () => {
      ended = true
      inbox.poke()
    },
  )
  const timer = setInterval(recheckSoon, LIVE_LIMITS.recheckMs)
  const close = () => {
    unsubscribe()
    clearInterval(timer)
    opts.signal?.removeEventListener('abort', onAbort)
    inbox.poke()
  }
  const onAbort = () => close()
  opts.signal?.addEventListener('abort', onAbort)
  if (opts.signal?.aborted) close()

  async function* run(): AsyncGenerator<LiveMessage> {
    try {
      // Replay: everything after the client's last event, then the live ones not already sent (a
      // replayed event's NOTIFY may still arrive after the replay: the set, at most replayMax ids, stays).
      let replayed: Set<number> | null = null
      if (opts.lastEventId != null) {
        const gap = await replay(svc, opts.lastEventId)
        if (gap === 'too-old') {
          yield { id: await lastEventId(svc), type: LIVE_RESYNC }
        } else {
          replayed = new Set()
          for (const e of gap) {
            replayed.add(e.id)
            if (visible(e)) yield e
          }
        }
      }
      while (!opts.signal?.aborted && !ended) {
        if (recheckDue) {
          recheckDue = false
          const scope = await currentScope(svc, auth)
          if (scope instanceof AppError) throw scope
          words = new Set(scope.split(/\s+/))
        }
        if (inbox.overflowed) {
          inbox.overflowed = false
          inbox.items = []
          yield { id: await lastEventId(svc), type: LIVE_RESYNC }
          continue
        }
        const batch = inbox.items
        if (batch.length === 0) {
          await inbox.wait()
          continue
        }
        inbox.items = []
        for (const e of batch) {
          // Replayed already, or at or before the client's last event: the hub's catch-up after a
          // lost LISTEN connection may bring events this client had from an earlier stream.
          if (replayed?.has(e.id) || (opts.lastEventId != null && e.id <= opts.lastEventId)) continue
          // The scope may have changed since the event was queued.
          if (visible(e)) yield e
        }
      }
    } catch (e) {
      // The database went away mid-stream (a re-check, a replay): the client reconnects with its last event id.
      throw isDatabaseUnavailable(e) ? databaseUnavailable() : e
    } finally {
      close()
    }
  }
  return run()
}

/** `openLiveEvents` as one generator (the tRPC subscription). */
export async function* liveEvents(svc: Services, auth: Auth, opts: LiveStreamOptions = {}): AsyncGenerator<LiveMessage> {
  yield* await openLiveEvents(svc, auth, opts)
}

const lastEventId = (svc: Services) => newestSeq(svc.db)

/** The events chained after link `after`, in commit order, or 'too-old' when there are too many or they go back too far. */
async function replay(svc: Services, after: number): Promise<LiveEvent[] | 'too-old'> {
  const rows = await chainedSince(svc.db, after, LIVE_LIMITS.replayMax + 1)
  if (rows.length > LIVE_LIMITS.replayMax) return 'too-old'
  const oldest = rows[0]
  if (oldest && svc.clock.now().getTime() - oldest.created_at.getTime() > LIVE_LIMITS.replayMaxAgeMs) return 'too-old'
  return rows.map((row) => row.event)
}
