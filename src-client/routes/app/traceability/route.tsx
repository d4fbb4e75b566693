import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/traceability')({
  staticData: { scope: AREAS.traceability.scope, title: AREAS.traceability.title },
  component: Outlet,
})
