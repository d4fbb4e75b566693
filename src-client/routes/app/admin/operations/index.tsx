import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import type { OPERATION_SORTS, OperationRow } from '../../../../../src/domains/operations/schemas'
import { formatDateTime } from '../../../../../src/i18n/format'
import type { DataColumn } from '../../../../components/DataTable'
import { trpc } from '../../../../lib/trpc'
import { LIBRARY_PAGE_SIZE, LibraryListPage, useLibraryList } from '../-library-pages'
import { sortInput } from '../-library-ui'

export const Route = createFileRoute('/app/admin/operations/')({
  component: OperationsList,
})

function OperationsList() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const list = useLibraryList('name')
  const input = { search: list.searched, ...sortInput<(typeof OPERATION_SORTS)[number]>(list.sorting), page: list.page, page_size: LIBRARY_PAGE_SIZE }
  const { data, isFetching } = useQuery({ ...trpc.operations.list.queryOptions(input), placeholderData: keepPreviousData })

  const columns = useMemo<DataColumn<OperationRow>[]>(
    () => [
      { id: 'name', header: t`Nome`, accessorFn: (r) => r.name, cell: ({ row }) => <Text fw={500}>{row.original.name}</Text> },
      {
        id: 'steps',
        header: t`Passi predefiniti`,
        accessorFn: (r) => r.default_phase_steps.length,
        cell: ({ row }) => <StepSummary operation={row.original} />,
      },
      { id: 'updated_at', header: t`Ultima modifica`, accessorFn: (r) => r.updated_at, cell: ({ row }) => formatDateTime(row.original.updated_at) },
    ],
    [t],
  )

  return (
    <LibraryListPage
      list={list}
      title={<Trans>Operazioni</Trans>}
      description={<Trans>Tipi di lavoro riutilizzabili con i loro passi predefiniti, copiati nelle fasi dei prodotti.</Trans>}
      action={
        <Button component={Link} to="/app/admin/operations/new">
          <Trans>Nuova operazione</Trans>
        </Button>
      }
      searchPlaceholder={t`Cerca per nome`}
      columns={columns}
      rows={data?.rows}
      total={data?.total}
      loading={isFetching && !data}
      onRowClick={(r) => navigate({ to: '/app/admin/operations/$operation_key', params: { operation_key: r._key } })}
      empty={list.searched ? <Trans>Nessuna operazione trovata</Trans> : <Trans>Nessuna operazione: creane una.</Trans>}
    />
  )
}

function StepSummary({ operation }: { operation: OperationRow }) {
  const steps = operation.default_phase_steps
  const instructions = steps.filter((s) => s.type === 'instruction').length
  const forms = steps.length - instructions
  const media = steps.reduce((n, s) => n + s.media.length, 0)
  if (steps.length === 0) return <Text c="dimmed" size="sm">—</Text>
  return (
    <Group gap={6}>
      {instructions > 0 && (
        <Badge variant="light" color="teal">
          <Plural value={instructions} one="# istruzione" other="# istruzioni" />
        </Badge>
      )}
      {forms > 0 && (
        <Badge variant="light" color="grape">
          <Plural value={forms} one="# modulo" other="# moduli" />
        </Badge>
      )}
      {media > 0 && (
        <Badge variant="outline" color="gray">
          <Plural value={media} one="# allegato" other="# allegati" />
        </Badge>
      )}
    </Group>
  )
}
