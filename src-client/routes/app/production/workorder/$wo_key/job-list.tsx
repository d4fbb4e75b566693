import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { JobsTable } from '../../../../../components/jobs/JobsTable'
import { useWorkOrder } from '../-workorder-ui'

export const Route = createFileRoute('/app/production/workorder/$wo_key/job-list')({
  component: JobListTab,
})

/**
 * The work order's jobs: the material flow phase by phase (DOMAIN.md: what reached each phase,
 * what its jobs took, finished and released downstream), then the shared job list narrowed to
 * this work order, with assignment, rebalancing and corrections.
 */
function JobListTab() {
  const { t } = useLingui()
  const { wo_key } = Route.useParams()
  const { data: wo } = useWorkOrder(wo_key)
  if (!wo) return null
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="sm">
        <Title order={5} mb="xs">
          <Trans>Flusso del materiale per fase</Trans>
        </Title>
        <ScrollArea>
          <Table verticalSpacing={6} miw={760} data-testid="wo-phases">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Fase`}</Table.Th>
                <Table.Th>{t`Job`}</Table.Th>
                <Table.Th ta="right">{t`Arrivati`}</Table.Th>
                <Table.Th ta="right">{t`Presi in lavorazione`}</Table.Th>
                <Table.Th ta="right">{t`Completati`}</Table.Th>
                <Table.Th ta="right">{t`Rilasciati alla fase dopo`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {wo.phases.map((p, i) => {
                const open = p.jobs.filter((j) => j.status !== 'closed')
                const last = i === wo.phases.length - 1
                return (
                  <Table.Tr key={p._key} data-testid="wo-phase-row">
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {p.position}. {p.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="wrap">
                        {p.jobs.map((j) => (
                          <Badge
                            key={j._key}
                            variant={j.status === 'closed' ? 'outline' : 'light'}
                            color={j.status === 'closed' ? 'gray' : j.operator_key ? 'blue' : 'orange'}
                            styles={{ root: { textTransform: 'none' } }}
                          >
                            {j.operator_name ?? t`Non assegnato`} · {j.quantity}
                          </Badge>
                        ))}
                        {open.length === 0 && p.jobs.length > 0 && (
                          <Text size="xs" c="dimmed">
                            <Trans>tutti chiusi</Trans>
                          </Text>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">{p.released_in_qt}</Table.Td>
                    <Table.Td ta="right">{p.taken_qt}</Table.Td>
                    <Table.Td ta="right">
                      <Text size="sm" fw={600}>
                        {p.completed_qt}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{last ? <Text c="dimmed">—</Text> : p.released_out_qt}</Table.Td>
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Paper>
      <JobsTable scope={{ work_order_key: wo._key }} hideWorkOrder />
    </Stack>
  )
}
