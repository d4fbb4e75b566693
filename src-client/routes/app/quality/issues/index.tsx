import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Select, Stack, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { ISSUE_CONTEXT_TYPES, type IssueContextType } from '../../../../../src/domains/issues/schemas'
import type { SortingState } from '../../../../components/DataTable'
import { DateField } from '../../../../components/DateField'
import { useIssueAccess } from '../../../../components/issues/issue-access'
import { CONTEXT_LABELS } from '../../../../components/issues/issue-labels'
import { IssueCountChips, IssuesTable } from '../../../../components/issues/IssuesTable'
import { NewIssueDialog } from '../../../../components/issues/NewIssueDialog'
import { type IssuesSearch, rememberIssuesSearch, searchStates, validateIssuesSearch } from '../../../../components/issues/overview-search'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { useLive } from '../../../../lib/live'
import { trpc } from '../../../../lib/trpc'
import { useSearchBox } from '../../../../lib/use-search-box'
import { CameraTextInput } from '../../../../components/scan/CameraTextInput'

const PAGE_SIZE = 25

export const Route = createFileRoute('/app/quality/issues/')({
  validateSearch: validateIssuesSearch,
  component: IssuesOverview,
})

/** SPEC 2 issues overview: counts per state, filters kept in the URL, the paged table. */
function IssuesOverview() {
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const access = useIssueAccess()
  const [creating, setCreating] = useState(false)
  useEffect(() => rememberIssuesSearch(search), [search])

  const setSearch = (patch: Partial<IssuesSearch>, resetPage = true) =>
    navigate({ search: (prev) => ({ ...prev, ...(resetPage ? { page: undefined } : {}), ...patch }), replace: true })

  const states = searchStates(search)
  const page = search.page ?? 1
  const input = {
    state: states.length ? states : undefined,
    critical: search.critical,
    type_key: search.type,
    context_type: search.ctx,
    from: search.from,
    to: search.to,
    search: search.q,
    sort: search.sort ?? 'opened_at',
    dir: search.dir ?? 'desc',
    page,
    page_size: PAGE_SIZE,
  }
  const issues = useQuery({ ...trpc.issues.list.queryOptions(input), placeholderData: keepPreviousData, staleTime: 0 })
  useLive(['issues'], () => [trpc.issues.list.pathKey()])
  const sorting: SortingState = [{ id: input.sort, desc: input.dir === 'desc' }]
  const filtered = Object.entries(search).some(([k, v]) => v !== undefined && !['sort', 'dir', 'page'].includes(k))

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>
            <Trans>Panoramica segnalazioni</Trans>
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            <Trans>Segnalazioni di qualità aperte su job, ordini di lavoro e prodotti.</Trans>
          </Text>
        </div>
        {access.canCreate('generic') && (
          <Button onClick={() => setCreating(true)} data-testid="new-issue">
            <Trans>Nuova segnalazione</Trans>
          </Button>
        )}
      </Group>
      <Filters search={search} setSearch={setSearch} />
      <Group justify="space-between" align="center">
        <IssueCountChips
          counts={issues.data?.counts}
          states={states}
          critical={search.critical === true}
          onStates={(s) => setSearch({ state: s.length ? s.join(',') : undefined })}
          onCritical={(c) => setSearch({ critical: c ? true : undefined })}
        />
        {filtered && (
          <Button variant="subtle" size="xs" onClick={() => navigate({ search: { sort: search.sort, dir: search.dir }, replace: true })}>
            <Trans>Togli i filtri</Trans>
          </Button>
        )}
      </Group>
      {issues.isError && <Text c="red">{errorMessage(toApiError(issues.error))}</Text>}
      <IssuesTable
        data={issues.data}
        loading={issues.isFetching && !issues.data}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={(p) => setSearch({ page: p > 1 ? p : undefined }, false)}
        sorting={sorting}
        onSortingChange={(s) => {
          const first = s[0]
          if (first) setSearch({ sort: first.id as IssuesSearch['sort'], dir: first.desc ? 'desc' : 'asc' })
        }}
        onOpen={(r) => navigate({ to: '/app/quality/issues/$issueKey', params: { issueKey: r._key } })}
        empty={filtered ? <Trans>Nessuna segnalazione corrisponde ai filtri</Trans> : <Trans>Nessuna segnalazione</Trans>}
      />
      <NewIssueDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(issue) => {
          setCreating(false)
          void navigate({ to: '/app/quality/issues/$issueKey', params: { issueKey: issue._key } })
        }}
      />
    </Stack>
  )
}

/** Text (searched once the user pauses), type, context and the opening dates. */
function Filters({ search, setSearch }: { search: IssuesSearch; setSearch: (patch: Partial<IssuesSearch>) => void }) {
  const { t, i18n } = useLingui()
  // Every type, inactive ones too: older issues keep theirs.
  const types = useQuery({ ...trpc.issueTypes.list.queryOptions({ sort: 'name' }), staleTime: 60_000 })
  const [text, setText] = useSearchBox(search.q, (q) => setSearch({ q }))

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <CameraTextInput
        type="search"
        label={t`Cerca`}
        placeholder={t`Codice, titolo, descrizione, ordine, prodotto`}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        w={260}
        maw="100%"
        data-testid="issues-search"
      />
      <Select
        label={t`Tipo`}
        placeholder={t`Tutti`}
        clearable
        searchable
        w={180}
        data={(types.data ?? []).map((x) => ({ value: x._key, label: x.name }))}
        value={search.type ?? null}
        onChange={(v) => setSearch({ type: v ?? undefined })}
      />
      <Select
        label={t`Contesto`}
        placeholder={t`Tutti`}
        clearable
        w={160}
        data={ISSUE_CONTEXT_TYPES.map((c) => ({ value: c, label: i18n._(CONTEXT_LABELS[c]) }))}
        value={search.ctx ?? null}
        onChange={(v) => setSearch({ ctx: (v as IssueContextType | null) ?? undefined })}
      />
      <DateField label={t`Aperte dal`} value={search.from ?? null} maxDate={search.to} onChange={(v) => setSearch({ from: v ?? undefined })} w={150} data-testid="issues-from" />
      <DateField label={t`al`} value={search.to ?? null} minDate={search.from} onChange={(v) => setSearch({ to: v ?? undefined })} w={150} data-testid="issues-to" />
    </Group>
  )
}
