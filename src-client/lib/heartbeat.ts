import { useSyncExternalStore } from 'react'
import { HEARTBEAT_INTERVAL_MS } from '../../src/domains/execution/rules'
import type { HeartbeatResult } from '../../src/domains/execution/schemas'
import { API_PREFIX, rest } from './rest'
import { type ApiError, isUnreachable, toApiError } from './api-error'
import { auth } from './auth-store'
import { errorMessage } from './error-messages'
import { clearPendingIntents, newIdempotencyKey, withIdempotency } from './idempotency'
import { queryClient, trpc, trpcClient } from './trpc'

/**
 * The running jobs of this client (issue 6, SPEC 4 "Job and work session", DOMAIN.md "Running a
 * job"): their heartbeat, connectivity and what happens when the client goes offline.
 *
 * - Heartbeat: REST `POST job/{id}/heartbeat` every 10 s for each job the
 *   operator runs here, sent as a background call (`x-mes-background: 1`: never user activity).
 *   It starts on start/resume (`track`), stops on pause, on job closed, when a batch completion
 *   leaves the job inactive (`untrack`), when the server answers `running: false`, and on a 401
 *   (the auth store signs out) or any other error (the job shows why).
 * - Offline: a heartbeat that cannot reach the server (the network, or the server's database:
 *   503 DATABASE_UNAVAILABLE), a write failing the same way (`reportUnreachable`), or the
 *   browser's `offline` event, turns the client OFFLINE; a probe of `/api/health` (200 only when
 *   the database answers) notices the way back. Nothing typed is lost meanwhile, nobody is signed out. A job offline for longer than
 *   its phase's `max_offline` (seconds; 0 = never) has its work session closed here too (the
 *   server force-pauses it on its side: JOB_PAUSE_FORCED, paused offline). Back online, such a
 *   job records "back online" (`execution.backOnline`, once per reconnection: a job already being
 *   reported is not reported again, and the server records one BACK_ONLINE per offline period
 *   anyway) and its state is read again; a job still within max_offline simply beats again (the
 *   server records the gap itself). `offline_since` is the server's time of the last answered
 *   heartbeat, so a tablet's wrong clock does not matter.
 * - Leaving the work session pauses its jobs (`pauseAll`); closing or reloading the page does it
 *   with `fetch(..., { keepalive: true })` on `pagehide` (REST `POST job/{id}/pause`).
 */

export type StopReason = NonNullable<HeartbeatResult['reason']> | 'error' | 'offline_closed'
export type JobStop = { reason: StopReason; message: string | null; at: number }

/** Why the client is offline: no answer at all, or the server answering that its database is down. */
export type OfflineCause = 'network' | 'database'

export type RuntimeState = {
  online: boolean
  /** Last contact with the server before going offline (UTC ms). */
  offlineSince: number | null
  /** Null while online. */
  offlineCause: OfflineCause | null
  /** Jobs whose heartbeat runs. */
  running: ReadonlySet<string>
  /** Jobs whose work session this client closed after max_offline, with the offline start. */
  closedOffline: ReadonlyMap<string, number>
  /** Why a job's heartbeat stopped (until the job is tracked again). */
  stopped: ReadonlyMap<string, JobStop>
}

/** lastOkAt: this client's clock; lastOkServerAt: the server's clock at that answer (null: none yet). */
type Tracked = { maxOfflineS: number; lastOkAt: number; lastOkServerAt: number | null }

const PROBE_MS = 3_000
const OFFLINE_CHECK_MS = 1_000

const tracked = new Map<string, Tracked>()
/** Jobs closed here after max_offline: the server time of their last answered heartbeat (offline_since). */
const closedServerAt = new Map<string, number | null>()
/** Jobs whose "back online" is being reported right now (one report per reconnection). */
const reporting = new Set<string>()
let state: RuntimeState = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  offlineSince: null,
  offlineCause: typeof navigator === 'undefined' || navigator.onLine ? null : 'network',
  running: new Set(),
  closedOffline: new Map(),
  stopped: new Map(),
}
const listeners = new Set<() => void>()
let beatTimer: ReturnType<typeof setTimeout> | null = null
let probeTimer: ReturnType<typeof setInterval> | null = null
let offlineTimer: ReturnType<typeof setInterval> | null = null
let lastContactAt = Date.now()
/** The server's clock minus this device's, from the last answered heartbeat (0 before one). */
let serverClockOffset = 0

/** Now by the server's clock, as well as this device knows it: the time stamped on a write kept offline. */
export const serverNow = () => Date.now() + serverClockOffset

/**
 * Registered by the offline queue (src-client/offline/queue.ts): the job still has writes kept
 * on this device. Leaving the work session, closing or reloading the page then leaves it running:
 * a pause sent now would reach the server before those writes and refuse them all (the server's
 * offline sweep pauses it after max_offline if they never come).
 */
export const pageHideHold = { keepsWritesFor: (_jobKey: string) => false }

function emit(patch: Partial<RuntimeState>) {
  state = { ...state, running: new Set(tracked.keys()), ...patch }
  for (const l of listeners) l()
}

export const jobRuntime = {
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  getState: () => state,
  hasActiveJob: () => tracked.size > 0,

  /** The job runs here (started or resumed): its heartbeat starts. */
  track(jobKey: string, maxOfflineS: number) {
    const known = tracked.get(jobKey)
    if (known) {
      known.maxOfflineS = maxOfflineS
      return
    }
    tracked.set(jobKey, { maxOfflineS, lastOkAt: Date.now(), lastOkServerAt: null })
    const stopped = new Map(state.stopped)
    stopped.delete(jobKey)
    const closed = new Map(state.closedOffline)
    closed.delete(jobKey)
    emit({ stopped, closedOffline: closed })
    schedule()
  },

  /** The job stopped running (paused, closed, inactive after a batch): its heartbeat stops. */
  untrack(jobKey: string, stop?: Omit<JobStop, 'at'>) {
    const had = tracked.delete(jobKey)
    if (!had && !stop) return
    const stopped = new Map(state.stopped)
    if (stop) stopped.set(jobKey, { ...stop, at: Date.now() })
    emit({ stopped })
    if (tracked.size === 0) clearBeat()
  },

  /** Forget a job's stop notice (the operator read it, or the job runs again). */
  clearStop(jobKey: string) {
    if (!state.stopped.has(jobKey)) return
    const stopped = new Map(state.stopped)
    stopped.delete(jobKey)
    emit({ stopped })
  },

  /** Leaving the work session: every job running here pauses (JOB_PAUSED, reason leave_page). */
  async pauseAll(reason: 'leave_page' | 'end_session' = 'leave_page') {
    const all = [...tracked.keys()]
    for (const k of all) tracked.delete(k)
    clearBeat()
    emit({})
    const keys = all.filter((k) => !pageHideHold.keepsWritesFor(k))
    await Promise.all(
      keys.map((job_key) =>
        withIdempotency(`pause:${job_key}:${reason}`, (idempotency_key) => trpcClient.execution.pause.mutate({ job_key, idempotency_key, reason })).catch(
          () => {
            // Not running any more, or unreachable: the server's offline sweep pauses it anyway.
          },
        ),
      ),
    )
    for (const job_key of keys) void invalidateJob(job_key)
  },

  /** Probe the server now (the OFFLINE banner's "retry"). */
  probe: () => probe(),

  /** A call could not reach the server (or its database): offline until the probe says otherwise. */
  reportUnreachable(error: ApiError) {
    if (isUnreachable(error)) goOffline(lastContactAt, causeOf(error))
  },
}

export function useJobRuntime(): RuntimeState {
  return useSyncExternalStore(jobRuntime.subscribe, jobRuntime.getState)
}

/** Reads a job's work session again (and its place in the queue). */
export function invalidateJob(jobKey: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.execution.workSession.queryKey({ job_key: jobKey }) }),
    queryClient.invalidateQueries({ queryKey: trpc.jobs.assignment.queryKey() }),
  ])
}

// ---------------------------------------------------------------------------------------------
// Heartbeat loop

function clearBeat() {
  if (beatTimer) clearTimeout(beatTimer)
  beatTimer = null
}

function schedule(delay = HEARTBEAT_INTERVAL_MS) {
  clearBeat()
  if (tracked.size === 0 || !state.online) return
  beatTimer = setTimeout(() => void beatAll(), delay)
}

async function beatAll() {
  beatTimer = null
  const keys = [...tracked.keys()]
  await Promise.all(keys.map((k) => beat(k)))
  if (state.online) schedule()
}

async function beat(jobKey: string) {
  try {
    // REST rather than tRPC: the cheapest authenticated request the server has (it runs every 10 s per job).
    const result = await rest<HeartbeatResult>('POST', `/job/${encodeURIComponent(jobKey)}/heartbeat`)
    lastContactAt = Date.now()
    const t = tracked.get(jobKey)
    if (t) {
      t.lastOkAt = lastContactAt
      t.lastOkServerAt = result.server_time
      serverClockOffset = result.server_time - lastContactAt
    }
    if (!result.running) {
      jobRuntime.untrack(jobKey, { reason: result.reason ?? 'paused', message: null })
      void invalidateJob(jobKey)
    }
  } catch (e) {
    const err = toApiError(e)
    if (isUnreachable(err)) {
      goOffline(lastContactAt, causeOf(err))
      return
    }
    // A 401 signs out (auth store); any other refusal stops this job's heartbeat: show why.
    jobRuntime.untrack(jobKey, { reason: 'error', message: errorMessage(err) })
    if (err.status !== 401) void invalidateJob(jobKey)
  }
}

// ---------------------------------------------------------------------------------------------
// Offline

const causeOf = (error: ApiError): OfflineCause => (error.code === 'DATABASE_UNAVAILABLE' ? 'database' : 'network')

function goOffline(since: number | undefined, cause: OfflineCause) {
  if (!state.online) {
    if (state.offlineCause !== cause) emit({ offlineCause: cause })
    return
  }
  clearBeat()
  emit({ online: false, offlineSince: since ?? lastContactAt, offlineCause: cause })
  probeTimer ??= setInterval(() => void probe(), PROBE_MS)
  offlineTimer ??= setInterval(checkOfflineTooLong, OFFLINE_CHECK_MS)
  checkOfflineTooLong()
}

/** Jobs offline longer than their max_offline: the work session closes on this client too. */
function checkOfflineTooLong() {
  if (state.online) return
  const now = Date.now()
  let closed: Map<string, number> | null = null
  for (const [jobKey, t] of tracked) {
    if (t.maxOfflineS > 0 && now - t.lastOkAt > t.maxOfflineS * 1000) {
      tracked.delete(jobKey)
      closedServerAt.set(jobKey, t.lastOkServerAt)
      closed ??= new Map(state.closedOffline)
      closed.set(jobKey, t.lastOkAt)
    }
  }
  if (closed) emit({ closedOffline: closed })
}

let probing = false
async function probe() {
  if (probing) return
  probing = true
  try {
    const res = await fetch(`${API_PREFIX}/health`, { cache: 'no-store', headers: { 'x-mes-background': '1' } })
    if (res.ok) await goOnline()
    else if (!state.online) {
      // The server answers but its database does not (503 DATABASE_UNAVAILABLE), or a gateway answers for no server.
      const body = (await res.json().catch(() => null)) as { detail?: { code?: string } } | null
      goOffline(undefined, body?.detail?.code === 'DATABASE_UNAVAILABLE' ? 'database' : 'network')
    }
  } catch {
    if (!state.online) goOffline(undefined, 'network')
  } finally {
    probing = false
  }
}

async function goOnline() {
  if (state.online) return
  if (probeTimer) clearInterval(probeTimer)
  if (offlineTimer) clearInterval(offlineTimer)
  probeTimer = null
  offlineTimer = null
  lastContactAt = Date.now()
  const closed = [...state.closedOffline]
  emit({ online: true, offlineSince: null, offlineCause: null })
  // Jobs still within max_offline beat again at once (the server records the gap as back online).
  if (tracked.size) schedule(0)
  // Jobs whose session closed here: record "back online" once, then read their state again.
  for (const [job_key, closedAt] of closed) {
    if (reporting.has(job_key)) continue
    reporting.add(job_key)
    const since = closedServerAt.get(job_key) ?? null
    try {
      const res = await withIdempotency(`back-online:${job_key}:${closedAt}`, (idempotency_key) =>
        trpcClient.execution.backOnline.mutate({ job_key, idempotency_key, ...(since === null ? {} : { offline_since: since }) }),
      )
      // The server still counts it running (clocks apart): the session is closed here, so pause it
      // there too, unless writes made in it are still kept here: a pause sent now would reach the
      // server before them and refuse them all (pageHideHold); the server's sweep pauses it instead.
      if (res.job.active && !pageHideHold.keepsWritesFor(job_key)) {
        await withIdempotency(`pause-offline:${job_key}:${closedAt}`, (idempotency_key) =>
          trpcClient.execution.pause.mutate({ job_key, idempotency_key, reason: 'end_session' }),
        ).catch(() => {})
      }
    } catch {
      // Refused (signed out, job not ours any more): the screen reads the state again below.
    } finally {
      reporting.delete(job_key)
    }
    closedServerAt.delete(job_key)
    const still = new Map(state.closedOffline)
    still.delete(job_key)
    const stopped = new Map(state.stopped)
    stopped.set(job_key, { reason: 'offline_closed', message: null, at: Date.now() })
    emit({ closedOffline: still, stopped })
    void invalidateJob(job_key)
  }
  void queryClient.invalidateQueries({ queryKey: trpc.execution.workSession.queryKey() })
}

// ---------------------------------------------------------------------------------------------
// Page lifecycle, sign-out

function pauseOnPageHide() {
  if (tracked.size === 0) return
  for (const jobKey of tracked.keys()) {
    if (pageHideHold.keepsWritesFor(jobKey)) continue
    try {
      void fetch(`${API_PREFIX}/job/${encodeURIComponent(jobKey)}/pause`, {
        method: 'POST',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idempotency_key: newIdempotencyKey(), reason: 'leave_page' }),
      }).catch(() => {})
    } catch {
      // The page is going away: nothing else to do.
    }
  }
  tracked.clear()
  clearBeat()
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => goOffline(undefined, 'network'))
  window.addEventListener('online', () => void probe())
  window.addEventListener('pagehide', pauseOnPageHide)
  auth.hasActiveJob = jobRuntime.hasActiveJob
  // Signed out (by the user or a 401): nothing runs here any more; the server paused what ran.
  auth.subscribe(() => {
    if (auth.getState().status !== 'anonymous') return
    tracked.clear()
    closedServerAt.clear()
    clearBeat()
    clearPendingIntents()
    if (state.running.size || state.closedOffline.size || state.stopped.size) {
      emit({ closedOffline: new Map(), stopped: new Map() })
    }
  })
}
