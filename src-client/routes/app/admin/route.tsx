import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { RouteTabs } from '../../../components/RouteTabs'
import { AREAS } from '../../../lib/areas'

export const Route = createFileRoute('/app/admin')({
  staticData: { scope: AREAS.admin.scope, title: AREAS.admin.title },
  component: AdminLayout,
})

function AdminLayout() {
  return (
    <>
      <RouteTabs
        tabs={[
          { to: '/app/admin/general', label: <Trans>Generale</Trans> },
          { to: '/app/admin/users', label: <Trans>Utenti</Trans> },
          { to: '/app/admin/operations', label: <Trans>Operazioni</Trans> },
          { to: '/app/admin/issue-types', label: <Trans>Tipi di segnalazione</Trans> },
          { to: '/app/admin/counter', label: <Trans>Contatori</Trans> },
          { to: '/app/admin/field', label: <Trans>Campi personalizzati</Trans> },
          { to: '/app/admin/flows', label: <Trans>Flussi dati</Trans> },
        ]}
      />
      <Outlet />
    </>
  )
}
