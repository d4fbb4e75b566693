import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet, useRouterState } from '@tanstack/react-router'
import { Loading } from '../../../components/QueryState'
import { RouteTabs } from '../../../components/RouteTabs'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/report')({
  staticData: { scope: AREAS.report.scope, title: AREAS.report.title },
  component: ReportArea,
})

/** Rapporti (issue 16): production, labour and cost, quality, OEE. */
function ReportArea() {
  // Between a tab's click and its report's load the router still renders the previous report:
  // its line field would take what the user types, and its Enter would navigate back to it with
  // the text (issue 26). While the path is changing no report shows, so the keys wait for the new one.
  const switching = useRouterState({ select: (s) => s.location.pathname !== s.resolvedLocation?.pathname })
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
      {switching ? <Loading /> : <Outlet />}
    </>
  )
}
