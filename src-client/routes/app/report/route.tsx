import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/report')({
  staticData: { scope: AREAS.report.scope, title: AREAS.report.title },
  component: Outlet,
})
