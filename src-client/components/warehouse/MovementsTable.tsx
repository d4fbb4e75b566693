import { useLingui } from '@lingui/react/macro'
import { Badge, Group, Pagination, Table, Text } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import type { MovementRow } from '../../../src/domains/movements/schemas'
import { formatDateTime } from '../../../src/i18n/format'
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
  return (
    <div>
      <Table.ScrollContainer minWidth={1100}>
        <Table striped highlightOnHover data-testid={testid}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Numero`}</Table.Th>
              <Table.Th>{t`Tipo`}</Table.Th>
              <Table.Th>{t`Prodotto`}</Table.Th>
              <Table.Th>{t`Seriale`}</Table.Th>
              <Table.Th>{t`Da`}</Table.Th>
              <Table.Th>{t`A`}</Table.Th>
              <Table.Th ta="right">{t`Quantità`}</Table.Th>
              <Table.Th>{t`Stato`}</Table.Th>
              <Table.Th>{t`Quando`}</Table.Th>
              <Table.Th>{t`Chi`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr key={m._key} style={{ cursor: 'pointer' }} onClick={() => navigate({ to: '/app/warehouse/movements/$movementKey', params: { movementKey: m._key } })}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {movementName(m.number)}
                  </Text>
                </Table.Td>
                <Table.Td>{i18n._(MOVEMENT_TYPE_LABELS[m.type])}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600} span>
                    {m.product_code}
                  </Text>{' '}
                  <Text size="sm" c="dimmed" span>
                    {m.product_description}
                  </Text>
                </Table.Td>
                <Table.Td>{m.serial ?? ''}</Table.Td>
                <Table.Td>{m.from_position_code ?? ''}</Table.Td>
                <Table.Td>{m.to_position_code ?? ''}</Table.Td>
                <Table.Td ta="right">{formatQuantity(m.confirmed_quantity ?? m.planned_quantity)}</Table.Td>
                <Table.Td style={{ minWidth: 200 }}>
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
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.ended_at ?? m.started_at)}</Table.Td>
                <Table.Td>{m.user_name ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {onPage && pageCount !== undefined && pageCount > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pageCount} value={page ?? 1} onChange={onPage} size="sm" />
        </Group>
      )}
    </div>
  )
}
