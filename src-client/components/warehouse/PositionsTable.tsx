import { useLingui } from '@lingui/react/macro'
import { Badge, Group, Table, Text } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import type { PositionRow } from '../../../src/domains/positions/schemas'

/** Flags of a position as small badges (SPEC 3: owned, fixed, available, disposable). */
export function PositionFlags({ p }: { p: Pick<PositionRow, 'owned' | 'fixed' | 'available' | 'disposable' | 'active'> }) {
  const { t } = useLingui()
  return (
    <Group gap={4} wrap="wrap">
      {!p.active && (
        <Badge color="gray" variant="filled">
          {t`Disattivata`}
        </Badge>
      )}
      {!p.owned && <Badge color="grape" variant="light">{t`Non di proprietà`}</Badge>}
      {!p.fixed && <Badge color="cyan" variant="light">{t`Mobile`}</Badge>}
      {!p.available && <Badge color="orange" variant="light">{t`Non disponibile`}</Badge>}
      {p.disposable && <Badge color="yellow" variant="light">{t`A perdere`}</Badge>}
    </Group>
  )
}

/** Positions; a row opens the position. */
export function PositionsTable({ rows, testid = 'positions-table' }: { rows: PositionRow[]; testid?: string }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover data-testid={testid}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t`Codice`}</Table.Th>
            <Table.Th>{t`Descrizione`}</Table.Th>
            <Table.Th>{t`Dove`}</Table.Th>
            <Table.Th ta="right">{t`Contiene`}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((p) => (
            <Table.Tr key={p._key} style={{ cursor: 'pointer' }} onClick={() => navigate({ to: '/app/warehouse/positions/$positionKey', params: { positionKey: p._key } })}>
              <Table.Td>
                <Text size="sm" fw={600} c={p.active ? undefined : 'dimmed'}>
                  {p.code}
                </Text>
              </Table.Td>
              <Table.Td>{p.description}</Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {p.path_codes.slice(0, -1).join(' / ')}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{p.children > 0 ? t`${p.children} posizioni` : ''}</Table.Td>
              <Table.Td>
                <PositionFlags p={p} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
