import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import type { ISSUE_TYPE_SORTS, IssueTypeRow } from '../../../../../src/domains/issue-types/schemas'
import type { DataColumn } from '../../../../components/DataTable'
import { ISSUE_LINK_LABELS } from '../../../../lib/library-labels'
import { trpc } from '../../../../lib/trpc'
import { LibraryListPage, useLibraryList } from '../-library-pages'
import { sortInput } from '../-library-ui'

export const Route = createFileRoute('/app/admin/issue-types/')({
  component: IssueTypesList,
})

function IssueTypesList() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const list = useLibraryList('code')
  const input = {
    search: list.searched,
    active_only: list.status === 'active' || undefined,
    inactive_only: list.status === 'inactive' || undefined,
    ...sortInput<(typeof ISSUE_TYPE_SORTS)[number]>(list.sorting),
  }
  const { data, isFetching } = useQuery({ ...trpc.issueTypes.list.queryOptions(input), placeholderData: keepPreviousData })

  const columns = useMemo<DataColumn<IssueTypeRow>[]>(
    () => [
      { id: 'code', header: t`Codice`, accessorFn: (r) => r.code, cell: ({ row }) => <Text fw={600}>{row.original.code}</Text> },
      { id: 'name', header: t`Nome`, accessorFn: (r) => r.name },
      {
        id: 'close_within',
        header: t`Chiudere entro`,
        accessorFn: (r) => r.close_within,
        cell: ({ row }) =>
          row.original.close_within === 0 ? (
            <Text c="dimmed" size="sm">
              <Trans>nessun limite</Trans>
            </Text>
          ) : (
            <Trans>{row.original.close_within} h</Trans>
          ),
      },
      { id: 'link_type', header: t`Collegata a`, enableSorting: false, accessorFn: (r) => r.link_type, cell: ({ row }) => i18n._(ISSUE_LINK_LABELS[row.original.link_type]) },
      {
        id: 'flags',
        header: t`Stato`,
        enableSorting: false,
        accessorFn: (r) => r.active,
        cell: ({ row }) => (
          <Group gap={6}>
            {row.original.critical && (
              <Badge color="red" variant="light">
                <Trans>Critica</Trans>
              </Badge>
            )}
            {!row.original.active && (
              <Badge color="gray" variant="outline">
                <Trans>Non attivo</Trans>
              </Badge>
            )}
          </Group>
        ),
      },
    ],
    [t, i18n],
  )

  return (
    <LibraryListPage
      list={list}
      title={<Trans>Tipi di segnalazione</Trans>}
      description={<Trans>Le categorie delle segnalazioni: entro quante ore chiuderle prima che diventino critiche e a cosa si collegano.</Trans>}
      action={
        <Button component={Link} to="/app/admin/issue-types/new">
          <Trans>Nuovo tipo</Trans>
        </Button>
      }
      searchPlaceholder={t`Cerca per codice o nome`}
      inactiveLabel={t`Non attivi`}
      columns={columns}
      rows={data}
      loading={isFetching && !data}
      onRowClick={(r) => navigate({ to: '/app/admin/issue-types/$issueTypeKey', params: { issueTypeKey: r._key } })}
      empty={<Trans>Nessun tipo di segnalazione</Trans>}
    />
  )
}
