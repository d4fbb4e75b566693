import { Group, Pagination, Stack, Table, Text, Title } from '@mantine/core'
import type { CSSProperties, ReactNode } from 'react'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'

/** The pages of the warehouse area that list records (positions, movements, missions, movement lists): their shared frame. */

/** Title, a line under it, the page's actions at the right. */
export function ListHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <div>
        <Title order={2}>{title}</Title>
        {subtitle}
      </div>
      {actions}
    </Group>
  )
}

/** The usual line under a list's title: what the list holds. */
export function ListDescription({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" size="sm" mt={4}>
      {children}
    </Text>
  )
}

export type RowColumn<T> = { header: ReactNode; cell: (row: T) => ReactNode; align?: 'right'; style?: CSSProperties }

/** A list's table: one row a record, a row opens it. */
export function RowTable<T extends { _key: string }>(props: { testid: string; minWidth: number; columns: RowColumn<T>[]; rows: T[]; onRow: (row: T) => void }) {
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table striped highlightOnHover data-testid={props.testid}>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((c, i) => (
              <Table.Th key={i} ta={c.align}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((row) => (
            <Table.Tr key={row._key} style={{ cursor: 'pointer' }} onClick={() => props.onRow(row)}>
              {props.columns.map((c, i) => (
                <Table.Td key={i} ta={c.align} style={c.style}>
                  {c.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/**
 * A paged list page (missions, movement lists): header, what goes above the table (a new-record
 * form, filters), the refusal of the load, the table, "none" once an empty page came, the pages.
 */
export function PagedListPage<T>(props: {
  header: ReactNode
  children?: ReactNode
  query: { data?: { rows: T[]; total: number }; isError: boolean; error: unknown }
  pageSize: number
  page: number
  onPage: (page: number) => void
  table: (rows: T[]) => ReactNode
  empty: ReactNode
}) {
  const { data, isError, error } = props.query
  const rows = data?.rows ?? []
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / props.pageSize))
  return (
    <Stack gap="md">
      {props.header}
      {props.children}
      {isError && <Text c="red">{errorMessage(toApiError(error))}</Text>}
      {props.table(rows)}
      {data && rows.length === 0 && (
        <Text c="dimmed" ta="center">
          {props.empty}
        </Text>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination value={props.page} total={pages} onChange={props.onPage} />
        </Group>
      )}
    </Stack>
  )
}
