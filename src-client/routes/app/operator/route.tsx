import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/operator')({
  staticData: { scope: AREAS.operator.scope, title: AREAS.operator.title },
  component: Outlet,
})
