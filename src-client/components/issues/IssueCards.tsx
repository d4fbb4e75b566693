import { Plural, Trans } from '@lingui/react/macro'
import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core'
import type { IssueRow, IssueState } from '../../../src/domains/issues/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { IssueCriticalBadge, IssueStateBadge } from './IssueBadges'

/** Issues as large cards for a touch screen, each opening its detail. */
export function IssueCards({ rows, onOpen }: { rows: IssueRow[]; onOpen: (row: IssueRow) => void }) {
  return (
    <Stack gap="sm" data-testid="issue-cards">
      {rows.map((r) => (
        <UnstyledButton key={r._key} onClick={() => onOpen(r)} data-testid="issue-card" data-issue-key={r._key}>
          <Paper withBorder p="md" radius="md" style={{ borderLeft: `8px solid ${stripe(r)}` }}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={4} miw={0}>
                <Group gap="xs">
                  <Text fw={700}>{r.code}</Text>
                  <IssueStateBadge state={r.state} size="lg" />
                  <IssueCriticalBadge critical={r.critical} closed={r.state === 'closed'} size="lg" />
                </Group>
                <Text size="lg" fw={600} lineClamp={2}>
                  {r.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {r.type_name} · {formatDateTime(r.opened_at)} · {r.opened_by_name ?? <Trans>sistema</Trans>}
                </Text>
              </Stack>
              {r.attachment_count > 0 && (
                <Badge variant="default" size="lg" style={{ flexShrink: 0 }}>
                  <Plural value={r.attachment_count} one="# allegato" other="# allegati" />
                </Badge>
              )}
            </Group>
          </Paper>
        </UnstyledButton>
      ))}
    </Stack>
  )
}

const STRIPES: Record<IssueState, string> = {
  open: 'var(--mantine-color-blue-6)',
  reopened: 'var(--mantine-color-orange-6)',
  closed: 'var(--mantine-color-gray-5)',
}
const stripe = (r: IssueRow) => (r.critical && r.state !== 'closed' ? 'var(--mantine-color-red-7)' : STRIPES[r.state])
