import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import type { FIELD_SORTS, FieldRow } from '../../../../../src/domains/form-fields/schemas'
import type { DataColumn } from '../../../../components/DataTable'
import { FIELD_TYPE_LABELS } from '../../../../lib/library-labels'
import { trpc } from '../../../../lib/trpc'
import { LibraryListPage, useLibraryList } from '../-library-pages'
import { sortInput } from '../-library-ui'

export const Route = createFileRoute('/app/admin/field/')({
  component: FieldsList,
})

function FieldsList() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const list = useLibraryList('name')
  const input = {
    search: list.searched,
    active_only: list.status === 'active' || undefined,
    archived_only: list.status === 'inactive' || undefined,
    ...sortInput<(typeof FIELD_SORTS)[number]>(list.sorting),
  }
  const { data, isFetching } = useQuery({ ...trpc.formFields.list.queryOptions(input), placeholderData: keepPreviousData })

  const columns = useMemo<DataColumn<FieldRow>[]>(
    () => [
      { id: 'name', header: t`Nome`, accessorFn: (r) => r.name, cell: ({ row }) => <Text fw={500}>{row.original.name}</Text> },
      { id: 'type', header: t`Tipo`, accessorFn: (r) => r.type, cell: ({ row }) => i18n._(FIELD_TYPE_LABELS[row.original.type]) },
      {
        id: 'flags',
        header: t`Caratteristiche`,
        enableSorting: false,
        accessorFn: (r) => r.mandatory,
        cell: ({ row }) => (
          <Group gap={6}>
            {row.original.mandatory && (
              <Badge color="red" variant="light">
                <Trans>Obbligatorio</Trans>
              </Badge>
            )}
            {row.original.multiple && (
              <Badge color="blue" variant="light">
                <Trans>Valori multipli</Trans>
              </Badge>
            )}
            {row.original.type === 'choice' && (
              <Badge color="gray" variant="outline">
                <Plural value={row.original.options.length} one="# opzione" other="# opzioni" />
              </Badge>
            )}
          </Group>
        ),
      },
      {
        id: 'usage',
        header: t`Stato`,
        enableSorting: false,
        accessorFn: (r) => r.in_use,
        cell: ({ row }) => (
          <Group gap={6}>
            {row.original.in_use && (
              <Badge color="teal" variant="light">
                <Trans>In uso</Trans>
              </Badge>
            )}
            {!row.original.active && (
              <Badge color="gray" variant="outline">
                <Trans>Archiviato</Trans>
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
      title={<Trans>Campi personalizzati</Trans>}
      description={<Trans>I campi con cui si costruiscono i moduli dei passi e i dati aggiuntivi dei prodotti.</Trans>}
      action={
        <Button component={Link} to="/app/admin/field/new">
          <Trans>Nuovo campo</Trans>
        </Button>
      }
      searchPlaceholder={t`Cerca per nome o aiuto`}
      inactiveLabel={t`Archiviati`}
      columns={columns}
      rows={data}
      loading={isFetching && !data}
      onRowClick={(r) => navigate({ to: '/app/admin/field/$field_key', params: { field_key: r._key } })}
      empty={<Trans>Nessun campo</Trans>}
    />
  )
}
