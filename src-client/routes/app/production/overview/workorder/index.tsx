import { arrayMove } from '@dnd-kit/sortable'
import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Group, Select, Stack, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import * as v from 'valibot'
import {
  DateInput,
  WORK_ORDER_SORTS,
  WORK_ORDER_STATUSES,
  type WorkOrderListItem,
  type WorkOrderSort,
  type WorkOrderStatus,
} from '../../../../../../src/domains/work-orders/schemas'
import { parseDateText, isoToDateText } from '../../../../../../src/i18n/date-text'
import type { SortingState } from '../../../../../components/DataTable'
import { DateField } from '../../../../../components/DateField'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { FLOOR_TOPICS, useLive } from '../../../../../lib/live'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import {
  CriticalMarker,
  invalidateWorkOrders,
  ProgressCell,
  StatusBadge,
  TimingBadge,
} from '../../workorder/-workorder-ui'
import { QueuePositionMenu } from './-queue-position'
import { SortableTable, type SortableColumn } from './-sortable-table'
import { pageNumber, pick, searchText } from '../../../../../lib/list-search'
import { CameraTextInput } from '../../../../../components/scan/CameraTextInput'
import { useDebouncedValue } from '@mantine/hooks'
import { useSearchBox } from '../../../../../lib/use-search-box'

const PAGE_SIZE = 50

/** The list's state lives in the URL: back from a work order finds the same search, filters and page. */
type ListSearch = {
  q?: string
  status?: WorkOrderStatus
  timing?: 'late' | 'on_time'
  critical?: 'yes' | 'no'
  product?: string
  from?: string
  to?: string
  sort?: WorkOrderSort
  dir?: 'asc' | 'desc'
  page?: number
}

const dateOrUndefined = (x: unknown) => (typeof x === 'string' && v.safeParse(DateInput, x).success ? x : undefined)

function validateSearch(raw: Record<string, unknown>): ListSearch {
  return {
    q: searchText(raw.q),
    status: pick(WORK_ORDER_STATUSES, raw.status),
    timing: pick(['late', 'on_time'] as const, raw.timing),
    critical: pick(['yes', 'no'] as const, raw.critical),
    product: typeof raw.product === 'string' && /^[0-9a-f-]{36}$/i.test(raw.product) ? raw.product : undefined,
    from: dateOrUndefined(raw.from),
    to: dateOrUndefined(raw.to),
    sort: pick(WORK_ORDER_SORTS, raw.sort),
    dir: pick(['asc', 'desc'] as const, raw.dir),
    page: pageNumber(raw.page),
  }
}

export const Route = createFileRoute('/app/production/overview/workorder/')({
  validateSearch,
  component: WorkOrderList,
})

function WorkOrderList() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const page = search.page ?? 1
  const sort = search.sort ?? 'queue'
  const dir = search.dir ?? 'asc'

  const setSearch = (patch: Partial<ListSearch>, resetPage = true) =>
    navigate({ search: (prev) => ({ ...prev, ...(resetPage ? { page: undefined } : {}), ...patch }), replace: true })

  const [text, setText] = useSearchBox(search.q, (q) => setSearch({ q }))

  // The product filter searches on the server; once one is chosen its label fills the box.
  const [productSearch, setProductSearch] = useState('')
  const [productLabel, setProductLabel] = useState<string | null>(null)
  const [productDebounced] = useDebouncedValue(productSearch, 250)
  const optsSearch = productDebounced && productDebounced !== productLabel ? productDebounced : undefined
  const opts = useQuery({ ...trpc.workOrders.searchOpts.queryOptions({ search: optsSearch }), placeholderData: keepPreviousData })

  const input = {
    search: search.q,
    status: search.status,
    late: search.timing === undefined ? undefined : search.timing === 'late',
    critical: search.critical === undefined ? undefined : search.critical === 'yes',
    product_key: search.product,
    date_from: search.from,
    date_to: search.to,
    sort,
    dir,
    page,
    page_size: PAGE_SIZE,
  }
  const list = useQuery({ ...trpc.workOrders.list.queryOptions(input), placeholderData: keepPreviousData })
  useLive(FLOOR_TOPICS, () => [trpc.workOrders.list.pathKey()])
  const total = list.data?.total ?? 0
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE))
  const filtered = Boolean(search.q || search.status || search.timing || search.critical || search.product || search.from || search.to)
  const reorderable = !filtered && sort === 'queue' && dir === 'asc'

  // While a reorder is being saved the rows show the new order at once.
  const [optimistic, setOptimistic] = useState<WorkOrderListItem[] | null>(null)
  useEffect(() => setOptimistic(null), [list.data])
  const rows = optimistic ?? list.data?.rows ?? []

  async function move(activeId: string, overId: string) {
    const fromIdx = rows.findIndex((r) => r._key === activeId)
    const toIdx = rows.findIndex((r) => r._key === overId)
    if (fromIdx < 0 || toIdx < 0) return
    setOptimistic(arrayMove(rows, fromIdx, toIdx))
    try {
      // The place the row was dropped on, counted on the whole queue (the list is the queue in
      // order, a page at a time): one work order moves, the queue is never read or sent whole.
      await trpcClient.workOrders.moveInQueue.mutate({ work_order_key: activeId, position: (page - 1) * PAGE_SIZE + toIdx + 1 })
      notifySuccess(t`Coda salvata`)
    } catch (e) {
      setOptimistic(null)
      notifyError(e)
    } finally {
      await invalidateWorkOrders()
    }
  }

  const sorting: SortingState = sort === 'queue' ? [] : [{ id: sort, desc: dir === 'desc' }]
  const columns = useMemo<SortableColumn<WorkOrderListItem>[]>(
    () => [
      {
        id: 'code',
        accessorKey: 'code',
        header: () => t`Codice`,
        cell: ({ row }) => (
          <Group gap={6} wrap="nowrap">
            <Anchor
              renderRoot={(props) => <Link to="/app/production/workorder/$wo_key/job-list" params={{ wo_key: row.original._key }} {...props} />}
              fw={600}
              size="sm"
              onClick={(e: React.MouseEvent) => e.stopPropagation()}
            >
              {row.original.code}
            </Anchor>
            <CriticalMarker critical={row.original.critical} criticalJob={row.original.has_critical_job} />
          </Group>
        ),
      },
      {
        id: 'product',
        accessorKey: 'product_code',
        header: () => t`Prodotto`,
        cell: ({ row }) => (
          <div>
            <Text size="sm" fw={500}>
              {row.original.product_code}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={1} maw={200}>
              {row.original.product_description}
            </Text>
          </div>
        ),
      },
      {
        id: 'quantity',
        header: () => t`Quantità`,
        enableSorting: false,
        cell: ({ row }) => (
          <div style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm" fw={500}>
              <Trans>
                {row.original.completed_qt} di {row.original.planned_qt}
              </Trans>
            </Text>
            <Text size="xs" c="dimmed">
              <Trans>{row.original.remaining_qt} residui</Trans>
            </Text>
          </div>
        ),
      },
      {
        id: 'progress',
        header: () => t`Avanzamento`,
        cell: ({ row }) => <ProgressCell progress={row.original.progress} />,
      },
      {
        id: 'start_from',
        accessorKey: 'start_from',
        header: () => t`Inizio`,
        cell: ({ row }) => <NoWrap>{row.original.start_from ?? '—'}</NoWrap>,
      },
      {
        id: 'due_by',
        accessorKey: 'due_by',
        header: () => t`Consegna`,
        cell: ({ row }) => (
          <Stack gap={2} align="flex-start">
            <NoWrap>{row.original.due_by ?? '—'}</NoWrap>
            <TimingBadge late={row.original.late} status={row.original.status} dueBy={row.original.due_by} />
          </Stack>
        ),
      },
      {
        id: 'line',
        accessorKey: 'line',
        header: () => t`Linea`,
        enableSorting: false,
        cell: ({ row }) => (row.original.line ? <NoWrap>{row.original.line}</NoWrap> : <Text c="dimmed">—</Text>),
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: () => t`Stato`,
        enableSorting: false,
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
      },
    ],
    // Labels follow the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n.locale],
  )

  // In the unfiltered queue order each row shows its place in the whole queue and can move to any place.
  const queueColumns = useMemo<SortableColumn<WorkOrderListItem>[]>(() => {
    if (!reorderable) return columns
    const place = (index: number) => (page - 1) * PAGE_SIZE + index + 1
    return [
      {
        id: 'queue_position',
        header: () => t`Pos.`,
        enableSorting: false,
        // The place and its menu sit beside the drag handle, visible however narrow the screen.
        // Clicks inside the menu and its dialog (portals bubble through React) must not open the work order.
        cell: ({ row }) => (
          // biome-ignore lint/a11y/noStaticElementInteractions: keeps the row click from firing
          <div onClick={(e) => e.stopPropagation()}>
            <Group gap={4} wrap="nowrap">
              <Text size="sm" c="dimmed" miw={28} ta="right" data-testid="queue-place">
                {place(row.index)}
              </Text>
              <QueuePositionMenu
                wo={row.original}
                position={place(row.index)}
                total={total}
                onMoved={(to) => {
                  const target = Math.ceil(to / PAGE_SIZE)
                  if (target !== page) setSearch({ page: target > 1 ? target : undefined }, false)
                }}
              />
            </Group>
          </div>
        ),
      },
      ...columns,
    ]
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [columns, reorderable, page, total, i18n.locale])

  const productOptions = (opts.data?.products ?? []).map((p) => ({ value: p._key, label: `${p.code} — ${p.description}` }))
  if (search.product && !productOptions.some((o) => o.value === search.product)) productOptions.unshift({ value: search.product, label: productLabel ?? t`Prodotto selezionato` })

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="sm">
        <CameraTextInput
          label={t`Cerca`}
          placeholder={t`Codice, prodotto, linea`}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
          type="search"
        />
        <Button component={Link} to="/app/production/overview/workorder/new">
          <Trans>Nuovo ordine di lavoro</Trans>
        </Button>
        <Button component={Link} to="/app/production/overview/workorder/import" variant="default">
          <Trans>Importa da CSV</Trans>
        </Button>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t`Stato`}
          w={130}
          placeholder={t`Tutti`}
          clearable
          data={[
            { value: 'active', label: t`Attivi` },
            { value: 'completed', label: t`Completati` },
            { value: 'closed', label: t`Chiusi` },
          ]}
          value={search.status ?? null}
          onChange={(x) => setSearch({ status: pick(WORK_ORDER_STATUSES, x) })}
        />
        <Select
          label={t`Puntualità`}
          w={130}
          placeholder={t`Tutti`}
          clearable
          data={[
            { value: 'late', label: t`In ritardo` },
            { value: 'on_time', label: t`In tempo` },
          ]}
          value={search.timing ?? null}
          onChange={(x) => setSearch({ timing: pick(['late', 'on_time'] as const, x) })}
        />
        <Select
          label={t`Criticità`}
          w={130}
          placeholder={t`Tutti`}
          clearable
          data={[
            { value: 'yes', label: t`Critici` },
            { value: 'no', label: t`Non critici` },
          ]}
          value={search.critical ?? null}
          onChange={(x) => setSearch({ critical: pick(['yes', 'no'] as const, x) })}
        />
        <Select
          label={t`Prodotto`}
          w={220}
          placeholder={t`Tutti`}
          clearable
          searchable
          filter={({ options }) => options}
          searchValue={productSearch}
          onSearchChange={setProductSearch}
          nothingFoundMessage={t`Nessun prodotto`}
          data={productOptions}
          value={search.product ?? null}
          onChange={(x) => {
            setProductLabel(productOptions.find((o) => o.value === x)?.label ?? null)
            setSearch({ product: x ?? undefined })
          }}
        />
        {/* The URL keeps the days as SPEC 5 writes them (YYYY/MM/DD); the field works on 'YYYY-MM-DD'. */}
        <DateField
          label={t`Consegna dal`}
          value={search.from ? parseDateText(search.from) : null}
          onChange={(d) => setSearch({ from: d ? isoToDateText(d) : undefined })}
          w={150}
        />
        <DateField label={t`al`} value={search.to ? parseDateText(search.to) : null} onChange={(d) => setSearch({ to: d ? isoToDateText(d) : undefined })} w={150} />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setText('')
              setProductLabel(null)
              setProductSearch('')
              navigate({ search: {}, replace: true })
            }}
          >
            <Trans>Azzera filtri</Trans>
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed" data-testid="reorder-hint">
        {reorderable ? (
          <Trans>
            Ordine della coda di stabilimento: trascina le righe dalla maniglia ⠿ per riordinarla, o usa il menu ⋯ di una riga per spostarla in
            cima, in fondo o a una posizione qualsiasi.
          </Trans>
        ) : sort !== 'queue' && !filtered ? (
          <Trans>
            Ordinato per colonna.{' '}
            <Anchor size="xs" onClick={() => setSearch({ sort: undefined, dir: undefined })}>
              Torna all'ordine della coda
            </Anchor>{' '}
            per riordinarla.
          </Trans>
        ) : (
          <Trans>Il riordino della coda è disponibile solo senza filtri e nell'ordine della coda.</Trans>
        )}
      </Text>
      <SortableTable
        columns={queueColumns}
        data={rows}
        getRowId={(w) => w._key}
        reorderable={reorderable}
        onMove={move}
        sorting={sorting}
        onSortingChange={(s) => {
          const first = s[0]
          const next = first && (WORK_ORDER_SORTS as readonly string[]).includes(first.id) ? (first.id as WorkOrderSort) : undefined
          setSearch({ sort: next, dir: first?.desc ? 'desc' : undefined })
        }}
        page={page}
        pageCount={pageCount}
        total={total}
        onPageChange={(p) => setSearch({ page: p > 1 ? p : undefined }, false)}
        loading={list.isLoading}
        onRowClick={(w) => navigate({ to: '/app/production/workorder/$wo_key/job-list', params: { wo_key: w._key } })}
        empty={filtered ? <Trans>Nessun ordine di lavoro corrisponde ai filtri</Trans> : <Trans>Nessun ordine di lavoro in coda</Trans>}
      />
      {list.isError && (
        <Text c="red" size="sm">
          <Trans>Impossibile caricare gli ordini di lavoro</Trans>
        </Text>
      )}
    </Stack>
  )
}

const NoWrap = ({ children }: { children: React.ReactNode }) => <span style={{ whiteSpace: 'nowrap' }}>{children}</span>
