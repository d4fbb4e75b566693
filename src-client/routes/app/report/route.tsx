import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { RouteTabs } from '../../../components/RouteTabs'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/report')({
  staticData: { scope: AREAS.report.scope, title: AREAS.report.title },
  component: ReportArea,
})

/** Rapporti (issue 16): production, labour and cost, quality, OEE. */
function ReportArea() {
  return (
    <>
      <div data-report-noprint>
        <RouteTabs
          tabs={[
            { to: '/app/report/production', label: <Trans>Produzione</Trans> },
            { to: '/app/report/labour', label: <Trans>Manodopera e costi</Trans> },
            { to: '/app/report/quality', label: <Trans>Qualità</Trans> },
            { to: '/app/report/oee', label: <Trans>OEE</Trans> },
          ]}
        />
      </div>
      <Outlet />
    </>
  )
}
