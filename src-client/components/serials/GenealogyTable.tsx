import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Button, Group, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { GenealogyDirection, GenealogyRow } from '../../../src/domains/serials/schemas'
import { csvFile } from '../../../src/csv'
import { formatDateTime } from '../../../src/i18n/format'
import { trpc } from '../../lib/trpc'
import { LoadError, Loading } from '../QueryState'
import { downloadCsv } from '../reports/csv'
import { SerialStateBadge } from './SerialStateBadge'

function exportCsv(name: string, header: string[], rows: GenealogyRow[]) {
  const lines = [header, ...rows.map((r) => [r.depth, r.code, r.product_code, r.product_description, r.state, new Date(r.created_at).toISOString()])]
  downloadCsv(name, csvFile(lines))
}

/** Genealogy of a serial as an indented table (depth-first, as the server sends it) with its CSV export. */
export function GenealogyTable({ serialKey, code, direction }: { serialKey: string; code: string; direction: GenealogyDirection }) {
  const { t } = useLingui()
  const genealogy = useQuery(trpc.serials.genealogy.queryOptions({ key: serialKey, direction }))
  if (genealogy.isPending) return <Loading />
  if (genealogy.isError) return <LoadError error={genealogy.error} />
  const { rows, truncated } = genealogy.data
  const header = [t`Livello`, t`Codice`, t`Codice prodotto`, t`Prodotto`, t`Stato`, t`Creato il`]
  return (
    <>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {direction === 'backward' ? t`Tutto ciò di cui è fatto, a ogni livello.` : t`Tutto ciò in cui è entrato.`}
        </Text>
        <Button
          variant="default"
          size="xs"
          onClick={() => exportCsv(`${code}-${direction === 'backward' ? 'componenti' : 'utilizzi'}.csv`, header, rows)}
          data-testid={`genealogy-csv-${direction}`}
        >
          <Trans>Esporta CSV</Trans>
        </Button>
      </Group>
      {truncated && (
        <Alert color="yellow">
          <Trans>Genealogia troppo grande: sono mostrati solo i primi {rows.length} seriali.</Trans>
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid={`genealogy-${direction}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{header[1]}</Table.Th>
              <Table.Th>{header[3]}</Table.Th>
              <Table.Th>{header[0]}</Table.Th>
              <Table.Th>{header[5]}</Table.Th>
              <Table.Th>{header[4]}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={`${r.serial_key}-${r.depth}`}>
                <Table.Td style={{ paddingLeft: `calc(var(--mantine-spacing-xs) + ${r.depth * 1.25}rem)` }}>
                  {r.depth === 0 ? (
                    <Text fw={700} size="sm">
                      {r.code}
                    </Text>
                  ) : (
                    <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/app/traceability/serials/$serialKey" params={{ serialKey: r.serial_key }} />}>
                      {r.code}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td>{`${r.product_code} ${r.product_description}`}</Table.Td>
                <Table.Td>{r.depth}</Table.Td>
                <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                <Table.Td>
                  <SerialStateBadge state={r.state} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  )
}
