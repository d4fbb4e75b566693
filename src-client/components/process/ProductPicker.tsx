import { useLingui } from '@lingui/react/macro'
import { Group, Select, Text } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type ReactNode, useMemo, useState } from 'react'
import { trpc } from '../../lib/trpc'

/** SPEC 5 and 9: search from 3 characters, first 100 results. */
export const PRODUCT_SEARCH_MIN = 3
export const PRODUCT_SEARCH_LIMIT = 100

export type PickedProduct = { _key: string; code: string; description: string }

/**
 * Picks a product by code or description (`GET product?search=`, active products only), searching
 * from 3 characters and showing the first 100 matches. `exclude`: keys not offered (the product
 * itself). Controlled by the picked product.
 */
export function ProductPicker(props: {
  value: PickedProduct | null
  onChange: (p: PickedProduct | null) => void
  exclude?: readonly string[]
  label?: ReactNode
  placeholder?: string
  error?: ReactNode
  disabled?: boolean
  'aria-label'?: string
  autoFocus?: boolean
}) {
  const { t } = useLingui()
  const [search, setSearch] = useState(props.value ? label(props.value) : '')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const enabled = debounced.length >= PRODUCT_SEARCH_MIN && debounced !== (props.value ? label(props.value) : null)
  const { data, isFetching } = useQuery({
    ...trpc.products.list.queryOptions({ search: debounced, state: 'active', sort: 'code', page_size: PRODUCT_SEARCH_LIMIT }),
    enabled,
    placeholderData: keepPreviousData,
  })
  const found = useMemo(() => (enabled ? (data?.rows ?? []).filter((p) => !props.exclude?.includes(p._key)) : []), [data, enabled, props.exclude])
  const byKey = new Map<string, PickedProduct>(found.map((p) => [p._key, p]))
  if (props.value) byKey.set(props.value._key, props.value)
  const options = [...byKey.values()].map((p) => ({ value: p._key, label: label(p) }))

  const nothing =
    search.trim().length < PRODUCT_SEARCH_MIN ? t`Scrivi almeno ${PRODUCT_SEARCH_MIN} caratteri` : isFetching ? t`Ricerca…` : t`Nessun prodotto attivo trovato`

  return (
    <Select
      label={props.label}
      aria-label={props['aria-label']}
      placeholder={props.placeholder ?? t`Cerca per codice o descrizione`}
      searchable
      clearable
      autoFocus={props.autoFocus}
      data={options}
      value={props.value?._key ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(key) => props.onChange(key ? (byKey.get(key) ?? null) : null)}
      filter={({ options }) => options}
      nothingFoundMessage={nothing}
      error={props.error}
      disabled={props.disabled}
      maxDropdownHeight={320}
      comboboxProps={{ withinPortal: true }}
      renderOption={({ option }) => {
        const p = byKey.get(option.value)
        return (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={600}>
              {p?.code}
            </Text>
            <Text size="sm" c="dimmed" truncate="end">
              {p?.description}
            </Text>
          </Group>
        )
      }}
    />
  )
}

function label(p: PickedProduct) {
  return p.description ? `${p.code} — ${p.description}` : p.code
}
