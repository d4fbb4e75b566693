import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Group } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useLive } from '../../lib/live'
import { BACKGROUND, trpc } from '../../lib/trpc'

/**
 * "Segnalazioni" with the number of issues not closed on the job or work order (and its jobs),
 * red when one of them is critical.
 */
export function IssuesTabLabel({ scope }: { scope: { job_key: string } | { work_order_key: string } }) {
  const { t } = useLingui()
  const { data } = useQuery({
    ...trpc.issues.list.queryOptions({ ...scope, state: ['open', 'reopened'], page_size: 1 }, { trpc: BACKGROUND }),
    staleTime: 30_000,
  })
  // The count and its critical colour follow any issue change at once.
  useLive(['issues'], () => [trpc.issues.list.pathKey()])
  const open = data?.total ?? 0
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <Trans>Segnalazioni</Trans>
      {open > 0 && (
        <Badge size="sm" circle={open < 10} color={(data?.counts.critical ?? 0) > 0 ? 'red' : 'blue'} aria-label={t`${open} aperte`} data-testid="issues-open-count">
          {open}
        </Badge>
      )}
    </Group>
  )
}
