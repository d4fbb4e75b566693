import { Trans } from '@lingui/react/macro'
import { Group, Title } from '@mantine/core'
import { createFileRoute, Outlet, useLocation } from '@tanstack/react-router'
import { OperatorTabs } from '../../../../components/operator/OperatorTabs'
import type { SelectSearch } from './-queue'

/**
 * SPEC 2 select-job: the operator's queue (index), all the jobs they may take (`all`) and the
 * selected jobs before starting (`confirm`). `?job=` carries the selection (comma-separated
 * keys); `job=first` preselects the first ready job of the queue.
 */
export const Route = createFileRoute('/app/operator/select-job')({
  validateSearch: (search: Record<string, unknown>): SelectSearch =>
    typeof search.job === 'string' && /^[A-Za-z0-9,-]{1,2000}$/.test(search.job) ? { job: search.job } : {},
  component: SelectJobLayout,
})

function SelectJobLayout() {
  const { pathname } = useLocation()
  const confirming = pathname.endsWith('/confirm')
  return (
    <>
      {!confirming && (
        <Group justify="space-between" mb={4} wrap="nowrap">
          <Title order={2}>
            <Trans>Seleziona job</Trans>
          </Title>
        </Group>
      )}
      {!confirming && (
        <OperatorTabs
          keepSearch
          tabs={[
            { to: '/app/operator/select-job', label: <Trans>La mia coda</Trans>, testId: 'tab-queue' },
            { to: '/app/operator/select-job/all', label: <Trans>Tutti i job</Trans>, testId: 'tab-all' },
          ]}
        />
      )}
      <Outlet />
    </>
  )
}
