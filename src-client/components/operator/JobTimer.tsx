import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Progress, Stack, Text } from '@mantine/core'
import { useEffect, useState } from 'react'
import { offlineSessionEnd } from '../../../src/domains/execution/rules'
import type { WorkSessionView } from '../../../src/domains/execution/schemas'
import { useJobRuntime } from '../../lib/heartbeat'
import { formatDuration, percent } from './format'

type Props = { jobKey: string; timer: WorkSessionView['timer']; maxOfflineS: number; running: boolean; receivedAt: number }

/**
 * display_job_timer (SPEC 3): the worked time of the job (closed work sessions plus the open
 * one, ticking while it runs) against the expected time, std_processing_time x pieces.
 * Offline it keeps ticking; once this client closes the work session after max_offline it stops
 * where the server ends that session too (offlineSessionEnd), so it never runs backwards when
 * the connection and the server's answer come back.
 */
export function JobTimer({ jobKey, timer, maxOfflineS, running, receivedAt }: Props) {
  const { t } = useLingui()
  const [now, setNow] = useState(() => Date.now())
  const closedOfflineSince = useJobRuntime().closedOffline.get(jobKey)
  useEffect(() => {
    if (!running) return
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [running])
  const countUntil = closedOfflineSince !== undefined ? offlineSessionEnd(closedOfflineSince, maxOfflineS, Date.now()) : running ? now : null
  const elapsed = timer.elapsed_ms + (countUntil !== null && timer.session_started_at !== null ? Math.max(0, countUntil - receivedAt) : 0)
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
