import { msg, plural } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { WorkOrderMaterialLine } from '../../../../../../src/domains/missions/schemas'
import { hasScope } from '../../../../../../src/auth/scopes'
import { formatQuantity } from '../../../../../components/warehouse/labels'
import { MISSION_STATUS_COLORS, MISSION_STATUS_LABELS } from '../../../../../components/missions/labels'
import { notifyAlert, notifyError, notifySuccess } from '../../../../../lib/notify'
import { useSession } from '../../../../../lib/use-auth'
import { type BomLine, componentQuantity, type QuantityPer } from '../../../../../../src/domains/products/bom'
import type { WorkOrderPhase } from '../../../../../../src/domains/work-orders/schemas'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { useWorkOrder } from '../-workorder-ui'
import { Loading } from '../../../../../components/QueryState'

export const Route = createFileRoute('/app/production/workorder/$wo_key/bom')({
  component: BomTab,
})

const PER_LABELS: Record<QuantityPer, MessageDescriptor> = { item: msg`per pezzo`, job: msg`per job`, batch: msg`per lotto` }

/** Batches a job will run: production_batch_qt pieces each (0 = the whole job in one batch). */
const batchesOf = (quantity: number, batchQt: number) => (quantity <= 0 ? 0 : batchQt > 0 ? Math.ceil(quantity / batchQt) : 1)

/** What a phase consumes for this work order: the bom line summed over the phase's jobs. */
function phaseNeed(line: Pick<BomLine, 'quantity' | 'quantity_per'>, phase: Pick<WorkOrderPhase, 'jobs' | 'production_batch_qt'>): number {
  const total = phase.jobs.reduce((sum, j) => sum + componentQuantity(line, j.quantity, batchesOf(j.quantity, phase.production_batch_qt)), 0)
  return Math.round(total * 10_000) / 10_000
}

/** The bill of materials of the work order's revision times its quantity, phase by phase. */
function BomTab() {
  const { t, i18n } = useLingui()
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  const bom = useQuery({ ...trpc.revisions.get.queryOptions({ key: wo?.product_key ?? '', number: wo?.revision.number ?? 1 }), enabled: Boolean(wo) })
  // Stock per component (inventory management): required, consumed, at the line, anywhere, on its way.
  const material = useQuery({ ...trpc.missions.workOrderMaterial.queryOptions({ key: wo_key }), staleTime: 0 })
  const stock = material.data?.inventory_management ? material.data : null
  const stockOf = (line: Pick<BomLine, 'phase_key' | 'item_key'>): WorkOrderMaterialLine | undefined =>
    stock?.lines.find((m) => m.phase_key === line.phase_key && m.item_key === line.item_key)
  if (!wo) return null
  if (bom.isLoading) return <Loading />
  if (bom.isError || !bom.data) {
    return <Alert color="red">{bom.error ? errorMessage(toApiError(bom.error)) : <Trans>Impossibile caricare la distinta base</Trans>}</Alert>
  }
  const lines = bom.data.phases.flatMap((p) => p.bom)
  if (lines.length === 0) {
    return (
      <Paper withBorder radius="md" p="xl" ta="center">
        <Text c="dimmed">
          <Trans>Il prodotto {wo.product_code} non ha componenti in distinta base.</Trans>
        </Text>
      </Paper>
    )
  }
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        <Trans>Componenti necessari per {wo.planned_qt} pezzi, fase per fase (quantità per pezzo, per job o per lotto secondo la distinta).</Trans>
      </Text>
      {stock && <StockSummary workOrderKey={wo_key} consumption={stock.consumption_position_code} production={stock.production_position_code} produced={stock.produced} />}
      {wo.phases.map((phase) => {
        const phaseLines = lines.filter((l) => l.phase_key === phase._key)
        if (phaseLines.length === 0) return null
        return (
          <Paper key={phase._key} withBorder radius="md" p="sm">
            <Text fw={600} mb="xs">
              <Trans>
                Fase {phase.position}: {phase.name}
              </Trans>
            </Text>
            <ScrollArea>
              <Table verticalSpacing="xs" striped miw={stock ? 980 : 640} data-testid="wo-bom-phase">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t`Componente`}</Table.Th>
                    <Table.Th>{t`Descrizione`}</Table.Th>
                    <Table.Th>{t`Distinta`}</Table.Th>
                    <Table.Th>{t`Tracciabilità`}</Table.Th>
                    <Table.Th ta="right">{t`Totale ordine`}</Table.Th>
                    {stock && (
                      <>
                        <Table.Th ta="right">{t`Consumato`}</Table.Th>
                        <Table.Th ta="right">{t`In linea`}</Table.Th>
                        <Table.Th ta="right">{t`In arrivo`}</Table.Th>
                        <Table.Th ta="right">{t`Disponibile`}</Table.Th>
                      </>
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {phaseLines.map((line) => (
                    <Table.Tr key={line._key}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {line.item_code}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {line.item_description}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {line.quantity} {i18n._(PER_LABELS[line.quantity_per])}
                      </Table.Td>
                      <Table.Td>
                        {line.traceability === 'none' ? (
                          <Text size="sm" c="dimmed">
                            —
                          </Text>
                        ) : (
                          <Badge variant="light" size="sm">
                            {line.traceability === 'complete' ? t`Completa` : t`Solo modulo`}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <Text fw={600} size="sm" data-testid="bom-total">
                          {phaseNeed(line, phase)}
                        </Text>
                      </Table.Td>
                      {stock && <StockCells line={stockOf(line)} need={phaseNeed(line, phase)} />}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Paper>
        )
      })}
    </Stack>
  )
}

/** The stock columns of a component: consumed, at the consumption position (red when short of what is left to consume), on its way, anywhere. */
function StockCells({ line, need }: { line: WorkOrderMaterialLine | undefined; need: number }) {
  if (!line) return <Table.Td colSpan={4} />
  const left = Math.max(0, need - line.consumed)
  const short = line.available_at_line !== null && line.available_at_line < left
  return (
    <>
      <Table.Td ta="right" data-testid="material-consumed">
        {formatQuantity(line.consumed)}
      </Table.Td>
      <Table.Td ta="right" data-testid="material-at-line">
        <Text size="sm" fw={600} c={short ? 'red' : undefined}>
          {line.available_at_line === null ? '—' : formatQuantity(line.available_at_line)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{formatQuantity(line.planned_to_line)}</Table.Td>
      <Table.Td ta="right" data-testid="material-available">
        {formatQuantity(line.available)}
      </Table.Td>
    </>
  )
}

/** Where production takes and puts stock; warehouse staff can ask for the components from here. */
function StockSummary({ workOrderKey, consumption, production, produced }: { workOrderKey: string; consumption: string | null; production: string | null; produced: number }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const { i18n } = useLingui()
  const warehouse = hasScope(useSession()?.scope ?? '', 'warehouse')
  const [busy, setBusy] = useState(false)
  const missions = useQuery({ ...trpc.missions.list.queryOptions({ work_order_key: workOrderKey, page_size: 20 }), staleTime: 0 })
  async function bring() {
    setBusy(true)
    try {
      const mission = await trpcClient.missions.toLine.mutate({ work_order_key: workOrderKey })
      const code = mission.code
      notifySuccess(plural(mission.lines.length, { one: `Missione ${code} creata con # riga`, other: `Missione ${code} creata con # righe` }))
      if (mission.shortfalls?.length) notifyAlert(t`Giacenza insufficiente per alcuni componenti: ${mission.shortfalls.map((s) => s.product_code).join(', ')}`)
      void navigate({ to: '/app/warehouse/missions/$missionKey', params: { missionKey: mission._key } })
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Paper withBorder radius="md" p="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm">
          <Trans>
            Gestione magazzino attiva: i lotti completati consumano da {consumption ?? '—'} e caricano i pezzi finiti in {production ?? '—'} (prodotti finora:{' '}
            {formatQuantity(produced)}).
          </Trans>
        </Text>
        {warehouse && (
          <Button size="xs" variant="light" onClick={bring} loading={busy}>
            <Trans>Porta i componenti in linea</Trans>
          </Button>
        )}
      </Group>
      {(missions.data?.rows.length ?? 0) > 0 && (
        <Group gap="xs" mt="xs" data-testid="wo-missions">
          <Text size="sm" c="dimmed">
            <Trans>Missioni di magazzino:</Trans>
          </Text>
          {missions.data!.rows.map((m) => (
            <Badge key={m._key} variant="light" color={MISSION_STATUS_COLORS[m.status]}>
              {m.code} · {i18n._(MISSION_STATUS_LABELS[m.status])} · {m.lines_done}/{m.lines_total}
            </Badge>
          ))}
        </Group>
      )}
    </Paper>
  )
}
