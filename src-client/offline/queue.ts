import { useSyncExternalStore } from 'react'
import { ApiError, isUnreachable, toApiError } from '../lib/api-error'
import { auth } from '../lib/auth-store'
import { jobRuntime, pageHideHold, serverNow } from '../lib/heartbeat'
import { newIdempotencyKey } from '../lib/idempotency'
import { addPending, movePendingToRefused, pendingOf, refusedOf, removePending, removeRefused } from './db'
import { type OfflineWrite, type OfflineWriteDraft, type QueuedWrite, type RefusedWrite, refreshAfter, sendWrite, type WriteLabel } from './writes'

/**
 * The operator's writes kept on the tablet while the server cannot be reached (issue 24,
 * docs/offline.md). Kept in IndexedDB in the order they were made, each with its idempotency key
 * and client time; the screen lays them over the server's view (overlay.ts) so the work goes on.
 * Back online (and signed in, unlocked) they are sent in order, one at a time: accepted ones
 * leave the queue, refused ones move to the "refused" list with the server's code until the
 * operator has read them; accepted ones are listed as sent until the operator closes the list, so
 * each kept write is accounted for, item by item. An unreachable server stops the sending (the
 * rest wait, in order); so do a locked session and a sign-out (the writes wait for the same
 * user's next sign-in).
 */
export type QueueState = {
  userKey: string | null
  pending: readonly QueuedWrite[]
  refused: readonly RefusedWrite[]
  /** Kept writes the server accepted since the list was last closed (this page only: they are on the server). */
  sent: readonly QueuedWrite[]
  sending: boolean
}

let state: QueueState = { userKey: null, pending: [], refused: [], sent: [], sending: false }
const listeners = new Set<() => void>()

function emit(patch: Partial<QueueState>) {
  state = { ...state, ...patch }
  for (const l of listeners) l()
}

export const offlineQueue = {
  subscribe(listener: () => void) {
    start()
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  getState: () => state,

  /** Writes of this operator wait to be sent: a new one queues behind them, never overtakes. */
  holdsWrites: () => state.pending.length > 0,

  /** Keeps a write made now (or one that just failed to reach the server, with the key it was sent with). */
  async keep(draft: OfflineWriteDraft, jobKey: string, label: WriteLabel, idempotencyKey = newIdempotencyKey()): Promise<QueuedWrite> {
    start()
    const userKey = auth.session?.user_key
    if (!userKey) throw new ApiError(401, 'NOT_AUTHENTICATED', 'signed out')
    const write = { ...draft, input: { ...draft.input, idempotency_key: idempotencyKey, client_time: Math.round(serverNow()) } } as OfflineWrite
    const kept = await addPending({ ...write, user_key: userKey, job_key: jobKey, made_at: Date.now(), label })
    if (state.userKey === userKey) emit({ pending: [...state.pending, kept] })
    return kept
  },

  /** The operator has read which kept writes were accepted. */
  dismissSent: () => emit({ sent: [] }),

  /** The operator has read a refusal. */
  async acknowledge(seq: number) {
    await removeRefused(seq)
    emit({ refused: state.refused.filter((r) => r.seq !== seq) })
  },

  flush: () => void flush(),
}

export function useOfflineQueue(): QueueState {
  return useSyncExternalStore(offlineQueue.subscribe, offlineQueue.getState)
}

async function load(userKey: string) {
  const [pending, refused] = await Promise.all([pendingOf(userKey), refusedOf(userKey)])
  if (auth.session?.user_key !== userKey) return
  emit({ userKey, pending, refused })
  void flush()
}

let flushing = false
async function flush() {
  if (flushing || state.pending.length === 0) return
  if (auth.getState().status !== 'active' || !jobRuntime.getState().online) return
  flushing = true
  emit({ sending: true })
  try {
    while (state.pending.length > 0 && auth.getState().status === 'active') {
      const write = state.pending[0]!
      try {
        await sendWrite(write)
        await removePending(write.seq!)
        emit({ pending: state.pending.slice(1), sent: [...state.sent, write] })
      } catch (e) {
        const err = toApiError(e)
        if (isUnreachable(err)) {
          jobRuntime.reportUnreachable(err)
          return
        }
        // Locked or signed out: the writes wait for the unlock or the same user's next sign-in.
        if (err.status === 401 || err.code === 'SESSION_LOCKED') return
        const refused: RefusedWrite = { ...write, code: err.code, message: err.message, status: err.status, extra: err.extra, refused_at: Date.now() }
        await movePendingToRefused(refused)
        emit({ pending: state.pending.slice(1), refused: [...state.refused, refused] })
      } finally {
        refreshAfter(write)
      }
    }
  } finally {
    flushing = false
    emit({ sending: false })
  }
}

/** The refusal as the client reads any other: translated by its code at display time. */
export const refusalOf = (r: RefusedWrite) => new ApiError(r.status, r.code, r.message, r.extra)

let started = false
/**
 * Follows the session and the connection from the first screen that shows the queue on (not at
 * import: the modules it follows may sit in chunks evaluated after this one).
 */
function start() {
  if (started || typeof window === 'undefined') return
  started = true
  pageHideHold.keepsWritesFor = (jobKey) => state.pending.some((w) => w.job_key === jobKey)
  // The signed-in (or locked) operator's queue is read from the device; another user's stays there for them.
  let known: string | null = null
  const follow = () => {
    const userKey = auth.session?.user_key ?? null
    if (userKey !== known) {
      known = userKey
      emit({ userKey, pending: [], refused: [], sent: [] })
      if (userKey) void load(userKey)
    } else void flush()
  }
  follow()
  auth.subscribe(follow)
  let wasOnline = jobRuntime.getState().online
  jobRuntime.subscribe(() => {
    const online = jobRuntime.getState().online
    if (online && !wasOnline) void flush()
    wasOnline = online
  })
}
