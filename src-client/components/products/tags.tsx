import { useLingui } from '@lingui/react/macro'
import { MultiSelect, TagsInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { Tag } from '../../../src/domains/products/schemas'
import { trpc } from '../../lib/trpc'

/**
 * Tag suggestions for what is typed (SPEC 5: from the configured minimum of characters,
 * autocomplete_min_chars_tags; the server answers at most 100).
 */
export function useTagSuggestions(search: string) {
  const { data: settings } = useQuery(trpc.settings.get.queryOptions())
  const minChars = settings?.autocomplete_min_chars_tags ?? 3
  const [debounced] = useDebouncedValue(search.trim(), 200)
  const enough = [...debounced].length >= minChars
  const { data = [], isFetching } = useQuery({
    ...trpc.tags.list.queryOptions({ search: debounced }),
    enabled: enough,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })
  return { tags: enough ? data : [], minChars, tooShort: !enough, loading: isFetching }
}

/**
 * The product list's tag filter: choose tags by typing (autocomplete); products carrying every
 * chosen tag are shown. `known` gives names for keys chosen earlier (from the URL).
 */
export function TagFilter({ value, onChange, known }: { value: string[]; onChange: (keys: string[]) => void; known: ReadonlyMap<string, string> }) {
  const { t } = useLingui()
  const [search, setSearch] = useState('')
  const { tags, minChars, tooShort } = useTagSuggestions(search)
  const [chosen, setChosen] = useState<Map<string, string>>(new Map())
  const data = useMemo(() => {
    const names = new Map<string, string>()
    for (const key of value) names.set(key, chosen.get(key) ?? known.get(key) ?? '…')
    for (const tag of tags) names.set(tag._key, tag.name)
    return [...names].map(([key, name]) => ({ value: key, label: name }))
  }, [value, tags, chosen, known])
  return (
    <MultiSelect
      aria-label={t`Filtra per tag`}
      placeholder={value.length ? undefined : t`Filtra per tag`}
      data={data}
      value={value}
      onChange={(keys) => {
        setChosen((prev) => new Map([...prev, ...data.filter((d) => keys.includes(d.value)).map((d) => [d.value, d.label] as [string, string])]))
        onChange(keys)
        setSearch('')
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable
      nothingFoundMessage={search.trim() ? (tooShort ? t`Scrivi almeno ${minChars} caratteri` : t`Nessun tag trovato`) : undefined}
      w={320}
      maw="100%"
      maxDropdownHeight={260}
      // One line for a tag or two: the typing field may shrink beside the chosen tags.
      styles={{ inputField: { minWidth: 40 } }}
    />
  )
}

/**
 * Tags of a product while editing: names; typing suggests existing tags (from the configured
 * minimum of characters) and Enter adds any name (a new tag is created on save).
 */
export function TagsField({ value, onChange, disabled }: { value: string[]; onChange: (names: string[]) => void; disabled?: boolean }) {
  const { t } = useLingui()
  const [search, setSearch] = useState('')
  const { tags, minChars, tooShort } = useTagSuggestions(search)
  const data = useMemo(() => [...new Set(tags.map((tag) => tag.name))].filter((n) => !value.some((v) => v.toLowerCase() === n.toLowerCase())), [tags, value])
  return (
    <TagsInput
      label={t`Tag`}
      description={search.trim() && tooShort ? t`Suggerimenti da ${minChars} caratteri; Invio aggiunge un tag nuovo` : undefined}
      placeholder={t`Aggiungi un tag`}
      data={data}
      value={value}
      onChange={(names) => onChange(names.map((n) => n.trim()).filter(Boolean))}
      searchValue={search}
      onSearchChange={setSearch}
      splitChars={[',']}
      maxLength={60}
      clearable
      disabled={disabled}
      maxDropdownHeight={220}
      comboboxProps={{ withinPortal: true }}
    />
  )
}

/** Tag changes of an edit, for `POST tag/update-connections`: names added, saved tags removed (any case). */
export function tagChanges(saved: Tag[], names: string[]) {
  const lower = (s: string) => s.toLowerCase()
  const added = names.filter((n) => !saved.some((tag) => lower(tag.name) === lower(n)))
  const removed = saved.filter((tag) => !names.some((n) => lower(n) === lower(tag.name)))
  return { added, removed }
}
