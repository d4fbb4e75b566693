import { Trans } from '@lingui/react/macro'
import { Group, Stack, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { HistoryRecordButton } from '../../../../components/history-record/HistoryRecordButton'
import { WorkOrderSerialsView } from '../../../../components/serials/WorkOrderSerialsView'
import { trpc } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/traceability/workorder/$wo_key')({
  component: WorkOrderTraceabilityPage,
})

/** A work order's Tracciabilità for the traceability area (its users do not open the production area). */
function WorkOrderTraceabilityPage() {
  const { wo_key } = Route.useParams()
  const serials = useQuery(trpc.serials.workOrder.queryOptions({ key: wo_key }))
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={3} data-testid="wo-traceability-title">
          <Trans>Tracciabilità dell'ordine di lavoro</Trans> {serials.data?.work_order_code ?? ''}
        </Title>
        <HistoryRecordButton subject="work-order" subjectKey={wo_key} />
      </Group>
      <WorkOrderSerialsView woKey={wo_key} />
    </Stack>
  )
}
