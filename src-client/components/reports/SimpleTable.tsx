import { ScrollArea, Table } from '@mantine/core'
import type { ReactNode } from 'react'

export type Column<R> = { id: string; header: ReactNode; cell: (row: R) => ReactNode; numeric?: boolean }

/** A report's table under its chart (small aggregates: no paging); a row may open its drill-down. */
export function SimpleTable<R>({ rows, columns, onRow, testId, empty }: { rows: R[]; columns: Column<R>[]; onRow?: (row: R) => void; testId: string; empty: ReactNode }) {
  return (
    <ScrollArea>
      <Table striped highlightOnHover={!!onRow} withTableBorder data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.id} ta={c.numeric ? 'right' : undefined}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>{empty}</Table.Td>
            </Table.Tr>
          ) : (
            rows.map((r, i) => (
              <Table.Tr key={i} onClick={onRow ? () => onRow(r) : undefined} style={onRow ? { cursor: 'pointer' } : undefined}>
                {columns.map((c) => (
                  <Table.Td key={c.id} ta={c.numeric ? 'right' : undefined}>
                    {c.cell(r)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  )
}

/** Figures at the top of a report. */
export function Figures({ items }: { items: { label: ReactNode; value: ReactNode; testId?: string }[] }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 12 }}>
      {items.map((it, i) => (
        <div key={i} data-testid={it.testId} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, padding: '8px 12px' }}>
          <div style={{ fontSize: 12, opacity: 0.7 }}>{it.label}</div>
          <div style={{ fontSize: 22, fontWeight: 600 }}>{it.value}</div>
        </div>
      ))}
    </div>
  )
}
