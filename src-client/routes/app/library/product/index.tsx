import { Trans, useLingui } from '@lingui/react/macro'
import { Box, Button, Group, Image, SegmentedControl, Stack, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo } from 'react'
import { PRODUCT_SORTS, PRODUCT_STATES, type ProductState } from '../../../../../src/domains/products/schemas'
import { formatDate, formatDateTime } from '../../../../../src/i18n/format'
import { isUuid } from '../../../../../src/uuid'
import { type DataColumn, DataTable, type SortingState } from '../../../../components/DataTable'
import { ProductStateBadge, TagBadges } from '../../../../components/products/ProductBadges'
import { TagFilter } from '../../../../components/products/tags'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { trpc } from '../../../../lib/trpc'
import { pageNumber, pick, searchText } from '../../../../lib/list-search'
import { CameraTextInput } from '../../../../components/scan/CameraTextInput'
import { useSearchBox } from '../../../../lib/use-search-box'

const PAGE_SIZE = 25
type Sort = (typeof PRODUCT_SORTS)[number]

/** The list's state lives in the URL: back from a product finds the same search, filters and page. */
type ProductsSearch = { q?: string; state?: ProductState; tags?: string; sort?: Sort; dir?: 'asc' | 'desc'; page?: number }

function validateSearch(raw: Record<string, unknown>): ProductsSearch {
  const tags = typeof raw.tags === 'string' ? raw.tags.split(',').filter(isUuid).slice(0, 20) : []
  return {
    q: searchText(raw.q),
    state: pick(PRODUCT_STATES, raw.state),
    tags: tags.length ? tags.join(',') : undefined,
    sort: pick(PRODUCT_SORTS, raw.sort),
    dir: pick(['asc', 'desc'] as const, raw.dir),
    page: pageNumber(raw.page),
  }
}

export const Route = createFileRoute('/app/library/product/')({
  validateSearch,
  component: ProductList,
})

type Row = { _key: string; code: string; description: string; active: boolean; trash: boolean; image_url: string | null; tags: { _key: string; name: string }[]; updated_at: number }

function ProductList() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const state = search.state ?? 'active'
  const page = search.page ?? 1
  const tagKeys = useMemo(() => (search.tags ? search.tags.split(',') : []), [search.tags])

  const setSearch = (patch: Partial<ProductsSearch>, resetPage = true) =>
    navigate({ search: (prev) => ({ ...prev, ...(resetPage ? { page: undefined } : {}), ...patch }), replace: true })

  // Typing searches on the server once the user pauses.
  const [text, setText] = useSearchBox(search.q, (q) => setSearch({ q }))

  const input = {
    search: search.q,
    state,
    tags: tagKeys.length ? tagKeys : undefined,
    sort: search.sort ?? 'code',
    dir: search.dir ?? 'asc',
    page,
    page_size: PAGE_SIZE,
  }
  const products = useQuery({ ...trpc.products.list.queryOptions(input), placeholderData: keepPreviousData })

  // SPEC 8: a product list that cannot be loaded is a browser alert with the error.
  useEffect(() => {
    if (products.error) window.alert(t`Impossibile caricare i prodotti: ${errorMessage(toApiError(products.error))}`)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [products.error])

  // Names of the chosen tags, from the rows that carry them.
  const knownTags = useMemo(() => new Map((products.data?.rows ?? []).flatMap((r) => r.tags.map((tag) => [tag._key, tag.name] as [string, string]))), [products.data])

  const total = products.data?.total ?? 0
  const sorting: SortingState = [{ id: input.sort, desc: input.dir === 'desc' }]

  const columns = useMemo<DataColumn<Row>[]>(
    () => [
      {
        id: 'image',
        header: () => null,
        enableSorting: false,
        cell: ({ row }) => <Thumbnail url={row.original.image_url} code={row.original.code} />,
      },
      {
        id: 'code',
        accessorKey: 'code',
        header: () => t`Codice`,
        cell: ({ row }) => (
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {row.original.code}
          </Text>
        ),
      },
      {
        id: 'description',
        accessorKey: 'description',
        header: () => t`Descrizione`,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description || <Text span c="dimmed">—</Text>}
          </Text>
        ),
      },
      { id: 'tags', header: () => t`Tag`, enableSorting: false, cell: ({ row }) => <TagBadges tags={row.original.tags} max={3} /> },
      {
        id: 'state',
        header: () => t`Stato`,
        enableSorting: false,
        cell: ({ row }) => <ProductStateBadge active={row.original.active} trash={row.original.trash} />,
      },
      {
        id: 'updated_at',
        accessorKey: 'updated_at',
        header: () => <span style={{ whiteSpace: 'nowrap' }}>{t`Ultima modifica`}</span>,
        cell: ({ row }) => (
          <Text size="sm" title={formatDateTime(row.original.updated_at)} style={{ whiteSpace: 'nowrap' }}>
            {formatDate(row.original.updated_at)}
          </Text>
        ),
      },
    ],
    // Labels follow the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n.locale],
  )

  const filtered = Boolean(search.q || tagKeys.length)
  const empty =
    state === 'trash' ? (
      <Trans>Il cestino è vuoto</Trans>
    ) : filtered ? (
      <Trans>Nessun prodotto trovato</Trans>
    ) : state === 'inactive' ? (
      <Trans>Nessun prodotto non attivo</Trans>
    ) : (
      <Trans>Nessun prodotto: creane uno.</Trans>
    )

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>
            <Trans>Prodotti</Trans>
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            <Trans>Prodotti finiti e componenti, con processo e distinta base.</Trans>
          </Text>
        </div>
        <Button component={Link} to="/app/library/product/new">
          <Trans>Nuovo prodotto</Trans>
        </Button>
      </Group>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <CameraTextInput
          type="search"
          aria-label={t`Cerca`}
          placeholder={t`Cerca per codice o descrizione`}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={300}
          maw="100%"
        />
        <TagFilter value={tagKeys} onChange={(keys) => setSearch({ tags: keys.length ? keys.join(',') : undefined })} known={knownTags} />
        <SegmentedControl
          aria-label={t`Stato`}
          value={state}
          onChange={(v) => setSearch({ state: v === 'active' ? undefined : (v as ProductState) })}
          data={[
            { value: 'active', label: t`Attivi` },
            { value: 'inactive', label: t`Non attivi` },
            { value: 'trash', label: t`Nel cestino` },
          ]}
        />
      </Group>
      <DataTable
        columns={columns}
        data={products.data?.rows ?? []}
        getRowId={(r) => r._key}
        sorting={sorting}
        onSortingChange={(s) => {
          const first = s[0]
          if (first) setSearch({ sort: first.id as Sort, dir: first.desc ? 'desc' : 'asc' })
        }}
        page={page}
        pageCount={Math.max(1, Math.ceil(total / PAGE_SIZE))}
        total={total}
        onPageChange={(p) => setSearch({ page: p > 1 ? p : undefined }, false)}
        loading={products.isFetching && !products.data}
        onRowClick={(r) => navigate({ to: '/app/library/product/$product_key', params: { product_key: r._key } })}
        empty={empty}
      />
    </Stack>
  )
}

function Thumbnail({ url, code }: { url: string | null; code: string }) {
  return url ? (
    // Decorative: the code is in the next cell.
    <Image src={url} alt="" w={44} h={44} fit="contain" radius="sm" bg="var(--mes-surface-1, #f1f3f5)" />
  ) : (
    <Box
      w={44}
      h={44}
      aria-hidden
      style={{ borderRadius: 4, background: 'var(--mes-surface-1, #f1f3f5)', display: 'grid', placeItems: 'center', color: 'var(--mantine-color-dimmed)', fontSize: 12, fontWeight: 600 }}
    >
      {code.slice(0, 2).toUpperCase()}
    </Box>
  )
}
