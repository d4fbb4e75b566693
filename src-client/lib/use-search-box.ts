import { useDebouncedValue } from '@mantine/hooks'
import { useRouter } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { SearchWrites } from './list-search'

/**
 * A search box whose text goes into the list's state (usually the URL) once the user pauses.
 *
 * A row opened during the pause wins: the browser's own location changes at the click, while the
 * router's state follows only once the next page has loaded, so a late write checked against the
 * router would navigate back to the list. The write is dropped once the browser is on another path.
 *
 * Every write comes back as `q` some time later (a navigation re-checks the session first: on a
 * busy tablet that is longer than a pause between two keys). Such echoes never touch the box, even
 * when an older one arrives after newer keys or a newer write; only a change made elsewhere
 * (filters cleared, back in history) replaces the text.
 */
export function useSearchBox(q: string | undefined, apply: (q: string | undefined) => void, { wait = 300, min = 1 } = {}) {
  const router = useRouter()
  const here = useRef(router.history.location.pathname)
  const [text, setText] = useState(q ?? '')
  const writes = useRef(new SearchWrites<string | undefined>()).current
  const [debounced] = useDebouncedValue(text.trim(), wait)
  useEffect(() => {
    const next = debounced.length >= min ? debounced : undefined
    if (router.history.location.pathname !== here.current) return
    if (next === writes.settled(q)) return
    writes.wrote(next)
    apply(next)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced, min])
  useEffect(() => {
    if (writes.cameBack(q)) return
    if (q !== (text.trim() || undefined)) setText(q ?? '')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q])
  return [text, setText] as const
}
