import { Center, Group, Loader, Pagination, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core'
import { Trans } from '@lingui/react/macro'
import {
  type ColumnDef,
  type RowData,
  FlexRender,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'
import type { ReactNode } from 'react'

const features = tableFeatures({ rowSortingFeature })
export type DataColumn<T extends RowData> = ColumnDef<typeof features, T>
export type { SortingState }

export type DataTableProps<T extends RowData> = {
  columns: DataColumn<T>[]
  data: T[]
  getRowId: (row: T) => string
  /** Server-side sorting: the table only reports what the user asked for. */
  sorting?: SortingState
  onSortingChange?: (sorting: SortingState) => void
  /** Server-side paging (1-based page). */
  page?: number
  pageCount?: number
  onPageChange?: (page: number) => void
  total?: number
  loading?: boolean
  onRowClick?: (row: T) => void
  empty?: ReactNode
}

/**
 * Lists for every area: TanStack Table for columns and sort state, Mantine for the look.
 * Sorting and paging happen on the server; the table never holds more than one page.
 */
export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const { columns, data, sorting = [], onSortingChange } = props
  const table = useTable({
    features,
    columns,
    data,
    getRowId: props.getRowId,
    state: { sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    onSortingChange: (updater) => onSortingChange?.(typeof updater === 'function' ? updater(sorting) : updater),
  })

  return (
    <div>
      <ScrollArea>
        <Table striped highlightOnHover={Boolean(props.onRowClick)} verticalSpacing="sm" miw={700}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted()
                  const content = header.isPlaceholder ? null : <FlexRender header={header} />
                  return (
                    <Table.Th key={header.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                      {header.column.getCanSort() && onSortingChange ? (
                        <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={600} fz="sm">
                          {content} {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                        </UnstyledButton>
                      ) : (
                        content
                      )}
                    </Table.Th>
                  )
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr
                key={row.id}
                onClick={props.onRowClick ? () => props.onRowClick?.(row.original) : undefined}
                style={props.onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {row.getAllCells().map((cell) => (
                  <Table.Td key={cell.id}>
                    <FlexRender cell={cell} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {props.loading && (
        <Center p="md">
          <Loader size="sm" />
        </Center>
      )}
      {!props.loading && data.length === 0 && (
        <Text c="dimmed" ta="center" p="lg">
          {props.empty ?? <Trans>Nessun elemento</Trans>}
        </Text>
      )}
      {props.pageCount !== undefined && props.pageCount > 1 && (
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            {props.total !== undefined && <Trans>{props.total} elementi</Trans>}
          </Text>
          <Pagination value={props.page ?? 1} total={props.pageCount} onChange={(p) => props.onPageChange?.(p)} />
        </Group>
      )}
    </div>
  )
}
