import { createFileRoute, redirect } from '@tanstack/react-router'
import * as v from 'valibot'
import { LoginPage } from '../components/LoginPage'
import { landingPath } from '../lib/home-page'

const LoginSearch = v.object({
  redirect_to: v.fallback(v.optional(v.string()), undefined),
  reason: v.fallback(v.optional(v.picklist(['login-first', 'session-terminated'])), undefined),
})

export const Route = createFileRoute('/login')({
  validateSearch: (search) => v.parse(LoginSearch, { redirect_to: search.redirect_to, reason: search.reason }),
  beforeLoad: async ({ context, search }) => {
    const state = await context.auth.ensure()
    // A signed-in user visiting login goes where they would after signing in.
    if (state.status === 'active' || state.status === 'locked') {
      const session = context.auth.session
      throw redirect({ href: (session && landingPath(session, search.redirect_to)) ?? '/app' })
    }
  },
  component: LoginRoute,
})

function LoginRoute() {
  const search = Route.useSearch()
  return <LoginPage redirectTo={search.redirect_to} reason={search.reason} />
}
