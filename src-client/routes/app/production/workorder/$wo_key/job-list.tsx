import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Group, Progress, ScrollArea, Table, Text } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import type { WorkOrderJob } from '../../../../../../src/domains/work-orders/schemas'
import { useWorkOrder } from '../-workorder-ui'

export const Route = createFileRoute('/app/production/workorder/$wo_key/job-list')({
  component: JobListTab,
})

const STATUS_COLORS: Record<WorkOrderJob['status'], string> = { queued: 'gray', started: 'blue', paused: 'yellow', closed: 'green' }

/** The jobs of this work order, phase by phase: operator, quantity, progress, status, ready. */
function JobListTab() {
  const { t } = useLingui()
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  if (!wo) return null
  const statusLabel: Record<WorkOrderJob['status'], string> = { queued: t`In coda`, started: t`Avviato`, paused: t`In pausa`, closed: t`Chiuso` }
  return (
    <ScrollArea>
      <Table striped verticalSpacing="sm" miw={820} data-testid="wo-jobs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Fase</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Operatore</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Quantità</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Avanzamento</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Stato</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Materiale</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {wo.phases.flatMap((phase) =>
            phase.jobs.map((job, i) => {
              const percent = job.quantity > 0 ? Math.floor((job.completed_qt * 100) / job.quantity) : 0
              return (
                <Table.Tr key={job._key} data-testid="wo-job-row">
                  <Table.Td>
                    {i === 0 ? (
                      <Text size="sm" fw={600}>
                        {phase.position}. {phase.name}
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {phase.position}. {phase.name}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {job.operator_name ?? (
                      <Text size="sm" c="dimmed" fs="italic">
                        <Trans>Non assegnato</Trans>
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {job.quantity}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Progress value={percent} size="md" w={90} color={percent >= 100 ? 'green' : 'blue'} aria-label={t`Avanzamento ${percent}%`} />
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {job.completed_qt}/{job.quantity}
                        {job.active_qt > 0 ? ` (+${job.active_qt})` : ''}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Badge color={STATUS_COLORS[job.status]} variant="light">
                        {statusLabel[job.status]}
                      </Badge>
                      {job.active && (
                        <Badge color="blue" variant="filled">
                          <Trans>In lavorazione</Trans>
                        </Badge>
                      )}
                      {job.critical && (
                        <Badge color="red" variant="outline">
                          <Trans>Critico</Trans>
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {job.status === 'closed' ? (
                      <Text size="sm" c="dimmed">
                        —
                      </Text>
                    ) : job.ready ? (
                      <Badge color="teal" variant="dot">
                        <Trans>Pronto</Trans>
                      </Badge>
                    ) : (
                      <Badge color="gray" variant="dot">
                        <Trans>Non pronto</Trans>
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              )
            }),
          )}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  )
}
