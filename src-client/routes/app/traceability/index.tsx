import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Badge, Group, Select, Stack, Table, Text, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { SERIAL_STATES, type SerialState } from '../../../../src/domains/serials/schemas'
import { formatDateTime } from '../../../../src/i18n/format'
import { DateField } from '../../../components/DateField'
import { rememberSerialsSearch, type SerialsSearch } from '../../../components/serials/overview-search'
import { SerialStateBadge } from '../../../components/serials/SerialStateBadge'
import { toApiError } from '../../../lib/api-error'
import { errorMessage } from '../../../lib/error-messages'
import { trpc } from '../../../lib/trpc'
import { CameraTextInput } from '../../../components/scan/CameraTextInput'
import { useSearchBox } from '../../../lib/use-search-box'

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)

export const Route = createFileRoute('/app/traceability/')({
  validateSearch: (s: Record<string, unknown>): SerialsSearch => ({
    q: text(s.q),
    product: text(s.product),
    wo: text(s.wo),
    phase: text(s.phase),
    state: SERIAL_STATES.includes(s.state as SerialState) ? (s.state as SerialState) : undefined,
    from: text(s.from),
    to: text(s.to),
  }),
  component: SerialsOverview,
})

/** SPEC 2 traceability: the serials overview (search from the settings' minimum length, filters, first 100 and the total). */
function SerialsOverview() {
  const { t } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  useEffect(() => rememberSerialsSearch(search), [search])
  const setSearch = (patch: Partial<SerialsSearch>) => navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })
  const settings = useQuery({ ...trpc.settings.get.queryOptions(), staleTime: 60_000 })
  const min = settings.data?.autocomplete_min_chars_serials ?? 3
  const products = useQuery({ ...trpc.products.list.queryOptions({ page_size: 100, sort: 'code' }), staleTime: 60_000 })

  // Shorter than the minimum: nothing is searched, the hint says how many characters it needs.
  const [typed, setTyped] = useSearchBox(search.q, (q) => setSearch({ q }), { min })
  const tooShort = typed.trim().length > 0 && typed.trim().length < min

  const input = {
    search: search.q,
    product_key: search.product,
    work_order_key: search.wo,
    phase_key: search.phase,
    state: search.state,
    from: search.from,
    to: search.to,
  }
  const serials = useQuery({ ...trpc.serials.list.queryOptions(input), placeholderData: keepPreviousData, staleTime: 0 })
  const rows = serials.data?.rows ?? []
  const total = serials.data ? `${serials.data.total}${serials.data.total_capped ? '+' : ''}` : ''

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <Trans>Seriali</Trans>
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          <Trans>Cerca un seriale per codice e apri la sua genealogia.</Trans>
        </Text>
      </div>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <CameraTextInput
          type="search"
          label={t`Codice seriale`}
          placeholder={t`Inizia con...`}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          description={tooShort ? t`Scrivi almeno ${min} caratteri` : undefined}
          w={190}
          maw="100%"
          data-testid="serials-search"
        />
        <Select
          label={t`Prodotto`}
          placeholder={t`Tutti`}
          clearable
          searchable
          w={190}
          data={(products.data?.rows ?? []).map((p) => ({ value: p._key, label: `${p.code} ${p.description}` }))}
          value={search.product ?? null}
          // A phase belongs to a product: changing the product clears it.
          onChange={(v) => setSearch({ product: v ?? undefined, phase: undefined })}
        />
        <PhaseFilter productKey={search.product} value={search.phase} onChange={(phase) => setSearch({ phase })} />
        <WorkOrderFilter value={search.wo} onChange={(wo) => setSearch({ wo })} />
        <Select
          label={t`Stato`}
          placeholder={t`Tutti`}
          clearable
          w={130}
          data={[
            { value: 'temporary', label: t`Provvisorio` },
            { value: 'final', label: t`Definitivo` },
          ]}
          value={search.state ?? null}
          onChange={(v) => setSearch({ state: (v as SerialState | null) ?? undefined })}
        />
        <DateField label={t`Creati dal`} value={search.from ?? null} maxDate={search.to} onChange={(v) => setSearch({ from: v ?? undefined })} w={130} />
        <DateField label={t`al`} value={search.to ?? null} minDate={search.from} onChange={(v) => setSearch({ to: v ?? undefined })} w={130} />
      </Group>
      {serials.isError && <Text c="red">{errorMessage(toApiError(serials.error))}</Text>}
      {serials.data && (
        <Text size="sm" c="dimmed" data-testid="serials-total">
          {rows.length < serials.data.total ? t`Primi ${rows.length} di ${total} seriali` : t`${total} seriali`}
        </Text>
      )}
      <Table.ScrollContainer minWidth={760}>
        <Table highlightOnHover striped data-testid="serials-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Codice`}</Table.Th>
              <Table.Th>{t`Prodotto`}</Table.Th>
              <Table.Th>{t`Ordine di lavoro`}</Table.Th>
              <Table.Th>{t`Fase`}</Table.Th>
              <Table.Th>{t`Operatore`}</Table.Th>
              <Table.Th>{t`Creato il`}</Table.Th>
              <Table.Th>{t`Stato`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr
                key={r._key}
                style={{ cursor: 'pointer' }}
                onClick={() => navigate({ to: '/app/traceability/serials/$serialKey', params: { serialKey: r._key } })}
              >
                <Table.Td>
                  <Text fw={600} size="sm">
                    {r.code}
                  </Text>
                </Table.Td>
                <Table.Td>{`${r.product_code} ${r.product_description}`}</Table.Td>
                <Table.Td>
                  {r.work_order_key && r.work_order_code ? (
                    <Anchor
                      size="sm"
                      onClick={(e) => e.stopPropagation()}
                      renderRoot={(p) => <Link {...p} to="/app/traceability/workorder/$wo_key" params={{ wo_key: r.work_order_key! }} />}
                    >
                      {r.work_order_code}
                    </Anchor>
                  ) : (
                    ''
                  )}
                </Table.Td>
                <Table.Td>{r.phase_name ?? ''}</Table.Td>
                <Table.Td>{r.operator_name ?? ''}</Table.Td>
                <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                <Table.Td>
                  <SerialStateBadge state={r.state} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {serials.data && rows.length === 0 && (
        <Badge variant="light" color="gray" size="lg">
          <Trans>Nessun seriale</Trans>
        </Badge>
      )}
    </Stack>
  )
}

/** The phases of the chosen product (a phase filter needs a product first). */
function PhaseFilter({ productKey, value, onChange }: { productKey?: string; value?: string; onChange: (v: string | undefined) => void }) {
  const { t } = useLingui()
  const process = useQuery({ ...trpc.process.get.queryOptions({ key: productKey ?? '' }), enabled: Boolean(productKey), staleTime: 60_000 })
  return (
    <Select
      label={t`Fase`}
      placeholder={productKey ? t`Tutte` : t`Scegli un prodotto`}
      disabled={!productKey}
      clearable
      w={150}
      data={(process.data?.phases ?? []).map((p) => ({ value: p._key, label: p.name }))}
      value={value ?? null}
      onChange={(v) => onChange(v ?? undefined)}
    />
  )
}

const WO_SEARCH_MIN = 3

/** A work order, active or archived, found by typing at least 3 characters of its code or product (SPEC 5). */
function WorkOrderFilter({ value, onChange }: { value?: string; onChange: (v: string | undefined) => void }) {
  const { t } = useLingui()
  const [typed, setTyped] = useState('')
  const [debounced] = useDebouncedValue(typed.trim(), 250)
  const enabled = debounced.length >= WO_SEARCH_MIN
  const active = useQuery({ ...trpc.workOrders.list.queryOptions({ search: debounced, page_size: 50 }), enabled, placeholderData: keepPreviousData })
  const archived = useQuery({ ...trpc.workOrders.list.queryOptions({ search: debounced, page_size: 50, archived: true }), enabled, placeholderData: keepPreviousData })
  // The chosen work order's code, also when the page opens with it in the address.
  const chosen = useQuery({ ...trpc.workOrders.get.queryOptions({ key: value ?? '' }), enabled: Boolean(value), staleTime: 60_000 })
  const data = useMemo(() => {
    const options = new Map<string, string>()
    if (value && chosen.data) options.set(value, `${chosen.data.code} ${chosen.data.product_code}`)
    if (enabled) for (const wo of [...(active.data?.rows ?? []), ...(archived.data?.rows ?? [])]) options.set(wo._key, `${wo.code} ${wo.product_code}`)
    return [...options].slice(0, 100).map(([v, label]) => ({ value: v, label }))
  }, [value, chosen.data, enabled, active.data, archived.data])
  const short = typed.trim().length > 0 && typed.trim().length < WO_SEARCH_MIN
  return (
    <Select
      label={t`Ordine di lavoro`}
      placeholder={t`Tutti`}
      searchable
      clearable
      w={190}
      data={data}
      value={value ?? null}
      searchValue={typed}
      onSearchChange={setTyped}
      filter={({ options }) => options}
      nothingFoundMessage={short ? t`Scrivi almeno ${WO_SEARCH_MIN} caratteri` : enabled ? t`Nessun ordine di lavoro` : undefined}
      onChange={(v) => onChange(v ?? undefined)}
      data-testid="serials-wo-filter"
    />
  )
}
