import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Checkbox, Code, Group, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import type { COUNTER_SORTS, CounterRow } from '../../../../../src/domains/counters/schemas'
import type { DataColumn } from '../../../../components/DataTable'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { LIBRARY_PAGE_SIZE, LibraryListPage, useLibraryList } from '../-library-pages'
import { sortInput } from '../-library-ui'
import { useFrequencyLabels } from './-frequency'

export const Route = createFileRoute('/app/admin/counter/')({
  component: CountersList,
})

function CountersList() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const frequencyLabels = useFrequencyLabels()
  const list = useLibraryList('name')
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [copying, setCopying] = useState(false)
  const input = { search: list.searched, ...sortInput<(typeof COUNTER_SORTS)[number]>(list.sorting), page: list.page, page_size: LIBRARY_PAGE_SIZE }
  const { data, isFetching } = useQuery({ ...trpc.counters.list.queryOptions(input), placeholderData: keepPreviousData })

  const toggle = (key: string, on: boolean) =>
    setSelected((old) => {
      const next = new Set(old)
      if (on) next.add(key)
      else next.delete(key)
      return next
    })

  const columns = useMemo<DataColumn<CounterRow>[]>(
    () => [
      {
        id: 'select',
        header: '',
        enableSorting: false,
        cell: ({ row }) => (
          // The row opens the counter; the box only selects it.
          <div onClick={(e) => e.stopPropagation()}>
            <Checkbox
              aria-label={t`Seleziona ${row.original.name}`}
              checked={selected.has(row.original._key)}
              onChange={(e) => toggle(row.original._key, e.currentTarget.checked)}
            />
          </div>
        ),
      },
      { id: 'name', header: t`Nome`, accessorFn: (r) => r.name, cell: ({ row }) => <Text fw={500}>{row.original.name}</Text> },
      { id: 'template', header: t`Modello`, accessorFn: (r) => r.template, cell: ({ row }) => <Code>{row.original.template}</Code> },
      { id: 'frequency', header: t`Azzeramento`, accessorFn: (r) => r.frequency, cell: ({ row }) => frequencyLabels[row.original.frequency] },
      {
        id: 'next_code',
        header: t`Prossimo codice`,
        enableSorting: false,
        accessorFn: (r) => r.next_code,
        cell: ({ row }) => <Text ff="monospace">{row.original.next_code ?? '—'}</Text>,
      },
      { id: 'next_tick', header: t`Prossimo azzeramento`, enableSorting: false, accessorFn: (r) => r.next_tick, cell: ({ row }) => row.original.next_tick ?? '—' },
    ],
    [t, selected, frequencyLabels],
  )

  async function copySelected() {
    setCopying(true)
    try {
      const copies = await trpcClient.counters.copy.mutate({ keys: [...selected] })
      setSelected(new Set())
      await queryClient.invalidateQueries({ queryKey: trpc.counters.list.pathKey() })
      notifySuccess(copies.length === 1 ? t`Contatore copiato` : t`${copies.length} contatori copiati`)
    } catch (e) {
      notifyError(e)
    } finally {
      setCopying(false)
    }
  }

  return (
    <LibraryListPage
      list={list}
      title={<Trans>Contatori</Trans>}
      description={<Trans>Modelli che generano i codici dei seriali: testo, parti della data e una sequenza che si azzera con la frequenza scelta.</Trans>}
      action={
        <Group gap="sm">
          <Button variant="default" disabled={selected.size === 0} loading={copying} onClick={copySelected}>
            <Trans>Copia selezionati</Trans>
            {selected.size > 0 && ` (${selected.size})`}
          </Button>
          <Button component={Link} to="/app/admin/counter/new">
            <Trans>Nuovo contatore</Trans>
          </Button>
        </Group>
      }
      searchPlaceholder={t`Cerca per nome o modello`}
      columns={columns}
      rows={data?.rows}
      total={data?.total}
      loading={isFetching && !data}
      onRowClick={(r) => navigate({ to: '/app/admin/counter/$counter_key', params: { counter_key: r._key } })}
      empty={list.searched ? <Trans>Nessun contatore trovato</Trans> : <Trans>Nessun contatore: creane uno.</Trans>}
    />
  )
}
