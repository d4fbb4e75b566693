import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/quality')({
  staticData: { scope: AREAS.quality.scope, title: AREAS.quality.title },
  component: Outlet,
})
