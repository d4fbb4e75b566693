import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Stack, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import type { WorkOrderListItem } from '../../../../../../src/domains/work-orders/schemas'
import { formatDate } from '../../../../../../src/i18n/format'
import { type DataColumn, DataTable } from '../../../../../components/DataTable'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { invalidateWorkOrders, ProgressCell, StatusBadge } from '../../workorder/-workorder-ui'
import { pageNumber, searchText } from '../../../../../lib/list-search'
import { useSearchBox } from '../../../../../lib/use-search-box'
import { CameraTextInput } from '../../../../../components/scan/CameraTextInput'

const PAGE_SIZE = 50

type ArchiveSearch = { q?: string; page?: number }

export const Route = createFileRoute('/app/production/overview/workorder/archive')({
  validateSearch: (raw: Record<string, unknown>): ArchiveSearch => ({ q: searchText(raw.q), page: pageNumber(raw.page) }),
  component: WorkOrderArchive,
})

/** Completed and closed work orders that left the active list: searchable, and restorable. */
function WorkOrderArchive() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const page = search.page ?? 1
  const [text, setText] = useSearchBox(search.q, (q) => navigate({ search: { q }, replace: true }))

  const list = useQuery({
    ...trpc.workOrders.list.queryOptions({ archived: true, search: search.q, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  })
  const total = list.data?.total ?? 0
  const [restoring, setRestoring] = useState<string | null>(null)

  async function restore(wo: WorkOrderListItem) {
    setRestoring(wo._key)
    try {
      await trpcClient.workOrders.restore.mutate({ key: wo._key })
      notifySuccess(t`Ordine di lavoro ${wo.code} ripristinato in fondo alla coda`)
      await invalidateWorkOrders()
    } catch (e) {
      notifyError(e)
    } finally {
      setRestoring(null)
    }
  }

  const columns = useMemo<DataColumn<WorkOrderListItem>[]>(
    () => [
      { id: 'code', accessorKey: 'code', header: () => t`Codice`, enableSorting: false, cell: ({ row }) => <Text fw={600} size="sm">{row.original.code}</Text> },
      {
        id: 'product',
        header: () => t`Prodotto`,
        enableSorting: false,
        cell: ({ row }) => (
          <div>
            <Text size="sm" fw={500}>
              {row.original.product_code}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={1} maw={260}>
              {row.original.product_description}
            </Text>
          </div>
        ),
      },
      {
        id: 'progress',
        header: () => t`Avanzamento`,
        enableSorting: false,
        cell: ({ row }) => <ProgressCell progress={row.original.progress} completed={row.original.completed_qt} planned={row.original.planned_qt} />,
      },
      { id: 'due_by', header: () => t`Consegna`, enableSorting: false, cell: ({ row }) => row.original.due_by ?? '—' },
      { id: 'status', header: () => t`Stato`, enableSorting: false, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: 'archived_at',
        header: () => t`Archiviato il`,
        enableSorting: false,
        cell: ({ row }) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(row.original.archived_at)}</span>,
      },
      {
        id: 'actions',
        header: () => null,
        enableSorting: false,
        cell: ({ row }) => (
          <Button
            size="xs"
            variant="light"
            loading={restoring === row.original._key}
            onClick={(e: React.MouseEvent) => {
              e.stopPropagation()
              void restore(row.original)
            }}
          >
            <Trans>Ripristina</Trans>
          </Button>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n.locale, restoring],
  )

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <CameraTextInput label={t`Cerca nell'archivio`} placeholder={t`Codice, prodotto, linea`} value={text} onChange={(e) => setText(e.currentTarget.value)} w={300} type="search" />
        <Text size="sm" c="dimmed">
          <Trans>Ordini di lavoro completati o chiusi, dal più recente</Trans>
        </Text>
      </Group>
      <DataTable
        columns={columns}
        data={list.data?.rows ?? []}
        getRowId={(w) => w._key}
        page={page}
        pageCount={Math.max(1, Math.ceil(total / PAGE_SIZE))}
        total={total}
        onPageChange={(p) => navigate({ search: (prev) => ({ ...prev, page: p > 1 ? p : undefined }), replace: true })}
        loading={list.isLoading}
        onRowClick={(w) => navigate({ to: '/app/production/workorder/$wo_key/job-list', params: { wo_key: w._key } })}
        empty={search.q ? <Trans>Nessun ordine archiviato corrisponde alla ricerca</Trans> : <Trans>Nessun ordine di lavoro archiviato</Trans>}
      />
    </Stack>
  )
}
