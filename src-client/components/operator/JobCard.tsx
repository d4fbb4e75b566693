import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Box, Group, Progress, Text, ThemeIcon, UnstyledButton } from '@mantine/core'
import type { JobRow } from '../../../src/domains/jobs/schemas'
import { formatDay, percent } from './format'
import { JobStateBadge } from './job-state'

/** What a tap on the card does: select it, open its work session, or open it read-only (`unavailable`: it cannot start now). */
export type CardMode = 'selectable' | 'selected' | 'open' | 'unavailable'

/**
 * A job of the operator's queue, readable at arm's length: product, work order, phase,
 * quantity and progress, ready or not, critical and late markers, its state.
 */
export function JobCard({ job, mode, parallel, onClick }: { job: JobRow; mode: CardMode; parallel: boolean | undefined; onClick: () => void }) {
  const { t } = useLingui()
  const stripe = job.critical ? 'var(--mantine-color-red-8)' : job.ready || job.active_qt > 0 ? 'var(--mantine-color-green-8)' : 'var(--mantine-color-gray-5)'
  const selected = mode === 'selected'
  return (
    <UnstyledButton
      onClick={onClick}
      data-testid="job-card"
      data-mode={mode}
      data-job-key={job._key}
      data-selected={selected || undefined}
      data-ready={job.ready || undefined}
      aria-pressed={mode === 'open' ? undefined : selected}
      w="100%"
      p="sm"
      style={{
        borderRadius: 8,
        borderLeft: `8px solid ${stripe}`,
        outline: selected ? '3px solid var(--mantine-color-teal-6)' : '1px solid var(--mantine-color-default-border)',
        outlineOffset: -1,
        background: selected ? 'var(--mantine-color-teal-light)' : 'var(--mes-surface-1)',
        opacity: mode === 'unavailable' ? 0.8 : 1,
      }}
    >
      <Group wrap="nowrap" gap="sm" align="center">
        <ThemeIcon size={40} radius="xl" variant={selected ? 'filled' : 'default'} color="teal" aria-hidden>
          {selected ? '✓' : mode === 'open' ? '▶' : ''}
        </ThemeIcon>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={700} size="xl" lineClamp={1}>
              {job.product_code}
              <Text span c="dimmed" fw={500} size="lg">
                {' · '}
                <Trans>
                  OdL {job.work_order_code} (rev {job.revision_number})
                </Trans>
              </Text>
            </Text>
            <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
              {job.critical && (
                <Badge color="red.8" size="lg" data-testid="critical">
                  <Trans>CRITICO</Trans>
                </Badge>
              )}
              {job.late && (
                <Badge color="orange.8" size="lg" variant="outline">
                  <Trans>In ritardo</Trans>
                </Badge>
              )}
              <JobStateBadge state={job.active ? 'running' : job.status === 'queued' ? 'queued' : job.status === 'closed' ? 'closed' : 'paused'} size="lg" />
            </Group>
          </Group>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="md" lineClamp={1}>
              <Trans>
                Fase {job.phase_position}: <b>{job.phase_name}</b>
              </Trans>
              {job.department_name && (
                <Text span c="dimmed">
                  {' · '}
                  {job.department_name}
                </Text>
              )}
              {job.due_by && (
                <Text span c="dimmed">
                  {' · '}
                  <Trans>consegna {formatDay(job.due_by)}</Trans>
                </Text>
              )}
            </Text>
            {parallel && (
              <Badge variant="outline" color="teal" size="md" style={{ flexShrink: 0 }}>
                <Trans>in parallelo</Trans>
              </Badge>
            )}
          </Group>
          <Group wrap="nowrap" gap="sm" mt={4}>
            <Progress.Root size="lg" style={{ flex: 1 }} aria-label={t`Avanzamento`}>
              <Progress.Section value={percent(job.completed_qt, job.quantity)} color="green.8" />
              <Progress.Section value={percent(job.active_qt, job.quantity)} color="teal.3" />
            </Progress.Root>
            <Text fw={700} size="md" miw={90} ta="right">
              {job.completed_qt} / {job.quantity}
            </Text>
            {/* A job with pieces in an open batch (running or paused) is never "not ready". */}
            {job.active_qt > 0 && !job.ready ? (
              <Badge color="teal.8" size="lg" miw={150} data-testid="batch-open">
                <Trans>Lotto aperto · {job.active_qt} pz</Trans>
              </Badge>
            ) : job.ready ? (
              <Badge color="green.8" size="lg" miw={150} data-testid="ready">
                <Trans>Pronto · {job.available_qt} pz</Trans>
              </Badge>
            ) : (
              <Badge color="gray.6" size="lg" miw={150} data-testid="not-ready">
                <Trans>Non pronto</Trans>
              </Badge>
            )}
          </Group>
        </Box>
      </Group>
    </UnstyledButton>
  )
}
