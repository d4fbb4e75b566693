import { Button, Group, Stack, Text, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import type { QueryKey } from '@tanstack/react-query'
import { Outlet, useNavigate } from '@tanstack/react-router'
import { Fragment, type ReactNode, useState } from 'react'
import { type DataColumn, DataTable, type SortingState } from '../../../components/DataTable'
import { Loading } from '../../../components/QueryState'
import { type ApiError, toApiError } from '../../../lib/api-error'
import { errorMessage } from '../../../lib/error-messages'
import { notifySuccess } from '../../../lib/notify'
import { queryClient } from '../../../lib/trpc'
import { BackLink, ConfirmModal, LibraryHeader, LoadFailed, type LibraryPath, SearchBox, StatusFilter, type StatusFilterValue } from './-library-ui'

/**
 * The pages every admin library is made of (operations, issue types, counters, form fields):
 * the list, the new and detail pages around the library's form, and the delete route over the detail.
 */

/** The filters of a library list: search, archive state, sorting and page (a changed filter goes back to page 1). */
export function useLibraryList(defaultSort: string) {
  const [search, setSearchText] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const [status, setStatusValue] = useState<StatusFilterValue>('active')
  const [sorting, setSortingState] = useState<SortingState>([{ id: defaultSort, desc: false }])
  const [page, setPage] = useState(1)
  const firstPage =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v)
      setPage(1)
    }
  return {
    search,
    setSearch: firstPage(setSearchText),
    searched: debounced || undefined,
    status,
    setStatus: firstPage(setStatusValue),
    sorting,
    setSorting: firstPage(setSortingState),
    page,
    setPage,
  }
}

export type LibraryList = ReturnType<typeof useLibraryList>

/** The page size of the libraries the server pages (operations, counters). */
export const LIBRARY_PAGE_SIZE = 25

/**
 * A library list page: header with its actions, search (and the archive filter where the library
 * archives), the table; paged when the server answers a page with its total.
 */
export function LibraryListPage<T extends { _key: string }>(props: {
  list: LibraryList
  title: ReactNode
  description: ReactNode
  action: ReactNode
  searchPlaceholder: string
  /** The archive filter's label for the archived records; no filter without it. */
  inactiveLabel?: string
  columns: DataColumn<T>[]
  rows: T[] | undefined
  /** The server's total of a paged list. */
  total?: number
  loading: boolean
  onRowClick: (row: T) => void
  empty: ReactNode
}) {
  const { list } = props
  const search = <SearchBox value={list.search} onChange={list.setSearch} placeholder={props.searchPlaceholder} />
  const paged = props.total !== undefined
  return (
    <Stack gap="sm">
      <LibraryHeader title={props.title} description={props.description} action={props.action} />
      {props.inactiveLabel ? (
        <Group gap="sm">
          {search}
          <StatusFilter value={list.status} onChange={list.setStatus} inactiveLabel={props.inactiveLabel} />
        </Group>
      ) : (
        search
      )}
      <DataTable
        columns={props.columns}
        data={props.rows ?? []}
        getRowId={(r) => r._key}
        sorting={list.sorting}
        onSortingChange={list.setSorting}
        {...(paged && { page: list.page, pageCount: Math.ceil(props.total! / LIBRARY_PAGE_SIZE), total: props.total, onPageChange: list.setPage })}
        loading={props.loading}
        onRowClick={props.onRowClick}
        empty={props.empty}
      />
    </Stack>
  )
}

/** Back to the list, the page's title, the library's form. */
export function LibraryFormPage({ list, listLabel, title, children }: { list: LibraryPath; listLabel: ReactNode; title: ReactNode; children: ReactNode }) {
  return (
    <>
      <BackLink to={list}>{listLabel}</BackLink>
      <Title order={2} mb="md">
        {title}
      </Title>
      {children}
    </>
  )
}

/**
 * A record's page: the refusal when its key names nothing (deleted meanwhile, a wrong link), then
 * its form, fresh for every saved version, and the delete route opened over it.
 */
export function LibraryDetailPage<T extends { _key: string; updated_at: number }>(props: {
  query: { data?: T; error: unknown }
  list: LibraryPath
  listLabel: ReactNode
  title: (row: T) => ReactNode
  children: (row: T) => ReactNode
}) {
  const { data, error } = props.query
  if (error) return <LoadFailed error={error} back={<BackLink to={props.list}>{props.listLabel}</BackLink>} />
  if (!data) return <Loading />
  return (
    <LibraryFormPage list={props.list} listLabel={props.listLabel} title={props.title(data)}>
      <Fragment key={`${data._key}:${data.updated_at}`}>{props.children(data)}</Fragment>
      <Outlet />
    </LibraryFormPage>
  )
}

/** The form's button that opens the delete route. */
export function DeleteButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="subtle" color="red" onClick={onClick}>
      {children}
    </Button>
  )
}

/**
 * The delete route over a record's page: the question, then the record's removal, back to the list
 * and the caches forgotten; a refusal (the record is in use) stays in the dialog.
 */
export function LibraryDeleteModal(props: {
  title: ReactNode
  question: ReactNode
  remove: () => Promise<unknown>
  deletedMessage: string
  list: LibraryPath
  /** The record's own query and the list's, forgotten once it is gone. */
  queries: { record: QueryKey; list: QueryKey }
  onCancel: () => void
  /** The refusal shown in the dialog; its translated message unless told otherwise. */
  refusal?: (error: ApiError) => ReactNode
}) {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ReactNode>(null)

  async function confirm() {
    setBusy(true)
    try {
      await props.remove()
      notifySuccess(props.deletedMessage)
      await navigate({ to: props.list, ignoreBlocker: true })
      queryClient.removeQueries({ queryKey: props.queries.record })
      await queryClient.invalidateQueries({ queryKey: props.queries.list })
    } catch (e) {
      const err = toApiError(e)
      setError(props.refusal ? props.refusal(err) : errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <ConfirmModal title={props.title} busy={busy} error={error} onConfirm={confirm} onCancel={props.onCancel}>
      <Text size="sm">{props.question}</Text>
    </ConfirmModal>
  )
}
