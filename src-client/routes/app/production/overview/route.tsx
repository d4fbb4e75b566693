import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { RouteTabs } from '../../../../components/RouteTabs'
import { ProductionDashboard } from '../../../../components/reports/ProductionDashboard'

export const Route = createFileRoute('/app/production/overview')({
  component: ProductionOverview,
})

function ProductionOverview() {
  return (
    <>
      <ProductionDashboard />
      <RouteTabs
        tabs={[
          { to: '/app/production/overview/workorder', label: <Trans>Ordini di lavoro</Trans> },
          { to: '/app/production/overview/job', label: <Trans>Job</Trans> },
          { to: '/app/production/overview/queues', label: <Trans>Code operatori</Trans> },
          { to: '/app/production/overview/workorder/archive', label: <Trans>Archivio</Trans> },
        ]}
      />
      <Outlet />
    </>
  )
}
