import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/audit')({
  staticData: { scope: AREAS.audit.scope, title: AREAS.audit.title },
  component: Outlet,
})
