import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/warehouse')({
  staticData: { scope: AREAS.warehouse.scope, title: AREAS.warehouse.title },
  component: Outlet,
})
