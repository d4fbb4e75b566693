import { useMantineColorScheme } from '@mantine/core'
import { useMatches } from '@tanstack/react-router'
import { useLingui } from '@lingui/react'
import { useEffect } from 'react'
import { lastInteraction, watchActivity } from '../lib/activity'
import { DEFAULT_TITLE } from '../lib/areas'
import { auth } from '../lib/auth-store'
import { activateLocale, localeFor } from '../lib/i18n'
import { trpcClient } from '../lib/trpc'
import { useAuthState, useSession } from '../lib/use-auth'

/** The server is told about activity at most this often (any other call counts too). */
const SERVER_TOUCH_MS = 60_000
const IDLE_CHECK_MS = 5_000

/** Side effects of the session: screen title, idle lock, locale and theme from the preferences. */
export function SessionEffects() {
  useScreenTitle()
  useIdleLock()
  usePreferences()
  return null
}

function useScreenTitle() {
  const matches = useMatches()
  const { i18n } = useLingui()
  const title = [...matches].reverse().find((m) => m.staticData?.title)?.staticData.title
  useEffect(() => {
    document.title = title ? i18n._(title) : DEFAULT_TITLE
  }, [title, i18n])
}

function useIdleLock() {
  const state = useAuthState()
  const active = state.status === 'active'
  const idleMs = active ? state.session.idle_lock_minutes * 60_000 : 0
  useEffect(() => {
    if (!active) return
    let lastTouch = Date.now()
    const stop = watchActivity((at) => {
      if (at - lastTouch < SERVER_TOUCH_MS) return
      lastTouch = at
      trpcClient.session.activity.mutate().catch(() => {})
    })
    const timer = setInterval(() => {
      if (Date.now() - lastInteraction() >= idleMs) auth.lock()
    }, IDLE_CHECK_MS)
    return () => {
      stop()
      clearInterval(timer)
    }
  }, [active, idleMs])
}

function usePreferences() {
  const session = useSession()
  const { setColorScheme } = useMantineColorScheme()
  const locale = session?.preferences.locale
  const theme = session?.preferences.theme
  useEffect(() => {
    void activateLocale(localeFor(locale))
  }, [locale])
  useEffect(() => {
    if (theme) setColorScheme(theme)
  }, [theme, setColorScheme])
}
