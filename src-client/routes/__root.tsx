import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { LockScreen } from '../components/LockScreen'
import { NotFound } from '../components/NotFound'
import { SessionEffects } from '../components/SessionEffects'
import { useAuthState } from '../lib/use-auth'
import type { RouterContext } from '../router-context'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
})

function Root() {
  const state = useAuthState()
  return (
    <>
      <SessionEffects />
      <Outlet />
      {state.status === 'locked' && <LockScreen />}
    </>
  )
}
