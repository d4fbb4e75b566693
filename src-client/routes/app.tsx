import { msg } from '@lingui/core/macro'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { hasScope, homePagePath } from '../../src/auth/scopes'
import { AppLayout } from '../components/AppLayout'
import { NotFound } from '../components/NotFound'
import { i18n, loadOfficeMessages } from '../lib/i18n'
import { getLastHref } from '../lib/last-location'
import { notifyAlert } from '../lib/notify'

/** Where the floor part of the catalog is enough (the operator's screens and /app itself). */
const OPERATOR_OR_HOME = /^\/app(?:\/operator(?:\/|$)|\/?$)/

/**
 * Every application screen sits below /app. SPEC 6: not signed in -> "login first" and the
 * login screen with redirect_to; missing a matched route's scope -> "not authorised" and the
 * navigation is cancelled (the user stays where they were).
 */
export const Route = createFileRoute('/app')({
  beforeLoad: async ({ context, location, matches, preload }) => {
    // The office areas' own messages, before their first screen (lib/i18n.ts), fetched while the
    // session is checked; the operator's are loaded already.
    const officeMessages = OPERATOR_OR_HOME.test(location.pathname) ? null : loadOfficeMessages()
    const state = await context.auth.ensure()
    if (state.status === 'anonymous' || state.status === 'unknown') {
      if (!preload) notifyAlert(i18n._(msg`Effettua prima il login`))
      throw redirect({ to: '/login', search: { redirect_to: location.href, reason: 'login-first' } })
    }
    await officeMessages
    const session = context.auth.session
    if (!session) return // locked before the session was known: the lock screen covers everything
    const denied = matches.some((m) => m.staticData?.scope && !hasScope(session.scope, m.staticData.scope))
    if (denied) {
      if (!preload) notifyAlert(i18n._(msg`Non autorizzato`))
      // Stay where the user was, unless that was the login screen (it would send a signed-in
      // user straight back to redirect_to, the refused path): then go to the homepage.
      const stay = getLastHref()
      const fallback = homePagePath(session.scope, session.preferences.home_page) ?? '/app'
      const canStay = stay && stay !== location.href && !stay.startsWith('/login')
      throw redirect({ href: canStay ? stay : fallback, replace: true })
    }
  },
  component: AppLayout,
  // Unknown paths below /app keep the app's layout (navigation and user menu).
  notFoundComponent: NotFound,
})
