import { Box, type BoxProps } from '@mantine/core'
import { type ComponentPropsWithRef, type CSSProperties, type ReactNode, useEffect, useState } from 'react'

/**
 * Mantine's Menu, Popover and Tooltip with @floating-ui (about 20 KB on the wire) load on first
 * use, not with the operator's first screen (issue 23, bench/RESULTS.md): the user menu on the
 * first hover, focus or click of its button, a hint on the first hover, a popover when it first
 * opens. The chunk is in the service worker's precache like every other (docs/offline.md).
 */
type Parts = typeof import('./parts')

let parts: Parts | null = null
let loading: Promise<Parts> | null = null

export function loadFloating(): Promise<Parts> {
  loading ??= import('./parts').then((m) => (parts = m))
  return loading
}

/** The floating components once `wanted` has been true (at once when they loaded before). */
export function useFloating(wanted: boolean): Parts | null {
  const [loaded, setLoaded] = useState(parts)
  useEffect(() => {
    if (!wanted || loaded) return
    let live = true
    void loadFloating().then((m) => live && setLoaded(m))
    return () => {
      live = false
    }
  }, [wanted, loaded])
  return loaded
}

/**
 * What a lazy Tooltip or Popover points at: an empty box over its parent (position: relative),
 * so the field or button it describes stays as it is (never remounted: a focused input keeps
 * the focus and its text when the chunk arrives).
 */
export function FloatingAnchor({ ref, ...props }: ComponentPropsWithRef<'span'>) {
  // The ref and the handlers the Tooltip or Popover target gets (React 19: ref is a prop).
  return <span {...props} ref={ref} aria-hidden="true" style={ANCHOR} />
}
const ANCHOR: CSSProperties = { position: 'absolute', inset: 0, pointerEvents: 'none' }

type HintProps = {
  label: ReactNode
  children: ReactNode
  /** Milliseconds of hover before it shows (Mantine's openDelay). */
  openDelay?: number
  disabled?: boolean
  multiline?: boolean
  w?: number
  /** The wrapper around `children` (position: relative is set here). */
  wrapper?: BoxProps
  /** Extra content placed over the same box (a lazy Popover anchored the same way). */
  extra?: (parts: Parts) => ReactNode
  /** Load the floating parts now (for `extra`, for instance when the field gets the focus). */
  want?: boolean
}

/**
 * A Mantine Tooltip shown on hover, as `<Tooltip label>` around `children` would, but loaded
 * on the first hover (the first one shows as soon as the chunk is there).
 */
export function Hint({ label, children, openDelay = 0, disabled, multiline, w, wrapper, extra, want }: HintProps) {
  const [hovered, setHovered] = useState(false)
  const [shown, setShown] = useState(false)
  const floating = useFloating(hovered || !!want)
  useEffect(() => {
    if (!hovered) {
      setShown(false)
      return
    }
    const timer = setTimeout(() => setShown(true), openDelay)
    return () => clearTimeout(timer)
  }, [hovered, openDelay])
  return (
    <Box {...wrapper} pos="relative" onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)}>
      {children}
      {floating && (
        <floating.Tooltip label={label} opened={shown && !disabled} multiline={multiline} w={w}>
          <FloatingAnchor />
        </floating.Tooltip>
      )}
      {floating && extra?.(floating)}
    </Box>
  )
}
