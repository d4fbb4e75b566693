import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Loader, Paper, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import type { QuantityPer, TraceabilityLevel } from '../../../../../../src/domains/products/bom'
import { formatQt } from '../../../../../components/operator/format'
import { useWorkSession } from '../../../../../components/operator/work-session-context'
import { BACKGROUND, trpc } from '../../../../../lib/trpc'

/** Components of this phase with the quantities of the open batch (`component-batch`), else per piece. */
export const Route = createFileRoute('/app/operator/job/$jobKey/bom')({
  component: BomTab,
})

type Line = {
  _key: string
  item_code: string
  item_description: string
  quantity: number
  quantity_per: QuantityPer
  traceability: TraceabilityLevel
  batch_quantity: number | null
}

function BomTab() {
  const { view } = useWorkSession()
  const batchKey = view.batch?._key
  const forBatch = useQuery({ ...trpc.execution.componentBatch.queryOptions({ batch_key: batchKey ?? '' }, { trpc: BACKGROUND }), enabled: !!batchKey })
  // Without a batch: the phase's lines as the work order's revision has them.
  const wo = useQuery({ ...trpc.workOrders.get.queryOptions({ key: view.work_order._key }, { trpc: BACKGROUND }), enabled: !batchKey })
  const revision = useQuery({
    ...trpc.revisions.get.queryOptions({ key: view.product._key, number: wo.data?.revision.number ?? 1 }, { trpc: BACKGROUND }),
    enabled: !batchKey && Boolean(wo.data),
  })
  const lines: Line[] | undefined = batchKey
    ? forBatch.data?.components
    : revision.data?.phases.find((p) => p._key === view.phase._key)?.bom.map((l) => ({ ...l, batch_quantity: null }))

  if (!lines) return <Loader />
  if (lines.length === 0) {
    return (
      <Paper withBorder p="lg">
        <Text c="dimmed" size="lg">
          <Trans>Questa fase non consuma componenti.</Trans>
        </Text>
      </Paper>
    )
  }
  return (
    <Paper withBorder p="xs" data-testid="bom-tab">
      <Text size="md" mb="xs" px="xs">
        {view.batch ? (
          <Trans>
            Componenti per il lotto {view.batch.number} ({view.batch.qt_total} pz)
          </Trans>
        ) : (
          <Trans>Componenti della fase (nessun lotto aperto)</Trans>
        )}
      </Text>
      <Table striped verticalSpacing="sm" fz="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Codice</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Descrizione</Trans>
            </Table.Th>
            <Table.Th ta="right">
              <Trans>Quantità</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Tracciabilità</Trans>
            </Table.Th>
            {view.batch && (
              <Table.Th ta="right">
                <Trans>Per questo lotto</Trans>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l) => (
            <Table.Tr key={l._key}>
              <Table.Td fw={700}>{l.item_code}</Table.Td>
              <Table.Td>{l.item_description}</Table.Td>
              <Table.Td ta="right">
                {formatQt(l.quantity)} <Per per={l.quantity_per} />
              </Table.Td>
              <Table.Td>
                <Traceability level={l.traceability} />
              </Table.Td>
              {view.batch && (
                <Table.Td ta="right" fw={700} fz="lg">
                  {l.batch_quantity === null ? '' : formatQt(l.batch_quantity)}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  )
}

function Per({ per }: { per: QuantityPer }) {
  const { t } = useLingui()
  const label = per === 'item' ? t`per pezzo` : per === 'batch' ? t`per lotto` : t`per job`
  return (
    <Text span size="sm" c="dimmed">
      {label}
    </Text>
  )
}

function Traceability({ level }: { level: TraceabilityLevel }) {
  if (level === 'none') return <Text c="dimmed">—</Text>
  return (
    <Badge variant="light" color={level === 'complete' ? 'grape' : 'blue'}>
      {level === 'complete' ? <Trans>Completa</Trans> : <Trans>Solo modulo</Trans>}
    </Badge>
  )
}
