import { isUnreachable, toApiError } from './api-error'

/**
 * Idempotency keys for operator writes (issue 6): one uuid per user action, kept while the
 * action has no definite answer, so a retry after a lost response has exactly one effect on the
 * server (which answers the first outcome again).
 *
 * `crypto.randomUUID` only exists in secure contexts (https, localhost); shop-floor tablets may
 * reach the app over plain http on the plant network, so a v4 uuid is also made from
 * `crypto.getRandomValues`, which is available everywhere.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Keys of actions still waiting for a definite answer, by intent (e.g. `complete-step:<batch>:<step>`). */
const pending = new Map<string, string>()

const RETRIES = 2
const RETRY_DELAY_MS = 800
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Runs a write with the intent's idempotency key. An unreachable server (the network, or 503
 * DATABASE_UNAVAILABLE) is retried at once with the same key (and the key is kept for the user's
 * own retry if it still fails); any other answer, success or refusal, ends the action and
 * forgets the key.
 */
export async function withIdempotency<T>(intent: string, run: (idempotencyKey: string) => Promise<T>): Promise<T> {
  let key = pending.get(intent)
  if (!key) {
    key = newIdempotencyKey()
    pending.set(intent, key)
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await run(key)
      pending.delete(intent)
      return result
    } catch (e) {
      const err = toApiError(e)
      if (!isUnreachable(err)) {
        pending.delete(intent)
        throw err
      }
      if (attempt >= RETRIES) throw err
      await sleep(RETRY_DELAY_MS * (attempt + 1))
    }
  }
}

/** The action's key now travels with the write kept offline (offline/queue.ts): the next action of the same intent gets a new one. */
export function forgetIntent(intent: string) {
  pending.delete(intent)
}

/** On sign-out: the next user never reuses a key of the previous one. */
export function clearPendingIntents() {
  pending.clear()
}
