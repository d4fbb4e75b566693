import { useEffect, useRef } from 'react'
import type { ApiError } from '../../lib/api-error'

/**
 * Refusals of a step or batch completion that are about a piece's serials (SERIALS_NOT_DECLARED
 * names the first piece missing something): the work session reports them, the batch's serials
 * panel marks that piece's field with the message under it (issue 26). One panel shows at a time.
 */
type Listener = (err: ApiError) => void
const listeners = new Set<Listener>()

export function reportSerialRefusal(err: ApiError) {
  if (err.code !== 'SERIALS_NOT_DECLARED' || typeof err.extra.piece !== 'number') return
  for (const l of listeners) l(err)
}

/** Calls `onRefusal` with each refusal reported while the caller is mounted. */
export function useSerialRefusals(onRefusal: Listener) {
  const latest = useRef(onRefusal)
  latest.current = onRefusal
  useEffect(() => {
    const l: Listener = (err) => latest.current(err)
    listeners.add(l)
    return () => {
      listeners.delete(l)
    }
  }, [])
}
