import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { Paper, Text, Timeline, Title } from '@mantine/core'
import { ISSUE_EVENTS, type IssueHistoryEntry } from '../../../src/domains/issues/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { EVENT_COLORS, EVENT_LABELS } from './issue-labels'

/** The issue's events, oldest first: what happened, who did it (the sweep is "sistema") and when. */
export function IssueHistory({ history }: { history: IssueHistoryEntry[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={5} mb="sm">
        <Trans>Storico</Trans>
      </Title>
      <Timeline bulletSize={16} lineWidth={2} active={history.length - 1} data-testid="issue-history">
        {history.map((e) => (
          <Timeline.Item key={e._key} color={EVENT_COLORS[e.event_type] ?? 'blue'} title={<EventTitle event={e} />}>
            <Text size="xs" c="dimmed">
              {formatDateTime(e.timestamp)} · {e.user_name ?? <Trans>sistema</Trans>}
            </Text>
            <EventDetail event={e} />
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  )
}

function EventTitle({ event }: { event: IssueHistoryEntry }) {
  const { i18n } = useLingui()
  const label = EVENT_LABELS[event.event_type]
  return (
    <Text size="sm" fw={600} data-testid="issue-event" data-event={event.event_type}>
      {label ? i18n._(label) : event.event_type}
    </Text>
  )
}

const CHANGED_LABELS: Record<string, MessageDescriptor> = {
  title: msg`titolo`,
  description: msg`descrizione`,
  type: msg`tipo`,
}

/** A few words more where the event carries them: what was edited, the file added. */
function EventDetail({ event }: { event: IssueHistoryEntry }) {
  const { i18n } = useLingui()
  const { changed, filename } = event.data
  if (event.event_type === ISSUE_EVENTS.updated && Array.isArray(changed)) {
    const fields = changed.map((c) => (typeof c === 'string' && CHANGED_LABELS[c] ? i18n._(CHANGED_LABELS[c]) : String(c))).join(', ')
    return (
      <Text size="sm" c="dimmed">
        <Trans>Cambiati: {fields}</Trans>
      </Text>
    )
  }
  if (event.event_type === ISSUE_EVENTS.attachment_added && typeof filename === 'string') {
    return (
      <Text size="sm" c="dimmed">
        {filename}
      </Text>
    )
  }
  return null
}
