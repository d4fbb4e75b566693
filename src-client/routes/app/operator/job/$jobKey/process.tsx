import { plural } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useWorkSession } from '../../../../../components/operator/work-session-context'
import { BACKGROUND, trpc } from '../../../../../lib/trpc'

/** The whole process of the work order's revision, this job's phase highlighted. */
export const Route = createFileRoute('/app/operator/job/$jobKey/process')({
  component: ProcessTab,
})

function ProcessTab() {
  const { view } = useWorkSession()
  const { data: wo } = useQuery(trpc.workOrders.get.queryOptions({ key: view.work_order._key }, { trpc: BACKGROUND }))
  const { data } = useQuery({
    ...trpc.revisions.get.queryOptions({ key: view.product._key, number: wo?.revision.number ?? 1 }, { trpc: BACKGROUND }),
    enabled: Boolean(wo),
  })
  if (!data) return <Loader />
  return (
    <Stack gap="xs" data-testid="process-tab">
      {data.phases.map((p, i) => {
        const current = p._key === view.phase._key
        const done = i + 1 < view.phase.position
        return (
          <Paper
            key={p._key}
            withBorder
            p="sm"
            data-current={current || undefined}
            style={{
              borderWidth: current ? 3 : 1,
              borderColor: current ? 'var(--mantine-color-teal-6)' : undefined,
              background: current ? 'var(--mantine-color-teal-light)' : undefined,
            }}
          >
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <Badge size="xl" circle variant={current ? 'filled' : 'light'} color={current ? 'teal' : done ? 'green' : 'gray'}>
                  {i + 1}
                </Badge>
                <div>
                  <Text fw={700} size="lg">
                    {p.name || p.operation_name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {p.operation_name}
                    {' · '}
                    {plural(p.steps.length, { one: '# passo', other: '# passi' })}
                  </Text>
                </div>
              </Group>
              {current && (
                <Badge size="lg" color="teal">
                  <Trans>Questa fase</Trans>
                </Badge>
              )}
            </Group>
          </Paper>
        )
      })}
    </Stack>
  )
}
