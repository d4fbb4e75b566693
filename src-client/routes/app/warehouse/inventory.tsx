import { Trans, useLingui } from '@lingui/react/macro'
import { Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { InventoryInput } from '../../../../src/domains/movements/schemas'
import { InventoryView } from '../../../components/warehouse/InventoryView'
import type { Picked } from '../../../components/warehouse/scan-group'
import { PositionScanInput, ProductScanInput } from '../../../components/warehouse/ScanInput'
import { UnknownFilter } from '../../../components/warehouse/UnknownFilter'
import { CameraTextInput } from '../../../components/scan/CameraTextInput'

export const Route = createFileRoute('/app/warehouse/inventory')({
  component: InventoryPage,
})

/** Inventory lines with filters (position and everything inside it, product, serial, owned) and totals per product. */
function InventoryPage() {
  const { t } = useLingui()
  const [position, setPosition] = useState<Picked | null>(null)
  const [unknownPosition, setUnknownPosition] = useState<string | null>(null)
  const [unknownProduct, setUnknownProduct] = useState<string | null>(null)
  const [subtree, setSubtree] = useState(true)
  const [product, setProduct] = useState<Picked | null>(null)
  const [serial, setSerial] = useState('')
  const [debouncedSerial] = useDebouncedValue(serial.trim(), 300)
  const [owned, setOwned] = useState<string | null>(null)
  const input: InventoryInput = {
    position_key: position?._key,
    subtree: position ? subtree : undefined,
    product_key: product?._key,
    serial: debouncedSerial || undefined,
    owned: owned === null ? undefined : owned === 'yes',
  }
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <Trans>Inventario</Trans>
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          <Trans>Cosa c'è in magazzino: scansiona una posizione o un prodotto per restringere.</Trans>
        </Text>
      </div>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <PositionScanInput label={t`Posizione`} placeholder={t`Codice`} value={position} onChange={setPosition} onUnresolved={setUnknownPosition} w={220} data-testid="inventory-position" />
        <Checkbox label={t`Con le posizioni contenute`} checked={subtree} onChange={(e) => setSubtree(e.currentTarget.checked)} mt={32} disabled={!position} />
        <ProductScanInput label={t`Prodotto`} placeholder={t`Codice`} value={product} onChange={setProduct} onUnresolved={setUnknownProduct} w={220} data-testid="inventory-product" />
        <CameraTextInput label={t`Seriale`} value={serial} onChange={(e) => setSerial(e.currentTarget.value)} w={180} />
        <Select
          label={t`Proprietà`}
          placeholder={t`Tutte`}
          clearable
          w={160}
          data={[
            { value: 'yes', label: t`Di proprietà` },
            { value: 'no', label: t`Non di proprietà` },
          ]}
          value={owned}
          onChange={setOwned}
        />
      </Group>
      {unknownPosition || unknownProduct ? (
        <UnknownFilter position={unknownPosition} product={unknownProduct} testid="inventory-unknown-filter" />
      ) : (
        <InventoryView input={input} />
      )}
    </Stack>
  )
}
