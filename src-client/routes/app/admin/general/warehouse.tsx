import { Trans, useLingui } from '@lingui/react/macro'
import { SimpleGrid, Stack, Switch } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { WarehouseSettingsRow } from '../../../../../src/domains/movements/schemas'
import { LoadError, Loading } from '../../../../components/QueryState'
import { type Picked, useScanGroup } from '../../../../components/warehouse/scan-group'
import { PositionScanInput } from '../../../../components/warehouse/ScanInput'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { FormActions, Section } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/warehouse')({
  component: WarehouseSettingsTab,
})

type Draft = { inventory_management: boolean; negative_stock_allowed: boolean; production: Picked | null; consumption: Picked | null }
const draftOf = (s: WarehouseSettingsRow): Draft => ({
  inventory_management: s.inventory_management,
  negative_stock_allowed: s.negative_stock_allowed,
  production: s.default_production_position_key ? { _key: s.default_production_position_key, code: s.default_production_position_code ?? '', description: '' } : null,
  consumption: s.default_consumption_position_key ? { _key: s.default_consumption_position_key, code: s.default_consumption_position_code ?? '', description: '' } : null,
})

/** SPEC 3 Settings: inventory management, default production and consumption positions, negative stock. */
function WarehouseSettingsTab() {
  const settings = useQuery(trpc.movements.settings.queryOptions())
  if (settings.isPending) return <Loading />
  if (settings.isError) return <LoadError error={settings.error} />
  return <WarehouseSettingsForm key={JSON.stringify(settings.data)} initial={draftOf(settings.data)} />
}

function WarehouseSettingsForm({ initial }: { initial: Draft }) {
  const { t } = useLingui()
  const [d, setD] = useState(initial)
  const [saving, setSaving] = useState(false)
  const scans = useScanGroup()
  /** A code typed in a position field counts as a change before it is read (Save must not stay disabled under it). */
  const [typed, setTyped] = useState(false)
  /** Cancel starts the code fields anew, typed text included. */
  const [round, setRound] = useState(0)
  const dirty =
    typed ||
    d.inventory_management !== initial.inventory_management ||
    d.negative_stock_allowed !== initial.negative_stock_allowed ||
    d.production?._key !== initial.production?._key ||
    d.consumption?._key !== initial.consumption?._key
  async function save(e: React.FormEvent) {
    e.preventDefault()
    const picked = await scans.settle()
    if (!picked) return
    setSaving(true)
    try {
      const row = await trpcClient.movements.updateSettings.mutate({
        inventory_management: d.inventory_management,
        negative_stock_allowed: d.negative_stock_allowed,
        default_production_position_key: picked.production?._key ?? null,
        default_consumption_position_key: picked.consumption?._key ?? null,
      })
      queryClient.setQueryData(trpc.movements.settings.queryKey(), row)
      await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() })
      notifySuccess(t`Impostazioni salvate`)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }
  return (
    <form onSubmit={save} data-testid="warehouse-settings">
      <Stack maw={900} gap="lg">
        <Section title={<Trans>Magazzino</Trans>} description={<Trans>Con la gestione dell'inventario attiva, il completamento dei lotti consuma i componenti e carica i pezzi prodotti.</Trans>}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Switch
              size="md"
              label={t`Gestione dell'inventario`}
              description={t`Attiva giacenze e movimenti di magazzino`}
              checked={d.inventory_management}
              onChange={(e) => setD({ ...d, inventory_management: e.currentTarget.checked })}
              data-testid="settings-inventory-management"
            />
            <Switch
              size="md"
              label={t`Giacenze negative ammesse`}
              description={t`Un movimento può prelevare più di quanto risulta in giacenza`}
              checked={d.negative_stock_allowed}
              onChange={(e) => setD({ ...d, negative_stock_allowed: e.currentTarget.checked })}
              data-testid="settings-negative-stock"
            />
            <PositionScanInput
              label={t`Posizione di produzione predefinita`}
              placeholder={t`Codice posizione`}
              value={d.production}
              onChange={(production) => setD((x) => ({ ...x, production }))}
              onInput={() => setTyped(true)}
              group={scans}
              name="production"
              key={`production-${round}`}
              data-testid="settings-production-position"
            />
            <PositionScanInput
              label={t`Posizione di consumo predefinita`}
              placeholder={t`Codice posizione`}
              value={d.consumption}
              onChange={(consumption) => setD((x) => ({ ...x, consumption }))}
              onInput={() => setTyped(true)}
              group={scans}
              name="consumption"
              key={`consumption-${round}`}
              data-testid="settings-consumption-position"
            />
          </SimpleGrid>
        </Section>
        <FormActions
          dirty={dirty}
          saving={saving}
          onCancel={() => {
            setD(initial)
            setTyped(false)
            setRound((r) => r + 1)
          }}
        />
      </Stack>
    </form>
  )
}
