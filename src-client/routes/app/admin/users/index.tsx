import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button, Group, Menu, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import { isScope, SCOPES, type Scope } from '../../../../../src/auth/scopes'
import { USER_SORTS, type UserRow, type UserSort } from '../../../../../src/domains/users/schemas'
import { formatDate, formatDateTime } from '../../../../../src/i18n/format'
import { type DataColumn, DataTable, type SortingState } from '../../../../components/DataTable'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { trpc, trpcClient } from '../../../../lib/trpc'
import { useSession } from '../../../../lib/use-auth'
import { SCOPE_LABELS } from '../../../../lib/scope-labels'
import { invalidateUsers, PermissionBadges, StatusDot, UserAvatar } from './-user-ui'
import { pageNumber, pick, searchText } from '../../../../lib/list-search'
import { useSearchBox } from '../../../../lib/use-search-box'

const PAGE_SIZE = 20
const STATUSES = ['active', 'archived', 'all'] as const
type Status = (typeof STATUSES)[number]

/** The list's state lives in the URL: back from a detail page finds the same search, page and filters. */
type UsersSearch = {
  q?: string
  sort?: UserSort
  dir?: 'asc' | 'desc'
  page?: number
  status?: Status
  enabled?: 'yes' | 'no'
  perm?: Scope
}

function validateSearch(raw: Record<string, unknown>): UsersSearch {
  return {
    q: searchText(raw.q),
    sort: pick(USER_SORTS, raw.sort),
    dir: pick(['asc', 'desc'] as const, raw.dir),
    page: pageNumber(raw.page),
    status: pick(STATUSES, raw.status),
    enabled: pick(['yes', 'no'] as const, raw.enabled),
    perm: typeof raw.perm === 'string' && isScope(raw.perm) ? raw.perm : undefined,
  }
}

export const Route = createFileRoute('/app/admin/users/')({
  validateSearch,
  component: UsersList,
})

function UsersList() {
  const { t, i18n } = useLingui()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const session = useSession()
  const status = search.status ?? 'active'
  const page = search.page ?? 1

  const setSearch = (patch: Partial<UsersSearch>, resetPage = true) =>
    navigate({ search: (prev) => ({ ...prev, ...(resetPage ? { page: undefined } : {}), ...patch }), replace: true })

  // Typing searches on the server, once the admin pauses.
  const [text, setText] = useSearchBox(search.q, (q) => setSearch({ q }))

  const input = {
    search: search.q,
    sort: search.sort ?? 'username',
    dir: search.dir ?? 'asc',
    page,
    page_size: PAGE_SIZE,
    archived: status === 'all' ? undefined : status === 'archived',
    enabled: search.enabled === undefined ? undefined : search.enabled === 'yes',
    scope: search.perm,
  }
  const users = useQuery({ ...trpc.users.page.queryOptions(input), placeholderData: keepPreviousData })
  const total = users.data?.total ?? 0
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE))
  const sorting: SortingState = [{ id: input.sort, desc: input.dir === 'desc' }]

  async function restore(user: UserRow) {
    try {
      await trpcClient.users.restore.mutate({ key: user._key })
      notifySuccess(t`Utente ripristinato`)
      await invalidateUsers()
    } catch (e) {
      notifyError(e)
    }
  }

  const columns = useMemo<DataColumn<UserRow>[]>(
    () => [
      {
        id: 'username',
        accessorKey: 'username',
        header: () => t`Username`,
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <UserAvatar user={row.original} />
            <Text size="sm" fw={500} td={row.original.active ? undefined : 'line-through'}>
              {row.original.username}
            </Text>
          </Group>
        ),
      },
      { id: 'name', accessorKey: 'name', header: () => t`Nome` },
      { id: 'surname', accessorKey: 'surname', header: () => t`Cognome` },
      {
        id: 'department',
        accessorKey: 'department_name',
        header: () => t`Reparto`,
        enableSorting: false,
        cell: ({ row }) => row.original.department_name ?? <Text c="dimmed">—</Text>,
      },
      {
        id: 'scope',
        accessorKey: 'scope',
        header: () => t`Permessi`,
        enableSorting: false,
        cell: ({ row }) => <PermissionBadges scope={row.original.scope} />,
      },
      {
        // Enabled, disabled or deleted, and whether a session is open now.
        id: 'enabled',
        accessorKey: 'enabled',
        header: () => t`Stato`,
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={2}>
            {!row.original.active ? (
              <StatusDot color="var(--mantine-color-red-6)">
                <Trans>Eliminato</Trans>
              </StatusDot>
            ) : row.original.enabled ? (
              <StatusDot color="var(--mantine-color-green-6)">
                <Trans>Abilitato</Trans>
              </StatusDot>
            ) : (
              <StatusDot color="var(--mantine-color-gray-5)">
                <Trans>Disabilitato</Trans>
              </StatusDot>
            )}
            {row.original.logged_in && (
              <StatusDot color="var(--mantine-color-blue-6)">
                <Trans>Connesso</Trans>
              </StatusDot>
            )}
          </Stack>
        ),
      },
      {
        id: 'last_login',
        accessorKey: 'last_login',
        header: () => <NoWrap>{t`Ultimo accesso`}</NoWrap>,
        cell: ({ row }) =>
          row.original.last_login ? (
            <Tooltip label={formatDateTime(row.original.last_login)} openDelay={300}>
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDate(row.original.last_login)}
              </Text>
            </Tooltip>
          ) : (
            <Text size="sm" c="dimmed">
              {t`Mai`}
            </Text>
          ),
      },
      {
        id: 'created_at',
        accessorKey: 'created_at',
        header: () => <NoWrap>{t`Creato il`}</NoWrap>,
        cell: ({ row }) => <NoWrap>{formatDate(row.original.created_at)}</NoWrap>,
      },
      {
        id: 'actions',
        header: () => null,
        enableSorting: false,
        cell: ({ row }) => (
          // biome-ignore lint/a11y/noStaticElementInteractions: keeps the row click from firing
          <div onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
            <RowMenu user={row.original} isSelf={row.original._key === session?.user_key} onRestore={restore} />
          </div>
        ),
      },
    ],
    // Labels follow the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n.locale, session?.user_key],
  )

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t`Cerca`}
            placeholder={t`Username, nome, cognome, email`}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={280}
            rightSection={users.isFetching && text !== (search.q ?? '') ? <Text size="xs">…</Text> : null}
          />
          <Select
            label={t`Archivio`}
            w={150}
            allowDeselect={false}
            data={[
              { value: 'active', label: t`Attivi` },
              { value: 'archived', label: t`Eliminati` },
              { value: 'all', label: t`Tutti` },
            ]}
            value={status}
            onChange={(v) => setSearch({ status: v === 'active' ? undefined : (v as Status) })}
          />
          <Select
            label={t`Stato`}
            w={150}
            allowDeselect={false}
            data={[
              { value: 'any', label: t`Tutti` },
              { value: 'yes', label: t`Abilitati` },
              { value: 'no', label: t`Disabilitati` },
            ]}
            value={search.enabled ?? 'any'}
            onChange={(v) => setSearch({ enabled: v === 'yes' || v === 'no' ? v : undefined })}
          />
          <Select
            label={t`Permesso`}
            w={180}
            clearable
            placeholder={t`Tutti`}
            data={SCOPES.map((s) => ({ value: s, label: i18n._(SCOPE_LABELS[s]) }))}
            value={search.perm ?? null}
            onChange={(v) => setSearch({ perm: v && isScope(v) ? v : undefined })}
          />
        </Group>
        <Button component={Link} to="/app/admin/users/new">
          <Trans>Nuovo utente</Trans>
        </Button>
      </Group>
      <DataTable
        columns={columns}
        data={users.data?.rows ?? []}
        getRowId={(u) => u._key}
        sorting={sorting}
        onSortingChange={(s) => {
          const first = s[0]
          const sort = first && (USER_SORTS as readonly string[]).includes(first.id) ? (first.id as UserSort) : 'username'
          setSearch({ sort: sort === 'username' ? undefined : sort, dir: first?.desc ? 'desc' : undefined })
        }}
        page={page}
        pageCount={pageCount}
        total={total}
        onPageChange={(p) => setSearch({ page: p > 1 ? p : undefined }, false)}
        loading={users.isLoading}
        onRowClick={(u) => navigate({ to: '/app/admin/users/$user_key', params: { user_key: u._key } })}
        empty={search.q || search.perm || search.enabled || status !== 'active' ? <Trans>Nessun utente corrisponde ai filtri</Trans> : <Trans>Nessun utente</Trans>}
      />
      {users.isError && (
        <Text c="red" size="sm">
          <Trans>Impossibile caricare gli utenti</Trans>
        </Text>
      )}
    </Stack>
  )
}

const NoWrap = ({ children }: { children: React.ReactNode }) => <span style={{ whiteSpace: 'nowrap' }}>{children}</span>

function RowMenu({ user, isSelf, onRestore }: { user: UserRow; isSelf: boolean; onRestore: (u: UserRow) => void }) {
  const { t } = useLingui()
  const params = { user_key: user._key }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t`Azioni`} openDelay={400}>
          <ActionIcon variant="subtle" color="gray" aria-label={t`Azioni per ${user.username}`}>
            ⋮
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item renderRoot={(props) => <Link to="/app/admin/users/$user_key" params={params} {...props} />}>
          <Trans>Modifica</Trans>
        </Menu.Item>
        <Menu.Item renderRoot={isSelf ? undefined : (props) => <Link to="/app/admin/users/$user_key/reset-password" params={params} {...props} />} disabled={isSelf}>
          <Trans>Reimposta password</Trans>
        </Menu.Item>
        {user.active ? (
          <Menu.Item renderRoot={isSelf ? undefined : (props) => <Link to="/app/admin/users/$user_key/delete" params={params} {...props} />} color="red" disabled={isSelf}>
            <Trans>Elimina</Trans>
          </Menu.Item>
        ) : (
          <Menu.Item onClick={() => onRestore(user)}>
            <Trans>Ripristina</Trans>
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  )
}
