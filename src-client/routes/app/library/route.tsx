import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/library')({
  staticData: { scope: AREAS.library.scope, title: AREAS.library.title },
  component: Outlet,
})
