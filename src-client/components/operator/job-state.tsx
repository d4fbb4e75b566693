import { Trans } from '@lingui/react/macro'
import { Badge, type BadgeProps } from '@mantine/core'
import type { RuntimeState } from '../../lib/heartbeat'

/** What the operator sees at a glance (issue 6): running, paused, offline ... */
export type DisplayState = 'running' | 'paused' | 'offline' | 'paused_offline' | 'closed' | 'queued'

type JobFacts = { status: 'queued' | 'started' | 'paused' | 'closed'; active: boolean; paused_offline: boolean }

export function displayState(jobKey: string, job: JobFacts, runtime: RuntimeState): DisplayState {
  if (job.status === 'closed') return 'closed'
  if (runtime.closedOffline.has(jobKey)) return 'paused_offline'
  if (job.active && !runtime.online) return 'offline'
  if (job.active) return 'running'
  if (job.paused_offline) return 'paused_offline'
  return job.status === 'queued' ? 'queued' : 'paused'
}

/** Colours with strong contrast in both themes (white on dark fills, black on yellow). */
const LOOK: Record<DisplayState, { bg: string; fg: string }> = {
  running: { bg: 'var(--mantine-color-green-9)', fg: '#fff' },
  paused: { bg: 'var(--mantine-color-yellow-4)', fg: '#000' },
  offline: { bg: 'var(--mantine-color-red-9)', fg: '#fff' },
  paused_offline: { bg: 'var(--mantine-color-red-9)', fg: '#fff' },
  closed: { bg: 'var(--mantine-color-gray-7)', fg: '#fff' },
  queued: { bg: 'var(--mantine-color-blue-9)', fg: '#fff' },
}

export function StateLabel({ state }: { state: DisplayState }) {
  switch (state) {
    case 'running':
      return <Trans>IN CORSO</Trans>
    case 'paused':
      return <Trans>IN PAUSA</Trans>
    case 'offline':
      return <Trans>OFFLINE</Trans>
    case 'paused_offline':
      return <Trans>IN PAUSA · OFFLINE</Trans>
    case 'closed':
      return <Trans>CHIUSO</Trans>
    case 'queued':
      return <Trans>DA AVVIARE</Trans>
  }
}

export function JobStateBadge({ state, size = 'xl', ...rest }: { state: DisplayState } & BadgeProps) {
  const look = LOOK[state]
  return (
    <Badge
      size={size}
      radius="sm"
      data-testid="job-state"
      data-state={state}
      styles={{ root: { background: look.bg, color: look.fg, textTransform: 'none', letterSpacing: 0.5 } }}
      {...rest}
    >
      <StateLabel state={state} />
    </Badge>
  )
}
