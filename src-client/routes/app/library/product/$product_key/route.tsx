import { Trans } from '@lingui/react/macro'
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { ProductHeader } from '../../../../../components/products/ProductHeader'
import { RouteTabs } from '../../../../../components/RouteTabs'
import { ProductPrints } from '../../../../../components/printing/ProductPrints'

export const Route = createFileRoute('/app/library/product/$product_key')({
  component: ProductLayout,
})

function ProductLayout() {
  const { product_key } = Route.useParams()
  const base = `/app/library/product/${product_key}`
  return (
    <>
      <ProductHeader productKey={product_key} />
      <ProductPrints productKey={product_key} />
      <RouteTabs
        tabs={[
          { to: `${base}/home`, label: <Trans>Parametri</Trans> },
          { to: `${base}/process`, label: <Trans>Processo</Trans> },
          { to: `${base}/bom`, label: <Trans>Distinta base</Trans> },
          { to: `${base}/revisions`, label: <Trans>Revisioni</Trans> },
        ]}
      />
      <Outlet />
    </>
  )
}
