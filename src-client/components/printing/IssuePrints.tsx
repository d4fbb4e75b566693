import { Trans } from '@lingui/react/macro'
import { Group } from '@mantine/core'
import { PrintButton } from './PrintButton'

/** An issue's prints: its type's templates filled with the issue (and its job, work order, product). */
export function IssuePrints({ issueKey, typeKey }: { issueKey: string; typeKey: string }) {
  return (
    <Group justify="flex-end">
      <PrintButton context="issue_type" contextKey={typeKey} subject={{ issue_key: issueKey }} label={<Trans>Stampa</Trans>} size="xs" testId="issue-prints" />
    </Group>
  )
}
