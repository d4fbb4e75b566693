import { useLingui } from '@lingui/react/macro'
import { Badge, Group, Pagination, Text } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import type { MovementRow } from '../../../src/domains/movements/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { type RowColumn, RowTable } from './ListFrame'
import { formatQuantity, MOVEMENT_STATUS_COLORS, MOVEMENT_STATUS_LABELS, MOVEMENT_TYPE_LABELS, movementName } from './labels'

/** Movements, newest first; a row opens the movement. */
export function MovementsTable({
  rows,
  page,
  pageCount,
  onPage,
  testid = 'movements-table',
}: {
  rows: MovementRow[]
  page?: number
  pageCount?: number
  onPage?: (page: number) => void
  testid?: string
}) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const columns: RowColumn<MovementRow>[] = [
    {
      header: t`Numero`,
      cell: (m) => (
        <Text size="sm" fw={600}>
          {movementName(m.number)}
        </Text>
      ),
    },
    { header: t`Tipo`, cell: (m) => i18n._(MOVEMENT_TYPE_LABELS[m.type]) },
    {
      header: t`Prodotto`,
      cell: (m) => (
        <>
          <Text size="sm" fw={600} span>
            {m.product_code}
          </Text>{' '}
          <Text size="sm" c="dimmed" span>
            {m.product_description}
          </Text>
        </>
      ),
    },
    { header: t`Seriale`, cell: (m) => m.serial ?? '' },
    { header: t`Da`, cell: (m) => m.from_position_code ?? '' },
    { header: t`A`, cell: (m) => m.to_position_code ?? '' },
    { header: t`Quantità`, cell: (m) => formatQuantity(m.confirmed_quantity ?? m.planned_quantity), align: 'right' },
    {
      header: t`Stato`,
      style: { minWidth: 200 },
      cell: (m) => (
        <Group gap={4} wrap="nowrap">
          <Badge variant="light" color={MOVEMENT_STATUS_COLORS[m.status]}>
            {i18n._(MOVEMENT_STATUS_LABELS[m.status])}
          </Badge>
          {m.reverted_by_key && (
            <Badge variant="light" color="orange">
              {t`Stornato`}
            </Badge>
          )}
          {m.reverts_key && (
            <Badge variant="light" color="grape">
              {t`Storno`}
            </Badge>
          )}
        </Group>
      ),
    },
    { header: t`Quando`, style: { whiteSpace: 'nowrap' }, cell: (m) => formatDateTime(m.ended_at ?? m.started_at) },
    { header: t`Chi`, cell: (m) => m.user_name ?? '' },
  ]
  return (
    <div>
      <RowTable
        testid={testid}
        minWidth={1100}
        columns={columns}
        rows={rows}
        onRow={(m) => navigate({ to: '/app/warehouse/movements/$movementKey', params: { movementKey: m._key } })}
      />
      {onPage && pageCount !== undefined && pageCount > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pageCount} value={page ?? 1} onChange={onPage} size="sm" />
        </Group>
      )}
    </div>
  )
}
