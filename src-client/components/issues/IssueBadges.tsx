import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, type BadgeProps } from '@mantine/core'
import type { IssueState } from '../../../src/domains/issues/schemas'
import { STATE_LABELS } from './issue-labels'

const STATE_COLORS: Record<IssueState, string> = { open: 'blue', reopened: 'orange', closed: 'gray' }

export function IssueStateBadge({ state, ...rest }: { state: IssueState } & BadgeProps) {
  const { i18n } = useLingui()
  return (
    <Badge color={STATE_COLORS[state]} variant="light" miw="max-content" data-testid="issue-state" data-state={state} {...rest}>
      {i18n._(STATE_LABELS[state])}
    </Badge>
  )
}

/** Filled while it marks the job and work order; outlined on a closed issue (it was critical). */
export function IssueCriticalBadge({ critical, closed = false, ...rest }: { critical: boolean; closed?: boolean } & BadgeProps) {
  if (!critical) return null
  return (
    <Badge color="red" variant={closed ? 'outline' : 'filled'} miw="max-content" data-testid="issue-critical" {...rest}>
      <Trans>Critica</Trans>
    </Badge>
  )
}
