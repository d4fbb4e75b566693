import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { RouteTabs } from '../../../../components/RouteTabs'

export const Route = createFileRoute('/app/admin/general')({
  component: GeneralSettingsLayout,
})

function GeneralSettingsLayout() {
  return (
    <>
      <RouteTabs
        tabs={[
          { to: '/app/admin/general/company', label: <Trans>Azienda</Trans> },
          { to: '/app/admin/general/default-phase', label: <Trans>Fase predefinita</Trans> },
          { to: '/app/admin/general/serial-field', label: <Trans>Campi dei seriali</Trans> },
          { to: '/app/admin/general/departments', label: <Trans>Reparti</Trans> },
          { to: '/app/admin/general/warehouse', label: <Trans>Magazzino</Trans> },
          { to: '/app/admin/general/print-templates', label: <Trans>Modelli di stampa</Trans> },
          { to: '/app/admin/general/printers', label: <Trans>Stampanti</Trans> },
          { to: '/app/admin/general/api-token', label: <Trans>Token API</Trans> },
          { to: '/app/admin/general/other', label: <Trans>Altro</Trans> },
        ]}
      />
      <Outlet />
    </>
  )
}
