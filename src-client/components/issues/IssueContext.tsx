import { Trans } from '@lingui/react/macro'
import { Anchor, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { IssueRow } from '../../../src/domains/issues/schemas'
import { useIssueAccess } from './issue-access'

type Context = Pick<IssueRow, 'context_type' | 'phase_name' | 'work_order_key' | 'work_order_code' | 'product_key' | 'product_code'>

// Clicks on a link inside a clickable table row open the link, not the row.
const stop = (e: React.MouseEvent) => e.stopPropagation()

/**
 * Where the issue was opened: the job's phase and work order, a work order, a product, or
 * nothing. Codes are links to the work order and the library product for users who may open
 * them; `links={false}` inside the work session, where leaving would pause the job.
 */
export function IssueContext({ issue, links = true, size = 'sm' }: { issue: Context; links?: boolean; size?: 'sm' | 'md' }) {
  const access = useIssueAccess()
  if (issue.context_type === 'generic') {
    return (
      <Text size={size} c="dimmed">
        <Trans>Generale</Trans>
      </Text>
    )
  }
  const woKey = issue.work_order_key
  const productKey = issue.product_key
  const wo =
    woKey && issue.work_order_code ? (
      links && access.canOpenWorkOrder ? (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/production/workorder/$wo_key" params={{ wo_key: woKey }} />} inherit fw={600} onClick={stop}>
          {issue.work_order_code}
        </Anchor>
      ) : (
        <Text span inherit fw={600}>
          {issue.work_order_code}
        </Text>
      )
    ) : null
  const product =
    productKey && issue.product_code ? (
      links && access.canOpenProduct ? (
        <Anchor renderRoot={(p) => <Link {...p} to="/app/library/product/$product_key" params={{ product_key: productKey }} />} inherit onClick={stop}>
          {issue.product_code}
        </Anchor>
      ) : (
        issue.product_code
      )
    ) : null
  const small = size === 'sm' ? 'xs' : 'sm'
  // The main line names the work order (or the product); the phase and product follow, smaller.
  const main = issue.context_type === 'product' ? product : wo
  const details = [issue.context_type === 'job' ? issue.phase_name : null, issue.context_type === 'product' ? null : product].filter(Boolean)
  return (
    <Stack gap={0} data-testid="issue-context">
      <Text size={size}>{main}</Text>
      {details.length > 0 && (
        <Text size={small} c="dimmed">
          {details.map((d, i) => (
            <span key={i}>
              {i > 0 && ' · '}
              {d}
            </span>
          ))}
        </Text>
      )}
    </Stack>
  )
}
