import { createFileRoute, redirect } from '@tanstack/react-router'
import { homePagePath } from '../../../src/auth/scopes'
import { NoHomePage } from '../../components/NoHomePage'

// SPEC 2: the homepage by scope priority, the user's home_page preference first.
export const Route = createFileRoute('/app/')({
  beforeLoad: ({ context }) => {
    const session = context.auth.session
    const home = session && homePagePath(session.scope, session.preferences.home_page)
    if (home) throw redirect({ href: home, replace: true })
  },
  component: NoHomePage,
})
