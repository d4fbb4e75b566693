import { type Ref, type RefCallback, useCallback, useMemo, useRef } from 'react'

/**
 * `useMergeRefs` of @floating-ui/react (MIT), the one thing Mantine's ScrollArea takes from it: the
 * build gives ScrollArea this copy (scripts/vite-build-tuning.ts, floatingFreeScrollArea), so the
 * screens with a scroll area do not load @floating-ui, which comes with the menus, popovers and
 * tooltips on first use (src-client/components/floating/lazy.tsx).
 */
export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>): RefCallback<T> | null {
  const cleanupRef = useRef<(() => void) | undefined>(undefined)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are the dependencies, as in the original.
  const refEffect = useCallback((instance: T) => {
    const cleanups = refs.map((ref) => {
      if (ref == null) return
      if (typeof ref === 'function') {
        const refCallback = ref
        const refCleanup = refCallback(instance)
        return typeof refCleanup === 'function' ? refCleanup : () => refCallback(null)
      }
      ref.current = instance
      return () => {
        ref.current = null
      }
    })
    return () => {
      for (const refCleanup of cleanups) refCleanup?.()
    }
  }, refs)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are the dependencies, as in the original.
  return useMemo(() => {
    if (refs.every((ref) => ref == null)) return null
    return (value: T | null) => {
      if (cleanupRef.current) {
        cleanupRef.current()
        cleanupRef.current = undefined
      }
      if (value != null) cleanupRef.current = refEffect(value)
    }
  }, refs)
}
