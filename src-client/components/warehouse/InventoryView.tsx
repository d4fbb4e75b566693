import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { InventoryInput } from '../../../src/domains/movements/schemas'
import { LoadError, Loading } from '../QueryState'
import { trpc } from '../../lib/trpc'
import { formatQuantity } from './labels'

/** Inventory lines (position, product, quantity, serial, owned) and the totals per product. */
export function InventoryView({ input, showPosition = true }: { input: InventoryInput; showPosition?: boolean }) {
  const { t } = useLingui()
  const inv = useQuery({ ...trpc.movements.inventory.queryOptions(input), placeholderData: keepPreviousData, staleTime: 0 })
  if (inv.isPending) return <Loading />
  if (inv.isError) return <LoadError error={inv.error} />
  const { lines, totals, more } = inv.data
  if (lines.length === 0)
    return (
      <Badge variant="light" color="gray" size="lg" data-testid="inventory-empty">
        <Trans>Nessuna giacenza</Trans>
      </Badge>
    )
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
      <Stack gap="xs" style={{ gridColumn: 'span 2' }}>
        <Title order={4}>
          <Trans>Righe di inventario</Trans>
        </Title>
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="inventory-lines">
            <Table.Thead>
              <Table.Tr>
                {showPosition && <Table.Th>{t`Posizione`}</Table.Th>}
                <Table.Th>{t`Prodotto`}</Table.Th>
                <Table.Th>{t`Seriale`}</Table.Th>
                <Table.Th>{t`Di proprietà`}</Table.Th>
                <Table.Th ta="right">{t`Quantità`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((l) => (
                <Table.Tr key={`${l.position_key}|${l.product_key}|${l.serial}|${l.owned}`}>
                  {showPosition && <Table.Td>{l.position_code}</Table.Td>}
                  <Table.Td>
                    <Text size="sm" fw={600} span>
                      {l.product_code}
                    </Text>{' '}
                    <Text size="sm" c="dimmed" span>
                      {l.product_description}
                    </Text>
                  </Table.Td>
                  <Table.Td>{l.serial ?? ''}</Table.Td>
                  <Table.Td>{l.owned ? t`Sì` : t`No`}</Table.Td>
                  <Table.Td ta="right" c={l.quantity < 0 ? 'red' : undefined}>
                    {formatQuantity(l.quantity)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {more && (
          <Text size="sm" c="dimmed">
            <Trans>Sono mostrate le prime {lines.length} righe: restringi i filtri per vedere le altre (i totali le contano tutte).</Trans>
          </Text>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={4}>
          <Trans>Totali per prodotto</Trans>
        </Title>
        <Table striped data-testid="inventory-totals">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Prodotto`}</Table.Th>
              <Table.Th ta="right">{t`Quantità`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {totals.map((l) => (
              <Table.Tr key={l.product_key}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {l.product_code}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatQuantity(l.quantity)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </SimpleGrid>
  )
}
