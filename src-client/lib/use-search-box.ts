import { useDebouncedValue } from '@mantine/hooks'
import { useRouter } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'

/**
 * A list's search box whose text goes into the URL once the user pauses.
 *
 * A row opened during the pause wins: the browser's own location changes at the click, while the
 * router's state follows only once the next page has loaded, so a late write checked against the
 * router would navigate back to the list. The write is dropped once the browser is on another path.
 * When the URL's text changes on its own (filters cleared, back in history), the box follows it;
 * its own write coming back never replaces what was typed since.
 */
export function useSearchBox(q: string | undefined, apply: (q: string | undefined) => void, { wait = 300, min = 1 } = {}) {
  const router = useRouter()
  const here = useRef(router.history.location.pathname)
  const [text, setText] = useState(q ?? '')
  // The last text this box wrote: the URL coming back with it is the box's own echo, not a change.
  const written = useRef(q)
  const [debounced] = useDebouncedValue(text.trim(), wait)
  useEffect(() => {
    const next = debounced.length >= min ? debounced : undefined
    if (router.history.location.pathname !== here.current) return
    if (next === q) return
    written.current = next
    apply(next)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced, min])
  useEffect(() => {
    if (q === written.current) return
    written.current = q
    setText(q ?? '')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q])
  return [text, setText] as const
}
