import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Progress, Stack, Text } from '@mantine/core'
import { useEffect, useState } from 'react'
import type { WorkSessionView } from '../../../src/domains/execution/schemas'
import { formatDuration, percent } from './format'

/**
 * display_job_timer (SPEC 3): the worked time of the job (closed work sessions plus the open
 * one, ticking while it runs) against the expected time, std_processing_time x pieces.
 */
export function JobTimer({ timer, running, receivedAt }: { timer: WorkSessionView['timer']; running: boolean; receivedAt: number }) {
  const { t } = useLingui()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [running])
  const elapsed = timer.elapsed_ms + (running && timer.session_started_at !== null ? Math.max(0, now - receivedAt) : 0)
  const expected = timer.expected_ms
  const over = expected > 0 && elapsed > expected
  return (
    <Stack gap={4} miw={170} data-testid="job-timer">
      <Group gap={6} wrap="nowrap" justify="space-between">
        <Text size="sm" c="dimmed">
          <Trans>Tempo</Trans>
        </Text>
        <Text fw={700} size="lg" ff="monospace" c={over ? 'red.7' : undefined}>
          {formatDuration(elapsed)}
          {expected > 0 && (
            <Text span size="sm" c="dimmed" ff="monospace">
              {' / '}
              {formatDuration(expected)}
            </Text>
          )}
        </Text>
      </Group>
      {expected > 0 && <Progress value={percent(elapsed, expected)} color={over ? 'red' : 'teal'} size="md" aria-label={t`Tempo`} />}
    </Stack>
  )
}
