import type { QueryKey } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { LIVE_RESYNC, type LiveEvent, type LiveTopic } from '../../src/domains/live/schemas'
import { auth } from './auth-store'
import { queryClient, trpcClient } from './trpc'

/**
 * Live screens (issue 17): ONE tRPC subscription per browser tab (`live.events` over SSE), open
 * while the session is active and some mounted screen listens; screens say which topics they
 * show and which query keys an event makes stale. The server sends keys, never data: the
 * invalidated queries refetch through their own rules. A reconnect resumes after the last event
 * id (httpSubscriptionLink, or here after an error); a RESYNC (gap too long) refetches all.
 */
type Listener = { topics: readonly LiveTopic[]; keysFor: (e: LiveEvent) => readonly QueryKey[] }

const listeners = new Set<Listener>()
let subscription: { unsubscribe: () => void } | null = null
let lastEventId: string | null = null
let retryTimer: ReturnType<typeof setTimeout> | undefined
let stopTimer: ReturnType<typeof setTimeout> | undefined
/** The stream dropped (error, instance restart, a network blip the link retried) since it last ran. */
let dropped = false

/** Invalidations wait this long so a burst of events (a rebalance of 30 jobs) refetches once. */
const COALESCE_MS = 120
const RETRY_MS = 3_000
/** Leaving a screen for another keeps the stream a moment (no reconnect on every navigation). */
const STOP_AFTER_MS = 5_000

const pending = new Map<string, QueryKey>()
let flushTimer: ReturnType<typeof setTimeout> | undefined

function invalidate(keys: readonly QueryKey[]) {
  for (const k of keys) pending.set(JSON.stringify(k), k)
  flushTimer ??= setTimeout(() => {
    flushTimer = undefined
    const keys = [...pending.values()]
    pending.clear()
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
  }, COALESCE_MS)
}

function dispatch(message: LiveEvent | { id: number; type: typeof LIVE_RESYNC }) {
  if (message.type === LIVE_RESYNC) {
    void queryClient.invalidateQueries()
    return
  }
  const event = message as LiveEvent
  for (const l of listeners) if (l.topics.includes(event.topic)) invalidate(l.keysFor(event))
}

function start() {
  clearTimeout(retryTimer)
  subscription = trpcClient.live.events.subscribe(
    { lastEventId },
    {
      onConnectionStateChange(state) {
        if (state.state === 'connecting' && lastEventId !== null) dropped = true
        // Back after a drop: the replay brings the events after the last id, but a change whose
        // transaction took an older id and committed while we were away is not among them
        // (docs/live.md). The screens on show read again once, so none keeps a stale value.
        if (state.state === 'pending' && dropped) {
          dropped = false
          void queryClient.invalidateQueries()
        }
      },
      onData(envelope) {
        lastEventId = envelope.id
        dispatch(envelope.data)
      },
      onError() {
        // 401/423 reach the auth store through the error link (sign-in or lock screen, which
        // stops the stream below); anything else: try again shortly, from the last event id.
        subscription = null
        dropped = lastEventId !== null
        retryTimer = setTimeout(update, RETRY_MS)
      },
      onComplete() {
        // The instance ended its streams (a restart): connect again, to any instance, from the last event id.
        subscription = null
        dropped = lastEventId !== null
        retryTimer = setTimeout(update, 500)
      },
    },
  )
}

function stop() {
  clearTimeout(retryTimer)
  subscription?.unsubscribe()
  subscription = null
}

/** Open while signed in, unlocked and listened to; closed otherwise. */
function update() {
  const wanted = listeners.size > 0 && auth.getState().status === 'active'
  if (wanted) {
    clearTimeout(stopTimer)
    stopTimer = undefined
    if (!subscription) start()
  } else if (subscription && stopTimer === undefined) {
    stopTimer = setTimeout(() => {
      stopTimer = undefined
      if (listeners.size === 0 || auth.getState().status !== 'active') stop()
    }, listeners.size === 0 ? STOP_AFTER_MS : 0)
  }
}

let previousStatus = auth.getState().status
auth.subscribe(() => {
  const status = auth.getState().status
  // Another user signing in on this tab starts from now, not from the last one's events.
  if (status === 'anonymous') lastEventId = null
  if (status !== previousStatus) {
    previousStatus = status
    update()
  }
})

/**
 * Keeps a screen live: while mounted, an event of one of `topics` invalidates the query keys
 * `keysFor(event)` returns (e.g. `[trpc.jobs.list.pathKey()]`, or a narrower key when the event
 * names the entity the screen shows; an empty list ignores the event).
 */
export function useLive(topics: readonly LiveTopic[], keysFor: (e: LiveEvent) => readonly QueryKey[]) {
  const latest = useRef(keysFor)
  latest.current = keysFor
  const topicsKey = topics.join(',')
  useEffect(() => {
    const listener: Listener = { topics: topicsKey.split(',') as LiveTopic[], keysFor: (e) => latest.current(e) }
    listeners.add(listener)
    update()
    return () => {
      listeners.delete(listener)
      update()
    }
  }, [topicsKey])
}

/** What the floor screens show: jobs, their work orders and the critical marks issues put on both. */
export const FLOOR_TOPICS: readonly LiveTopic[] = ['jobs', 'work_orders', 'issues']
