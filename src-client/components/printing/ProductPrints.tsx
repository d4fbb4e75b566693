import { Trans } from '@lingui/react/macro'
import { Group } from '@mantine/core'
import { PrintButton } from './PrintButton'

/** The product page's prints: the product's templates and the settings' product label. */
export function ProductPrints({ productKey }: { productKey: string }) {
  return (
    <Group justify="flex-end" mb="xs">
      <PrintButton context="product" contextKey={productKey} subject={{ product_key: productKey }} label={<Trans>Stampa etichetta</Trans>} testId="product-prints" />
    </Group>
  )
}
