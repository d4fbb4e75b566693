import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import './global.css'
import { I18nProvider } from '@lingui/react'
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core'
import { QueryClientProvider } from '@tanstack/react-query'
import { createRouter, RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { LazyNotifications, placeToasts } from './components/LazyNotifications'
import { PageLoader } from './components/PageLoader'
import { lastInteraction } from './lib/activity'
import { auth } from './lib/auth-store'
import { activateLocale, i18n, localeFor } from './lib/i18n'
import { setLastHref } from './lib/last-location'
import { saveSnapshot, takeSnapshot } from './lib/snapshot'
import { registerServiceWorkerLater } from './offline/register-sw'
import { queryClient, trpc } from './lib/trpc'
import { routeTree } from './routeTree.gen'
import { cssVariablesResolver, theme } from './theme'

const router = createRouter({
  routeTree,
  context: { queryClient, trpc, auth },
  defaultPreload: 'intent',
  // The first whoami can take a moment on a busy network: show a loader rather than a blank page.
  defaultPendingComponent: PageLoader,
  defaultPendingMs: 200,
  defaultPreloadStaleTime: 0,
  scrollRestoration: false,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

// A snapshot saved on unload less than 5 minutes ago comes back, locked (SPEC 4). The URL the
// page was opened with wins over the snapshot's: a typed or bookmarked address must not be
// replaced by the previous screen (on a reload they are the same anyway).
const snapshot = takeSnapshot(queryClient)
if (snapshot?.state.session) auth.restoreLocked(snapshot.state.session)
await activateLocale(localeFor(snapshot?.state.session?.preferences.locale))

auth.onSignedOut = (reason) => {
  void router.navigate({ to: '/login', search: reason ? { reason } : {} })
}
router.subscribe('onResolved', ({ toLocation }) => setLastHref(toLocation.href))

window.addEventListener('pagehide', () => {
  if (location.pathname.startsWith('/login')) return
  saveSnapshot(
    { last_interaction: lastInteraction(), state: { href: location.pathname + location.search, session: auth.session } },
    queryClient,
  )
})

registerServiceWorkerLater()

placeToasts('top-center')

const colorSchemeManager = localStorageColorSchemeManager({ key: 'mes.color-scheme' })

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="light">
        {/* Top centre: the page actions sit at the top right, where a toast would cover them. */}
        <LazyNotifications position="top-center" zIndex={1000} containerWidth={420} />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nProvider>
  </StrictMode>,
)
