import { createFileRoute, redirect } from '@tanstack/react-router'
import { homePagePath } from '../../src/auth/scopes'

// SPEC 2: the root redirects to login, or a signed-in user to their homepage.
export const Route = createFileRoute('/')({
  beforeLoad: async ({ context }) => {
    const state = await context.auth.ensure()
    const session = context.auth.session
    if (state.status === 'anonymous' || !session) throw redirect({ to: '/login' })
    throw redirect({ href: homePagePath(session.scope, session.preferences.home_page) ?? '/app' })
  },
})
