import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/admin')({
  staticData: { scope: AREAS.admin.scope, title: AREAS.admin.title },
  component: Outlet,
})
