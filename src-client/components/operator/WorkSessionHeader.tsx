import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Box, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core'
import type { WorkSessionView } from '../../../src/domains/execution/schemas'
import { percent } from './format'
import { type DisplayState, JobStateBadge } from './job-state'
import { JobTimer } from './JobTimer'

type Props = {
  view: WorkSessionView
  state: DisplayState
  /** The client is offline: nothing can be sent. */
  offline: boolean
  busy: boolean
  /** Read-only view: no timer; Start/Resume only where the server says the job can start. */
  readOnly: boolean
  receivedAt: number
  onStart: () => void
  onPause: () => void
}

/**
 * The top of the work session: what is being made (product, work order, phase), the state at a
 * glance, the batch progress, the timer and the big start / pause / resume button.
 */
export function WorkSessionHeader({ view, state, offline, busy, readOnly, receivedAt, onStart, onPause }: Props) {
  const { t } = useLingui()
  const { job, batch, phase, product, work_order } = view
  const stepsDone = batch?.step_data.filter((s) => s.done).length ?? 0
  const stepsTotal = batch?.step_data.length ?? 0
  // The button follows what the operator sees. A job offline within max_offline can be paused:
  // the pause is kept on the tablet and sent when the connection is back (docs/offline.md); one
  // closed here after max_offline is paused on the server already, and nothing resumes offline.
  const running = state === 'running' || state === 'offline'
  const mayResume = !running && job.status !== 'closed' && view.can.start
  return (
    <Paper withBorder p="sm" data-testid="work-session-header" style={{ borderLeft: `8px solid ${STRIPE[state]}` }}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
        <Box miw={0}>
          <Title order={3} lh={1.2} lineClamp={1} data-testid="ws-product">
            {product.code}
            {product.description && (
              <Text span c="dimmed" fw={400} size="lg">
                {' · '}
                {product.description}
              </Text>
            )}
          </Title>
          <Text size="md" lineClamp={1} data-testid="ws-context">
            <Trans>
              OdL <b>{work_order.code}</b> (rev {work_order.revision.number}) · Fase {phase.position}/{phase.phase_count}: <b>{phase.name}</b>
            </Trans>
          </Text>
        </Box>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          {/* A critical issue is open on the job or its work order: seen from across the room. */}
          {job.critical && (
            <Badge color="red.8" variant="filled" size="xl" h={44} fz={20} px="md" radius="sm" data-testid="ws-critical">
              <Trans>CRITICO</Trans>
            </Badge>
          )}
          <JobStateBadge state={state} h={44} fz={20} px="md" />
        </Group>
      </Group>
      <Group mt="xs" gap="md" wrap="nowrap" align="center">
        <Stack gap={4} style={{ flex: 1 }} miw={0} data-testid="batch-progress">
          <Group gap="md" wrap="nowrap" justify="space-between">
            <Text size="lg" fw={700}>
              <Trans>
                {job.completed_qt} / {job.quantity} pz
              </Trans>
            </Text>
            <Text size="sm" c="dimmed" lineClamp={1}>
              {batch ? (
                <Trans>
                  Lotto {batch.number}: {batch.qt_total} pz · Passi {stepsDone}/{stepsTotal}
                </Trans>
              ) : (
                <Trans>Nessun lotto aperto</Trans>
              )}
            </Text>
          </Group>
          <Progress.Root size="lg" aria-label={t`Avanzamento`}>
            <Progress.Section value={percent(job.completed_qt, job.quantity)} color="green.8" />
            <Progress.Section value={percent(job.active_qt, job.quantity)} color="teal.3" />
          </Progress.Root>
        </Stack>
        {view.timer.display_job_timer && !readOnly && <JobTimer jobKey={job._key} timer={view.timer} maxOfflineS={phase.parameters.max_offline} running={running && job.active} receivedAt={receivedAt} />}
        {running ? (
          <Button size="xl" h={56} miw={150} color="yellow.4" c="black" onClick={onPause} loading={busy} disabled={!view.can.pause || (offline && state !== 'offline')} data-testid="pause-job">
            <Trans>Pausa</Trans>
          </Button>
        ) : mayResume ? (
          // Offline it is refused on screen, never kept: the server opens the work session and its batch (docs/offline.md).
          <Stack gap={2} align="center">
            <Button
              size="xl"
              h={56}
              miw={150}
              color="green.8"
              onClick={onStart}
              loading={busy}
              disabled={offline || (state === 'paused_offline' && view.job.active)}
              data-testid="start-job"
            >
              {job.status === 'queued' ? <Trans>Avvia</Trans> : <Trans>Riprendi</Trans>}
            </Button>
            {offline && (
              <Text size="sm" c="red.8" fw={600} ta="center" maw={180} data-testid="start-offline-reason">
                <Trans>Serve la connessione</Trans>
              </Text>
            )}
          </Stack>
        ) : null}
      </Group>
    </Paper>
  )
}

const STRIPE: Record<DisplayState, string> = {
  running: 'var(--mantine-color-green-8)',
  paused: 'var(--mantine-color-yellow-5)',
  offline: 'var(--mantine-color-red-8)',
  paused_offline: 'var(--mantine-color-red-8)',
  closed: 'var(--mantine-color-gray-6)',
  queued: 'var(--mantine-color-blue-8)',
}
