import { useDebouncedValue } from '@mantine/hooks'
import { useRouter } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { SearchWrites } from './list-search'

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
  // The texts this box wrote that the URL has not brought back yet: each coming back is the box's
  // own echo, not a change, even when it arrives after a later write (a busy machine).
  const writes = useRef(new SearchWrites<string | undefined>()).current
  const seen = useRef(q)
  const [debounced] = useDebouncedValue(text.trim(), wait)
  useEffect(() => {
    const next = debounced.length >= min ? debounced : undefined
    if (router.history.location.pathname !== here.current) return
    if (next === q) return
    writes.wrote(next)
    apply(next)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced, min])
  useEffect(() => {
    if (q === seen.current) return
    seen.current = q
    if (writes.cameBack(q)) return
    setText(q ?? '')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q])
  return [text, setText] as const
}
