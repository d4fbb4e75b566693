import { dehydrate, hydrate, type QueryClient } from '@tanstack/react-query'
import type { SessionInfo } from '../../src/domains/session/schemas'

/** SPEC: the temporary session is kept under this key and restored only within 5 minutes. */
export const SNAPSHOT_KEY = 'mes.temp-session'
export const SNAPSHOT_MAX_AGE_MS = 5 * 60_000

export type Snapshot = {
  last_interaction: number
  state: { href: string; session: SessionInfo | null; queries?: unknown }
}

/** Saves the application state on page unload (never on the login screen). */
export function saveSnapshot(snapshot: Snapshot, queryClient: QueryClient) {
  const withCache: Snapshot = { ...snapshot, state: { ...snapshot.state, queries: dehydrate(queryClient) } }
  try {
    localStorage.setItem(SNAPSHOT_KEY, JSON.stringify(withCache))
  } catch {
    // Over the storage quota: keep the state without the data cache.
    localStorage.setItem(SNAPSHOT_KEY, JSON.stringify(snapshot))
  }
}

/** Takes (and removes) the saved snapshot; returns it only when the last interaction was recent. */
export function takeSnapshot(queryClient: QueryClient, now = Date.now()): Snapshot | null {
  const raw = localStorage.getItem(SNAPSHOT_KEY)
  localStorage.removeItem(SNAPSHOT_KEY)
  if (!raw) return null
  try {
    const snapshot = JSON.parse(raw) as Snapshot
    if (typeof snapshot.last_interaction !== 'number' || now - snapshot.last_interaction >= SNAPSHOT_MAX_AGE_MS) return null
    if (snapshot.state.queries) hydrate(queryClient, snapshot.state.queries)
    return snapshot
  } catch {
    return null
  }
}
