import { useLingui } from '@lingui/react/macro'
import { Badge, Group, Text } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import type { PositionRow } from '../../../src/domains/positions/schemas'
import { type RowColumn, RowTable } from './ListFrame'

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
  const columns: RowColumn<PositionRow>[] = [
    {
      header: t`Codice`,
      cell: (p) => (
        <Text size="sm" fw={600} c={p.active ? undefined : 'dimmed'}>
          {p.code}
        </Text>
      ),
    },
    { header: t`Descrizione`, cell: (p) => p.description },
    {
      header: t`Dove`,
      cell: (p) => (
        <Text size="sm" c="dimmed">
          {p.path_codes.slice(0, -1).join(' / ')}
        </Text>
      ),
    },
    { header: t`Contiene`, cell: (p) => (p.children > 0 ? t`${p.children} posizioni` : ''), align: 'right' },
    { header: null, cell: (p) => <PositionFlags p={p} /> },
  ]
  return (
    <RowTable
      testid={testid}
      minWidth={640}
      columns={columns}
      rows={rows}
      onRow={(p) => navigate({ to: '/app/warehouse/positions/$positionKey', params: { positionKey: p._key } })}
    />
  )
}
