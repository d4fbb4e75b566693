import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Badge, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { type BomLine, componentQuantity, type QuantityPer } from '../../../../../../src/domains/products/bom'
import type { WorkOrderPhase } from '../../../../../../src/domains/work-orders/schemas'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { trpc } from '../../../../../lib/trpc'
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

/** The product's bill of materials times this work order's quantity, phase by phase. */
function BomTab() {
  const { t, i18n } = useLingui()
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  const bom = useQuery({ ...trpc.bom.get.queryOptions({ key: wo?.product_key ?? '' }), enabled: Boolean(wo) })
  if (!wo) return null
  if (bom.isLoading) return <Loading />
  if (bom.isError || !bom.data) {
    return <Alert color="red">{bom.error ? errorMessage(toApiError(bom.error)) : <Trans>Impossibile caricare la distinta base</Trans>}</Alert>
  }
  const lines = bom.data.lines
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
              <Table verticalSpacing="xs" striped miw={640} data-testid="wo-bom-phase">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t`Componente`}</Table.Th>
                    <Table.Th>{t`Descrizione`}</Table.Th>
                    <Table.Th>{t`Distinta`}</Table.Th>
                    <Table.Th>{t`Tracciabilità`}</Table.Th>
                    <Table.Th ta="right">{t`Totale ordine`}</Table.Th>
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
