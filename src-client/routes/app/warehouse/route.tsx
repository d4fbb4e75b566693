import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { RouteTabs } from '../../../components/RouteTabs'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/warehouse')({
  staticData: { scope: AREAS.warehouse.scope, title: AREAS.warehouse.title },
  component: WarehouseLayout,
})

/**
 * SPEC 2 warehouse tabs: positions, inventory, missions, movements, lists. Each tab is a route
 * under /app/warehouse; a new tab is one line here (missions and movement lists add theirs).
 */
const TABS: { to: string; label: ReactNode }[] = [
  { to: '/app/warehouse/positions', label: <Trans>Posizioni</Trans> },
  { to: '/app/warehouse/inventory', label: <Trans>Inventario</Trans> },
  { to: '/app/warehouse/missions', label: <Trans>Missioni</Trans> },
  { to: '/app/warehouse/movements', label: <Trans>Movimenti</Trans> },
  { to: '/app/warehouse/lists', label: <Trans>Liste</Trans> },
]

function WarehouseLayout() {
  return (
    <>
      <RouteTabs tabs={TABS} />
      <Outlet />
    </>
  )
}
