import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Paper, Progress, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { trpc } from '../../lib/trpc'
import type { ReactNode } from 'react'
import { count } from './format'

/** The production home's short dashboard: today's output against plan, running and paused jobs, open critical issues. */
export function ProductionDashboard() {
  const { i18n } = useLingui()
  const dash = useQuery({ ...trpc.reports.dashboard.queryOptions(), refetchInterval: 60_000 })
  if (!dash.data) return null
  const d = dash.data
  const share = d.planned_today > 0 ? Math.min(100, (d.completed_today / d.planned_today) * 100) : 0
  const cell = (label: ReactNode, value: string, testId: string, color?: string) => (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" c={color}>
        {value}
      </Text>
    </div>
  )
  return (
    <Paper withBorder p="sm" mb="md" data-testid="production-dashboard">
      <Group gap="xl" wrap="wrap" align="flex-end">
        <div style={{ minWidth: 220 }} data-testid="dash-output">
          <Text size="xs" c="dimmed">
            <Trans>Prodotti oggi / pianificati in scadenza oggi</Trans>
          </Text>
          <Text fw={700} size="xl">
            {count(d.completed_today, i18n.locale)} / {count(d.planned_today, i18n.locale)}
          </Text>
          <Progress value={share} size="sm" mt={4} />
        </div>
        {cell(<Trans>Job in corso</Trans>, count(d.running_jobs, i18n.locale), 'dash-running', 'teal')}
        {cell(<Trans>Job in pausa</Trans>, count(d.paused_jobs, i18n.locale), 'dash-paused', 'yellow.8')}
        {cell(<Trans>Segnalazioni critiche aperte</Trans>, count(d.open_critical_issues, i18n.locale), 'dash-critical', d.open_critical_issues ? 'red' : undefined)}
      </Group>
    </Paper>
  )
}
