/**
 * The user's last interaction (pointer, keys, touch, scroll), sampled at most every 5 s
 * (SPEC 9). The idle lock and the session snapshot read it; job heartbeats never touch it.
 */
export const ACTIVITY_THROTTLE_MS = 5_000
const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const

let last = Date.now()
let lastSample = 0
const listeners = new Set<(at: number) => void>()

function sample() {
  const now = Date.now()
  if (now - lastSample < ACTIVITY_THROTTLE_MS) return
  lastSample = now
  last = now
  for (const l of listeners) l(now)
}

export const lastInteraction = () => last

export function resetInteraction(at = Date.now()) {
  last = at
  lastSample = at
}

/** Starts listening to the document once; `onActivity` gets the throttled samples. */
export function watchActivity(onActivity: (at: number) => void): () => void {
  if (listeners.size === 0) for (const e of EVENTS) window.addEventListener(e, sample, { passive: true, capture: true })
  listeners.add(onActivity)
  return () => {
    listeners.delete(onActivity)
    if (listeners.size === 0) for (const e of EVENTS) window.removeEventListener(e, sample, { capture: true })
  }
}
