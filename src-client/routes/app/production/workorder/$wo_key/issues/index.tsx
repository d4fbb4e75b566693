import { Trans } from '@lingui/react/macro'
import { Button, Group, Stack, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { IssueState } from '../../../../../../../src/domains/issues/schemas'
import type { SortingState } from '../../../../../../components/DataTable'
import { useIssueAccess } from '../../../../../../components/issues/issue-access'
import { IssueCountChips, IssuesTable } from '../../../../../../components/issues/IssuesTable'
import { NewIssueDialog } from '../../../../../../components/issues/NewIssueDialog'
import { toApiError } from '../../../../../../lib/api-error'
import { errorMessage } from '../../../../../../lib/error-messages'
import { trpc } from '../../../../../../lib/trpc'

const PAGE_SIZE = 25

/** SPEC 2: the issues opened on the work order and on its jobs. */
export const Route = createFileRoute('/app/production/workorder/$wo_key/issues/')({
  component: WorkOrderIssues,
})

function WorkOrderIssues() {
  const { wo_key } = Route.useParams()
  const navigate = useNavigate()
  const access = useIssueAccess()
  const [states, setStates] = useState<IssueState[]>([])
  const [critical, setCritical] = useState(false)
  const [sorting, setSorting] = useState<SortingState>([{ id: 'opened_at', desc: true }])
  const [page, setPage] = useState(1)
  const [creating, setCreating] = useState(false)
  const sort = sorting[0]
  const input = {
    work_order_key: wo_key,
    state: states.length ? states : undefined,
    critical: critical || undefined,
    sort: sort?.id as 'opened_at',
    dir: sort?.desc ? ('desc' as const) : ('asc' as const),
    page,
    page_size: PAGE_SIZE,
  }
  const issues = useQuery({ ...trpc.issues.list.queryOptions(input), placeholderData: keepPreviousData, staleTime: 0 })
  const open = (issueKey: string) => navigate({ to: '/app/production/workorder/$wo_key/issues/$issueKey', params: { wo_key, issueKey } })

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <IssueCountChips
          counts={issues.data?.counts}
          states={states}
          critical={critical}
          onStates={(s) => {
            setStates(s)
            setPage(1)
          }}
          onCritical={(c) => {
            setCritical(c)
            setPage(1)
          }}
        />
        {access.canCreate('work_order') && (
          <Button onClick={() => setCreating(true)} data-testid="new-issue">
            <Trans>Nuova segnalazione</Trans>
          </Button>
        )}
      </Group>
      {issues.isError && <Text c="red">{errorMessage(toApiError(issues.error))}</Text>}
      <IssuesTable
        data={issues.data}
        loading={issues.isFetching && !issues.data}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        sorting={sorting}
        onSortingChange={(s) => {
          setSorting(s)
          setPage(1)
        }}
        onOpen={(r) => open(r._key)}
        empty={<Trans>Nessuna segnalazione su questo ordine di lavoro</Trans>}
      />
      <NewIssueDialog
        opened={creating}
        context={{ work_order_key: wo_key }}
        onClose={() => setCreating(false)}
        onCreated={(issue) => {
          setCreating(false)
          void open(issue._key)
        }}
      />
    </Stack>
  )
}
