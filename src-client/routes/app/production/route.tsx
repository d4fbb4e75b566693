import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/production')({
  staticData: { scope: AREAS.production.scope, title: AREAS.production.title },
  component: Outlet,
})
