import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Center, Group, Loader, Pagination, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core'
import { FlexRender, type Row, type RowData, rowSortingFeature, type SortingState, tableFeatures, useTable } from '@tanstack/react-table'
import type { ColumnDef } from '@tanstack/react-table'
import type { PointerEvent as ReactPointerEvent, ReactNode } from 'react'

const features = tableFeatures({ rowSortingFeature })
export type SortableColumn<T extends RowData> = ColumnDef<typeof features, T>

/** SPEC 9: queue drag-sort animation 200 ms; on touch only, a 500 ms press starts a drag. */
export const DRAG_ANIMATION_MS = 200
export const TOUCH_DELAY_MS = 500

/**
 * Mouse and pen drags start after a small move; touch is left to the TouchSensor so that the
 * 500 ms press applies on tablets (and a swipe still scrolls the page).
 */
export class MouseOrPenSensor extends PointerSensor {
  static activators = [
    {
      eventName: 'onPointerDown' as const,
      handler: ({ nativeEvent: e }: ReactPointerEvent) => e.isPrimary && e.button === 0 && e.pointerType !== 'touch',
    },
  ]
}

type Props<T extends RowData> = {
  columns: SortableColumn<T>[]
  data: T[]
  getRowId: (row: T) => string
  /** Drag handles shown and active (the unfiltered queue view only). */
  reorderable: boolean
  onMove?: (activeId: string, overId: string) => void
  sorting: SortingState
  onSortingChange: (sorting: SortingState) => void
  page: number
  pageCount: number
  total: number
  onPageChange: (page: number) => void
  loading?: boolean
  onRowClick?: (row: T) => void
  empty?: ReactNode
}

/**
 * The work order list: the look and server-side sort/paging of DataTable, plus drag-sorting of
 * rows by a handle (@dnd-kit/sortable) when `reorderable`.
 */
export function SortableTable<T extends RowData>(props: Props<T>) {
  const { t } = useLingui()
  const table = useTable({
    features,
    columns: props.columns,
    data: props.data,
    getRowId: props.getRowId,
    state: { sorting: props.sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    onSortingChange: (updater) => props.onSortingChange(typeof updater === 'function' ? updater(props.sorting) : updater),
  })
  const sensors = useSensors(
    useSensor(MouseOrPenSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: TOUCH_DELAY_MS, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const ids = props.data.map(props.getRowId)

  function onDragEnd(e: DragEndEvent) {
    if (!e.over || e.active.id === e.over.id) return
    props.onMove?.(String(e.active.id), String(e.over.id))
  }

  return (
    <div>
      <ScrollArea>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={!props.reorderable}>
            <Table striped highlightOnHover={Boolean(props.onRowClick)} verticalSpacing="sm" miw={900}>
              <Table.Thead>
                {table.getHeaderGroups().map((group) => (
                  <Table.Tr key={group.id}>
                    {props.reorderable && <Table.Th w={36} aria-label={t`Trascina`} />}
                    {group.headers.map((header) => {
                      const sorted = header.column.getIsSorted()
                      const content = header.isPlaceholder ? null : <FlexRender header={header} />
                      return (
                        <Table.Th key={header.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                          {header.column.getCanSort() ? (
                            <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }}>
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
                  <SortableRow key={row.id} row={row} reorderable={props.reorderable} onClick={props.onRowClick ? () => props.onRowClick?.(row.original) : undefined} />
                ))}
              </Table.Tbody>
            </Table>
          </SortableContext>
        </DndContext>
      </ScrollArea>
      {props.loading && (
        <Center p="md">
          <Loader size="sm" />
        </Center>
      )}
      {!props.loading && props.data.length === 0 && (
        <Text c="dimmed" ta="center" p="lg">
          {props.empty ?? <Trans>Nessun elemento</Trans>}
        </Text>
      )}
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          <Plural value={props.total} one="# ordine di lavoro" other="# ordini di lavoro" />
        </Text>
        {props.pageCount > 1 && <Pagination value={props.page} total={props.pageCount} onChange={props.onPageChange} />}
      </Group>
    </div>
  )
}

function SortableRow<T extends RowData>({ row, reorderable, onClick }: { row: Row<typeof features, T>; reorderable: boolean; onClick?: () => void }) {
  const { t } = useLingui()
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: row.id,
    disabled: !reorderable,
    transition: { duration: DRAG_ANIMATION_MS, easing: 'ease' },
  })
  return (
    <Table.Tr
      ref={setNodeRef}
      data-row-key={row.id}
      onClick={onClick}
      style={{
        cursor: onClick ? 'pointer' : undefined,
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        background: isDragging ? 'var(--mantine-color-body)' : undefined,
        boxShadow: isDragging ? 'var(--mantine-shadow-md)' : undefined,
        opacity: isDragging ? 0.95 : undefined,
      }}
    >
      {reorderable && (
        <Table.Td w={36} onClick={(e) => e.stopPropagation()}>
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t`Trascina per riordinare`}
            data-testid="drag-handle"
            style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            ⠿
          </ActionIcon>
        </Table.Td>
      )}
      {row.getAllCells().map((cell) => (
        <Table.Td key={cell.id}>
          <FlexRender cell={cell} />
        </Table.Td>
      ))}
    </Table.Tr>
  )
}
