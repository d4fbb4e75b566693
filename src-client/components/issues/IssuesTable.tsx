import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Chip, Group, Stack, Text } from '@mantine/core'
import { type ReactNode, useMemo } from 'react'
import type { IssueCounts, IssuePage, IssueRow, IssueState } from '../../../src/domains/issues/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { type DataColumn, DataTable, type SortingState } from '../DataTable'
import { IssueContext } from './IssueContext'
import { IssueCriticalBadge, IssueStateBadge } from './IssueBadges'
import { STATE_FILTER_LABELS } from './issue-labels'

type Props = {
  data: IssuePage | undefined
  loading: boolean
  page: number
  pageSize: number
  onPageChange: (page: number) => void
  sorting: SortingState
  onSortingChange: (sorting: SortingState) => void
  onOpen: (row: IssueRow) => void
  empty: ReactNode
}

/** Issues of the overview and of a work order: paged and sorted on the server. */
export function IssuesTable(props: Props) {
  const { t, i18n } = useLingui()
  const columns = useMemo<DataColumn<IssueRow>[]>(
    () => [
      {
        id: 'code',
        accessorKey: 'code',
        header: () => t`Codice`,
        cell: ({ row }) => (
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="issue-code">
            {row.original.code}
          </Text>
        ),
      },
      {
        // The type under the title: the title is what people scan, and the table fits a tablet.
        id: 'title',
        accessorKey: 'title',
        header: () => t`Titolo e tipo`,
        cell: ({ row }) => (
          <Stack gap={0} miw={180}>
            <Text size="sm" fw={500} lineClamp={2}>
              {row.original.title}
            </Text>
            <Text size="xs" c="dimmed">
              {row.original.type_name}
              {row.original.attachment_count > 0 && (
                <>
                  {' · '}
                  <Plural value={row.original.attachment_count} one="# allegato" other="# allegati" />
                </>
              )}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'state',
        accessorKey: 'state',
        header: () => t`Stato`,
        cell: ({ row }) => (
          <Stack gap={4} align="flex-start">
            <IssueStateBadge state={row.original.state} />
            <IssueCriticalBadge critical={row.original.critical} closed={row.original.state === 'closed'} />
          </Stack>
        ),
      },
      { id: 'context', header: () => t`Contesto`, enableSorting: false, cell: ({ row }) => <IssueContext issue={row.original} /> },
      {
        id: 'opened_at',
        accessorKey: 'opened_at',
        header: () => t`Apertura`,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(row.original.opened_at)}
            </Text>
            <Text size="xs" c="dimmed">
              {row.original.opened_by_name ?? <Trans>sistema</Trans>}
            </Text>
          </Stack>
        ),
      },
    ],
    // Labels follow the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n.locale],
  )
  const total = props.data?.total ?? 0
  return (
    <DataTable
      columns={columns}
      data={props.data?.rows ?? []}
      getRowId={(r) => r._key}
      sorting={props.sorting}
      onSortingChange={props.onSortingChange}
      page={props.page}
      pageCount={Math.max(1, Math.ceil(total / props.pageSize))}
      total={total}
      onPageChange={props.onPageChange}
      loading={props.loading}
      onRowClick={props.onOpen}
      empty={props.empty}
    />
  )
}

/**
 * The counts per state as filter chips (several states may be chosen; none = all), and the
 * critical ones as a chip of their own.
 */
export function IssueCountChips(props: {
  counts: IssueCounts | undefined
  states: IssueState[]
  critical: boolean
  onStates: (states: IssueState[]) => void
  onCritical: (critical: boolean) => void
}) {
  const { t, i18n } = useLingui()
  const order: IssueState[] = ['open', 'reopened', 'closed']
  const count = (n: number | undefined) => (n === undefined ? '' : ` · ${n}`)
  return (
    <Group gap="xs" role="group" aria-label={t`Stato`}>
      <Chip.Group multiple value={props.states} onChange={(v) => props.onStates(order.filter((s) => v.includes(s)))}>
        {order.map((s) => (
          <Chip key={s} value={s} variant="outline" data-testid={`chip-${s}`}>
            {i18n._(STATE_FILTER_LABELS[s])}
            {count(props.counts?.[s])}
          </Chip>
        ))}
      </Chip.Group>
      <Chip checked={props.critical} onChange={props.onCritical} color="red" variant="outline" data-testid="chip-critical">
        <Trans>Critiche</Trans>
        {count(props.counts?.critical)}
      </Chip>
    </Group>
  )
}
